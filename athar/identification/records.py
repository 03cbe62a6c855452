"""Claims, reviews, identifications and conflicts as plain data: what ``athar claims --json`` prints
and what a dossier for a court records (one shape for both)."""

from __future__ import annotations

from typing import Any

from athar.identification import claims as claim_rules
from athar.identification import notices
from athar.identification.models import Challenge, Claim, Conflict, Identification, Notice, Review


def claim_dict(c: Claim) -> dict[str, Any]:
    return {"id": c.pk, "person": c.person_id, "case": c.case_id, "verdict": c.verdict, "certainty": c.certainty,
            "relation": c.relation, "by": f"user:{c.by_id}", "role": c.by.role, "on_behalf_of": c.on_behalf_of,
            "report": c.report_id, "at": c.created_at, "active": c.active, "withdrawn_at": c.withdrawn_at,
            "withdrawn_reason": c.withdrawn_reason, "set_aside_at": c.set_aside_at,
            "set_aside_reason": c.set_aside_reason}


def review_dict(r: Review) -> dict[str, Any]:
    return {"id": r.pk, "identification": r.identification_id, "reviewer": f"user:{r.reviewer_id}",
            "decision": r.decision, "reason": r.reason, "at": r.created_at, "reversed_at": r.reversed_at,
            "reversed_reason": r.reversed_reason}


def ident_dict(i: Identification) -> dict[str, Any]:
    return {"id": i.pk, "person": i.person_id, "case": i.case_id, "status": i.status,
            "evidence_level": i.evidence_level, "published_at": i.published_at,
            "approvals": len(claim_rules.approvals(i)),
            "blocking_conflicts": [c.pk for c in claim_rules.blocking_conflicts(i)],
            "families_informed": sorted(i.informed.values_list("report_id", flat=True)),
            "publication_blockers": claim_rules.publication_blockers(i) if i.status == "verified" else [],
            "open_challenges": sorted(i.challenges.filter(status="open").values_list("id", flat=True)),
            "reviews": [review_dict(r) for r in i.reviews.order_by("id")]}


def conflict_dict(c: Conflict) -> dict[str, Any]:
    return {"id": c.pk, "kind": c.kind, "person": c.person_id, "case": c.case_id,
            "claims": sorted(c.claims.values_list("id", flat=True)), "detail": c.detail, "opened_at": c.opened_at,
            "open": c.is_open, "resolved_at": c.resolved_at,
            "resolved_by": f"user:{c.resolved_by_id}" if c.resolved_by_id else None, "resolution": c.resolution,
            "kept_claim": c.kept_claim_id,
            "set_aside_claims": sorted(c.set_aside_claims.values_list("id", flat=True))}


def challenge_dict(c: Challenge) -> dict[str, Any]:
    """A challenge as data: who opened it and on what grounds, who decided and how (the reasons are
    staff text: shown to reviewers and the families' caseworkers, never in the audit chain)."""
    return {"id": c.pk, "identification": c.identification_id, "grounds": c.grounds, "status": c.status,
            "claims": sorted(c.claims.values_list("id", flat=True)), "report": c.report_id,
            "opened_by": f"user:{c.opened_by_id}" if c.opened_by_id else "system", "opened_at": c.opened_at,
            "reason": c.reason, "decided_by": f"user:{c.decided_by_id}" if c.decided_by_id else None,
            "decided_at": c.decided_at, "decision_reason": c.decision_reason}


def task_dict(t: Notice) -> dict[str, Any]:
    """A caseworker's task (inform a family; tell a family of a change) as data, in words: the CLI
    (``claims tasks``) and the API (``/api/tasks``) print this one shape. ``reason`` is the
    reviewer's reason behind the change (a set-aside claim's, or the identification's new status's)."""
    reason = t.claim.set_aside_reason if t.claim is not None else (
        t.identification.status_reason if t.identification is not None else "")
    return {"id": t.pk, "kind": t.kind, "report": t.report_id, "case": t.case_id, "status": t.status,
            "identification": t.identification_id, "text": notices.describe(t), "reason": reason,
            "created_at": t.created_at, "done_at": t.done_at}
