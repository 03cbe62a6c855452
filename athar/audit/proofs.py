"""Proofs for an export: the audit events an export rests on, each with its inclusion proof in a
checkpoint signed at export time, the log's verifier key, cosigned checkpoints with a consistency
proof to it, and the stand-alone ``verify_evidence.py`` that checks all of it without athar.

Written into ``<export>/proofs/``: ``log.json`` (everything the checker reads) and
``checkpoint.txt`` (the signed note, as ``athar verify --checkpoint`` takes it); ``verify_evidence.py``
goes at the top of the export.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from django.conf import settings

from athar.audit.merkle import Tree
from athar.audit.models import AuditEvent
from athar.audit.tlog import b64, checkpoint_dir, event_leaf, sign_tree, write_checkpoint
from athar.core.signed_note import NoteError, parse_checkpoint, parse_note, verify_note

CHECKER = "verify_evidence.py"
COSIGNED_DIR = "cosigned"


@dataclass
class Binding:
    """A file of the export whose sha256 an audit event records (``event.data[field]``)."""

    path: str
    event_seq: int
    field: str = "sha256"


@dataclass
class ProofRequest:
    event_seqs: set[int] = field(default_factory=set)
    bindings: list[Binding] = field(default_factory=list)

    def bind(self, path: str, event_seq: int, data_field: str = "sha256") -> None:
        self.event_seqs.add(event_seq)
        self.bindings.append(Binding(path, event_seq, data_field))


def _event_dict(event: AuditEvent) -> dict[str, Any]:
    return {"seq": event.seq, "at": event.at.isoformat(), "actor": event.actor, "action": event.action,
            "object_type": event.object_type, "object_id": event.object_id, "data": event.data,
            "prev_hash": event.prev_hash, "hash": event.hash}


def write_proofs(out_dir: Path, request: ProofRequest) -> dict[str, Any]:
    """Sign a checkpoint of the log as it is now, prove each requested event in it, and write the
    proofs and the checker into ``out_dir``. Call after the export's own audit event is recorded."""
    rows = list(AuditEvent.objects.order_by("seq").values_list("seq", "hash"))
    index_of = {seq: i for i, (seq, _) in enumerate(rows)}
    tree = Tree([event_leaf(h) for _, h in rows])
    signed = sign_tree(tree)
    write_checkpoint(signed)
    events = []
    for event in AuditEvent.objects.filter(seq__in=request.event_seqs).order_by("seq"):
        index = index_of[event.seq]
        events.append({"leaf_index": index, "event": _event_dict(event),
                       "inclusion_proof": [b64(h) for h in tree.inclusion_proof(index)]})
    verifier = signed.note.signatures[0]
    log = {
        "format": "athar-evidence-proofs/v1",
        "log": {"origin": signed.checkpoint.origin, "verifier_key": _vkey(), "size": signed.checkpoint.size,
                "root": b64(signed.checkpoint.root), "signed_by": verifier.name},
        "checkpoint": signed.note.encode(),
        "events": events,
        "bindings": [{"path": b.path, "event_seq": b.event_seq, "field": b.field} for b in request.bindings],
        "witnesses": list(getattr(settings, "ATHAR_LOG_WITNESSES", [])),
        "cosigned_checkpoints": _cosigned(tree, signed.checkpoint.origin),
        "leaf": "SHA-256(0x00 || the event's chain hash as 32 bytes); chain hash = SHA-256(prev_hash (hex text) "
                "|| canonical JSON of seq, at, actor, action, object_type, object_id, data)",
    }
    folder = out_dir / "proofs"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "log.json").write_text(json.dumps(log, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (folder / "checkpoint.txt").write_text(signed.note.encode(), encoding="utf-8")
    (out_dir / CHECKER).write_bytes(files("athar.audit").joinpath(CHECKER).read_bytes())
    return {"checkpoint": signed.as_dict(), "events_proven": len(events), "cosigned": len(log["cosigned_checkpoints"])}


def _vkey() -> str:
    from athar.core.log_key import log_signer
    return log_signer().verifier.vkey


def _cosigned(tree: Tree, origin: str) -> list[dict[str, Any]]:
    """Cosigned checkpoints kept in ATHAR_HOME/checkpoints/cosigned/ (brought back from witnesses),
    each with the consistency proof from it to the export's checkpoint; ones this log no longer
    extends are left out here (``athar verify --checkpoint`` names them)."""
    folder = checkpoint_dir() / COSIGNED_DIR
    if not folder.is_dir():
        return []
    from athar.core.log_key import log_signer
    log_key = log_signer().verifier
    out = []
    for path in sorted(folder.glob("*.txt")):
        try:
            note = parse_note(path.read_text(encoding="utf-8"))
            checkpoint = parse_checkpoint(note.text)
        except NoteError:
            continue
        if (checkpoint.origin != origin or not verify_note(note, log_key) or checkpoint.size > tree.size
                or tree.root(checkpoint.size) != checkpoint.root):
            continue
        out.append({"note": note.encode(), "size": checkpoint.size,
                    "consistency_proof": [b64(h) for h in tree.consistency_proof(checkpoint.size)]})
    return out
