"""``athar export identification ID OUT_DIR``: a dossier for a court or a commission.

Writes ``dossier.json`` (facts of the person and the case, the candidate's evidence and reasons,
claims, forensic results, reviews, conflicts, decisions with who and when, photo sha256 hashes, the
audit-chain head and the audit events about this identification) and ``SHA256SUMS`` so every file can
be checked with ``sha256sum -c``. No photo is copied: the hashes tie the dossier to the evidence.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from django.db.models import Q
from django.utils import timezone

from athar.archive.models import PhotoSighting
from athar.audit.chain import chain_head, record
from athar.audit.models import AuditEvent
from athar.audit.proofs import CHECKER, ProofRequest, write_proofs
from athar.core.errors import UserError
from athar.identification.faces import face_version
from athar.identification.facts import case_index, case_record
from athar.identification.models import Conflict, ForensicResult, Identification
from athar.identification.ranking import compute, subject_for_person
from athar.identification.records import claim_dict, conflict_dict, ident_dict
from athar.registry.models import ReportPhoto


def export_identification(ident: Identification, out_dir: Path, actor: str = "system") -> dict[str, Any]:
    out_dir = Path(out_dir)
    if out_dir.exists() and any(out_dir.iterdir()):
        raise UserError(f"{out_dir} is not empty")
    out_dir.mkdir(parents=True, exist_ok=True)
    dossier = build(ident)
    body = json.dumps(dossier, ensure_ascii=False, indent=1, default=str) + "\n"
    (out_dir / "dossier.json").write_text(body, encoding="utf-8")
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    (out_dir / "SHA256SUMS").write_text(f"{digest}  dossier.json\n", encoding="utf-8")
    event = record("identification.exported", object_type="identification", object_id=ident.pk, actor=actor,
                   data={"dossier_sha256": digest, "audit_head": dossier["audit_chain_head"]["hash"]})
    proofs = write_proofs(out_dir, _proof_request(ident, dossier, event.seq))
    return {"identification": ident.pk, "out_dir": str(out_dir), "dossier_sha256": digest,
            "status": ident.status, "evidence_level": ident.evidence_level, "checkpoint": proofs["checkpoint"],
            "events_proven": proofs["events_proven"],
            "files": ["dossier.json", "SHA256SUMS", "proofs/log.json", "proofs/checkpoint.txt", CHECKER]}


def _proof_request(ident: Identification, dossier: dict[str, Any], export_seq: int) -> ProofRequest:
    """The dossier bound to its export event; the decisions' events and the case photos' ingest
    events (which recorded the hashes the dossier lists) proven in the log."""
    request = ProofRequest()
    request.bind("dossier.json", export_seq, "dossier_sha256")
    request.event_seqs.update(e["seq"] for e in dossier["audit_events"])
    photo_ids = [str(i) for i in PhotoSighting.objects.filter(case=ident.case).values_list("photo_id", flat=True)]
    request.event_seqs.update(AuditEvent.objects.filter(object_type="photo", object_id__in=photo_ids,
                                                        action="photo.ingested").values_list("seq", flat=True))
    return request


def build(ident: Identification) -> dict[str, Any]:
    subject = subject_for_person(ident.person)
    computed = compute(subject, limit=1) if subject.reports else None
    candidate = _candidate(computed, ident.case_id)
    case = ident.case
    return {
        "generated_at": timezone.now().isoformat(),
        "note": "A statement about evidence and reviewers' decisions, not a finding of death by athar.",
        "identification": ident_dict(ident),
        "person": {"id": ident.person_id, "public_id": str(ident.person.public_id),
                   "reports": [_report(r) for r in subject.reports]},
        "case": {"id": case.pk, "public_id": str(case.public_id), "archive": case.archive.name,
                 "facility": case.facility.code, "facility_name": str(case.facility), "label": case.label,
                 "facts": {k: v for k, v in case_record(case).__dict__.items() if k not in ("case_id",)},
                 "photos": sorted({s.photo.sha256 for s in PhotoSighting.objects.filter(case=case).select_related("photo")})},
        "evidence": {"ranking": candidate, "forensic_results": [
            {"id": f.pk, "kind": f.kind, "result": f.result, "reference": f.reference, "by": f"user:{f.by_id}",
             "at": f.created_at, "withdrawn_at": f.withdrawn_at}
            for f in ForensicResult.objects.filter(person=ident.person, case=case).order_by("id")]},
        "claims": [claim_dict(c) for c in ident.person.claims.filter(case=case).select_related("by").order_by("id")],
        "conflicts": [conflict_dict(c) for c in Conflict.objects.filter(
            Q(person=ident.person) | Q(case=case)).order_by("id")],
        "audit_events": _events(ident),
        "audit_chain_head": chain_head(),
    }


def _candidate(computed: dict[str, Any] | None, case_id: int) -> dict[str, Any] | None:
    if computed is None:
        return None
    algorithm, ranking = computed["algorithm"], computed["ranking"]
    table_pos = {c.case_id: c for c in ranking.candidates}
    if case_id not in table_pos:
        ranking = algorithm.rank(computed["facts"], _table_of(computed), None, limit=1, include=(case_id,))
        table_pos = {c.case_id: c for c in ranking.candidates}
    c = table_pos.get(case_id)
    if c is None:
        return None
    return {"algorithm": algorithm.name, "version": algorithm.version, "rank": c.rank, "score": round(c.score, 3),
            "probability": round(c.probability, 4), "reasons": [r.as_dict() for r in c.reasons]}


def _table_of(computed: dict[str, Any]) -> Any:
    face = computed["algorithm"].face
    return case_index(face.get("model", ""), face_version(face.get("pipeline", "arcface"))).table


def _report(r: Any) -> dict[str, Any]:
    return {"id": r.pk, "source": r.source, "report_id": r.report_id, "version": r.version,
            "sex": r.sex, "birth_year": r.birth_year, "arrest_date": r.arrest_date,
            "arrest_date_precision": r.arrest_date_precision, "arresting_agency": r.arresting_agency,
            "distinguishing_marks": r.distinguishing_marks, "dental": r.dental, "medical": r.medical,
            "height_cm": r.height_cm, "build": r.build, "clothing": r.clothing, "belongings": r.belongings,
            "reporter_relation": r.reporter_relation,
            "photos": [p.sha256 for p in ReportPhoto.objects.filter(report=r).order_by("id")]}


def _events(ident: Identification) -> list[dict[str, Any]]:
    claim_ids = [str(i) for i in ident.person.claims.filter(case=ident.case).values_list("id", flat=True)]
    rows = AuditEvent.objects.filter(Q(object_type="identification", object_id=str(ident.pk))
                                     | Q(object_type="claim", object_id__in=claim_ids)).order_by("seq")
    return [{"seq": e.seq, "at": e.at, "actor": e.actor, "action": e.action, "object": f"{e.object_type}:{e.object_id}",
             "data": e.data, "hash": e.hash} for e in rows]
