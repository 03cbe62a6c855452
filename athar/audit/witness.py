"""A witness (C2SP tlog-witness, in a file instead of over HTTP): a partner organisation checks that
a log only grows and cosigns its checkpoints (C2SP tlog-cosignature, cosignature/v1).

The witness keeps, per log origin, the largest size and root it has cosigned (a JSON file of its
own, never the log's database). It cosigns a new checkpoint only when the log's signature holds and
a consistency proof leads from that size and root to the new ones; a smaller tree (a rollback) or
another root for a size it has seen (a fork) is refused, and nothing is written. The first
checkpoint of a log is taken on trust (there is nothing to compare it with) and said so.
"""

from __future__ import annotations

import base64
import binascii
import fcntl
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from athar.audit.merkle import ProofError, verify_consistency
from athar.core.errors import UserError
from athar.core.signed_note import (
    Note,
    NoteError,
    Signer,
    Verifier,
    cosign,
    parse_checkpoint,
    parse_note,
    verify_note,
)


@dataclass(frozen=True)
class ConsistencyProof:
    old_size: int
    new_size: int
    hashes: list[bytes]

    def as_dict(self) -> dict[str, Any]:
        return {"old_size": self.old_size, "new_size": self.new_size,
                "proof": [base64.b64encode(h).decode() for h in self.hashes]}


def parse_proof(text: str) -> ConsistencyProof:
    try:
        data = json.loads(text)
        return ConsistencyProof(int(data["old_size"]), int(data["new_size"]),
                                [base64.b64decode(h, validate=True) for h in data["proof"]])
    except (ValueError, KeyError, TypeError, binascii.Error) as exc:
        raise UserError(f"the consistency proof cannot be read: {exc}") from exc


@contextmanager
def _locked_state(path: Path) -> Iterator[dict[str, Any]]:
    """The witness's state, locked while one checkpoint is judged; written whole when it changes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lock_path = path.with_name(path.name + ".lock")
    with open(lock_path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        state: dict[str, Any] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        before = json.dumps(state, sort_keys=True)
        yield state
        if json.dumps(state, sort_keys=True) != before:
            temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            temporary.write_text(json.dumps(state, indent=1, sort_keys=True), encoding="utf-8")
            temporary.replace(path)


def witness(note_text: str, proof: ConsistencyProof | None, log_key: Verifier, signer: Signer,
            state_path: Path, now: int | None = None) -> dict[str, Any]:
    """Judge a checkpoint and cosign it, or raise UserError saying why not (nothing changes then)."""
    try:
        note = parse_note(note_text)
        checkpoint = parse_checkpoint(note.text)
    except NoteError as exc:
        raise UserError(f"not a checkpoint: {exc}") from exc
    if checkpoint.origin != log_key.name or not verify_note(note, log_key):
        raise UserError(f"the checkpoint is not signed by the log key {log_key.vkey}: not cosigned")
    with _locked_state(state_path) as state:
        seen = state.get(checkpoint.origin)
        trusted_first = seen is None
        if seen is not None:
            _check_growth(seen, checkpoint.size, checkpoint.root, proof)
        timestamp = int(time.time()) if now is None else now
        cosigned = Note(note.text, note.signatures).with_signature(cosign(note, signer, timestamp))
        state[checkpoint.origin] = {"size": checkpoint.size, "root": base64.b64encode(checkpoint.root).decode(),
                                    "cosigned_at": timestamp}
    return {"origin": checkpoint.origin, "size": checkpoint.size, "witness": signer.name,
            "previous_size": None if seen is None else seen["size"], "first_seen": trusted_first,
            "cosigned_at": timestamp, "note": cosigned.encode()}


def _check_growth(seen: dict[str, Any], size: int, root: bytes, proof: ConsistencyProof | None) -> None:
    old_size, old_root = int(seen["size"]), base64.b64decode(seen["root"])
    if size < old_size:
        raise UserError(f"refused: the log shows {size} events but this witness has cosigned {old_size} "
                        "(a rollback)")
    if size == old_size:
        if root != old_root:
            raise UserError(f"refused: another root for size {size}, which this witness has cosigned (a fork)")
        return
    if proof is None or proof.old_size != old_size or proof.new_size != size:
        raise UserError(f"this witness last cosigned size {old_size}: send a consistency proof from {old_size} "
                        f"to {size} (athar log proof --old-size {old_size} --checkpoint FILE)")
    try:
        verify_consistency(old_size, size, old_root, root, proof.hashes)
    except ProofError as exc:
        raise UserError(f"refused: the log is not an append-only extension of size {old_size}: {exc}") from exc
