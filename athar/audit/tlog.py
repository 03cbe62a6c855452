"""The audit log as a transparency log: every ``AuditEvent``, in ``seq`` order, is a leaf of an
RFC 6962 Merkle tree, and checkpoints of that tree are signed with a key kept outside the database.

A leaf's data is the event's chain hash as 32 raw bytes (``bytes.fromhex(event.hash)``), so the
leaf hash is ``SHA-256(0x00 || event hash)``. The hash chain (``audit/chain.py``) ties every event's
content to its hash; the tree ties every hash to a root; the signed checkpoint ties the root to a
moment, outside the database. A rewrite (even with every later hash and the head recomputed), a
deletion anywhere, or a rollback to an older copy of the database no longer matches a checkpoint
taken before it (docs/evidence.md).
"""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy

from athar.audit.merkle import ProofError, Tree, leaf_hash, verify_consistency
from athar.audit.models import AuditEvent
from athar.core.findings import Finding
from athar.core.log_key import log_signer
from athar.core.signed_note import (
    Checkpoint,
    Note,
    NoteError,
    Verifier,
    parse_checkpoint,
    parse_note,
    parse_vkey,
    sign_note,
    verify_cosignature,
    verify_note,
)

CHECKPOINT_DIR = "checkpoints"


def event_leaf(event_hash: str) -> bytes:
    """The leaf hash of an event, from its chain hash (hex)."""
    return leaf_hash(bytes.fromhex(event_hash))


def current_tree() -> Tree:
    """The tree over every event in the database, in seq order (one pass, O(n) hashes)."""
    rows = AuditEvent.objects.order_by("seq").values_list("hash", flat=True).iterator(chunk_size=10_000)
    return Tree([event_leaf(h) for h in rows])


def b64(value: bytes) -> str:
    return base64.b64encode(value).decode()


@dataclass(frozen=True)
class SignedCheckpoint:
    checkpoint: Checkpoint
    note: Note

    def as_dict(self) -> dict[str, Any]:
        return {"origin": self.checkpoint.origin, "size": self.checkpoint.size, "root": b64(self.checkpoint.root),
                "root_hex": self.checkpoint.root.hex()}


def sign_tree(tree: Tree) -> SignedCheckpoint:
    """A checkpoint of ``tree`` signed with the log key."""
    signer = log_signer()
    checkpoint = Checkpoint(signer.name, tree.size, tree.root())
    return SignedCheckpoint(checkpoint, sign_note(checkpoint.text(), signer))


def checkpoint_dir() -> Path:
    return Path(settings.ATHAR_HOME) / CHECKPOINT_DIR


def write_checkpoint(signed: SignedCheckpoint, out: Path | None = None) -> list[Path]:
    """Keep the checkpoint in ``ATHAR_HOME/checkpoints/`` (one file per size, and ``latest``), and at
    ``out`` when asked. Files are written whole (temporary file, then renamed)."""
    folder = checkpoint_dir()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    text = signed.note.encode()
    paths = [folder / f"checkpoint-{signed.checkpoint.size:012d}.txt", folder / "latest"]
    if out is not None:
        paths.append(Path(out))
    for path in paths:
        _write_whole(path, text)
    return paths


def _write_whole(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


def latest_checkpoint() -> Checkpoint | None:
    """The last checkpoint written in ATHAR_HOME (not verified: for the worker's schedule)."""
    path = checkpoint_dir() / "latest"
    if not path.exists():
        return None
    try:
        return parse_checkpoint(parse_note(path.read_text(encoding="utf-8")).text)
    except NoteError:
        return None


def checkpoint_if_grown(min_age_minutes: int) -> dict[str, Any] | None:
    """The worker's schedule: a new checkpoint when the log grew and the last one is old enough."""
    if min_age_minutes <= 0:
        return None
    latest = checkpoint_dir() / "latest"
    if latest.exists():
        age = timezone.now().timestamp() - latest.stat().st_mtime
        if age < min_age_minutes * 60:
            return None
    tree = current_tree()
    last = latest_checkpoint()
    if last is not None and last.size == tree.size:
        latest.touch()
        return None
    signed = sign_tree(tree)
    write_checkpoint(signed)
    return signed.as_dict()


# --- checking the database against a checkpoint ------------------------------------------------

CHECKPOINT_UNREADABLE = gettext_lazy("the checkpoint cannot be read: %(error)s")
CHECKPOINT_UNSIGNED = gettext_lazy("the checkpoint is not signed by the log key %(key)s: it may be forged")
CHECKPOINT_OTHER_LOG = gettext_lazy("the checkpoint is of the log %(origin)s, not of this log (%(ours)s)")
LOG_ROLLED_BACK = gettext_lazy("the audit log has %(size)s events but the checkpoint attests %(attested)s: the "
                               "database was rolled back to an older copy or events were deleted")
LOG_FORKED = gettext_lazy("the audit log's first %(attested)s events do not have the checkpoint's root hash: events "
                          "were rewritten or removed after the checkpoint (a fork of the log)")
LOG_INCONSISTENT = gettext_lazy("the consistency proof from the checkpoint to the current log fails: %(error)s")


@dataclass
class CheckpointReport:
    """What ``athar verify --checkpoint`` found."""

    checkpoint: dict[str, Any] = field(default_factory=dict)
    current: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    witnesses: list[dict[str, Any]] = field(default_factory=list)
    unknown_signatures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "checkpoint": self.checkpoint, "current": self.current, "problems": self.problems,
                "witnesses": self.witnesses, "unknown_signatures": self.unknown_signatures}


def witness_verifiers(extra: list[str] | None = None) -> list[Verifier]:
    """The witnesses' verifier keys from ATHAR_LOG_WITNESSES and the command line."""
    keys = [*getattr(settings, "ATHAR_LOG_WITNESSES", []), *(extra or [])]
    return [parse_vkey(k) for k in keys if k.strip()]


def verify_against_checkpoint(text: str, witnesses: list[Verifier], log_key: Verifier | None = None,
                              tree: Tree | None = None) -> CheckpointReport:
    """Prove the current log extends the checkpoint (signature, size, root, consistency proof)."""
    report = CheckpointReport()
    log_key = log_key or log_signer().verifier
    try:
        note = parse_note(text)
        checkpoint = parse_checkpoint(note.text)
    except NoteError as exc:
        report.problems.append(Finding(CHECKPOINT_UNREADABLE, error=str(exc)))
        return report
    report.checkpoint = {"origin": checkpoint.origin, "size": checkpoint.size, "root": b64(checkpoint.root)}
    if not verify_note(note, log_key):
        report.problems.append(Finding(CHECKPOINT_UNSIGNED, key=log_key.vkey))
    if checkpoint.origin != log_key.name:
        report.problems.append(Finding(CHECKPOINT_OTHER_LOG, origin=checkpoint.origin, ours=log_key.name))
    _check_witnesses(report, note, witnesses, log_key)
    tree = tree if tree is not None else current_tree()
    report.current = {"size": tree.size, "root": b64(tree.root())}
    report.problems += consistency_problems(tree, checkpoint)
    return report


def consistency_problems(tree: Tree, checkpoint: Checkpoint) -> list[str]:
    """Rollback, fork or a failing proof, each named; [] when the tree extends the checkpoint."""
    if tree.size < checkpoint.size:
        return [Finding(LOG_ROLLED_BACK, size=tree.size, attested=checkpoint.size)]
    if tree.root(checkpoint.size) != checkpoint.root:
        return [Finding(LOG_FORKED, attested=checkpoint.size)]
    try:  # the proof a witness or an expert would check, from the checkpoint to today's root
        verify_consistency(checkpoint.size, tree.size, checkpoint.root, tree.root(),
                           tree.consistency_proof(checkpoint.size))
    except ProofError as exc:
        return [Finding(LOG_INCONSISTENT, error=str(exc))]
    return []


def _check_witnesses(report: CheckpointReport, note: Note, witnesses: list[Verifier], log_key: Verifier) -> None:
    known = {(log_key.name, log_key.key_id)}
    for witness in witnesses:
        known.add((witness.name, witness.key_id))
        when = verify_cosignature(note, witness)
        report.witnesses.append({"name": witness.name, "key": witness.vkey, "cosigned": when is not None,
                                 "at": _iso(when) if when is not None else None})
    report.unknown_signatures = [line.name for line in note.signatures if (line.name, line.key_id) not in known]


def _iso(timestamp: int) -> str:
    from datetime import UTC, datetime
    return datetime.fromtimestamp(timestamp, tz=UTC).isoformat()


def scheduled_checkpoint() -> dict[str, Any] | None:
    """The worker's call when idle: a checkpoint every ATHAR_CHECKPOINT_MINUTES if the log grew. A
    missing or unreadable key is said on standard error and never stops the worker's other jobs."""
    import sys

    from athar.core.errors import UserError
    try:
        return checkpoint_if_grown(int(getattr(settings, "ATHAR_CHECKPOINT_MINUTES", 0)))
    except (UserError, OSError) as exc:
        sys.stderr.write(f"athar worker: no checkpoint of the audit log: {exc}\n")
        return None
