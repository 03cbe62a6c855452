"""Claims, reviews, conflicts and publication of identifications (docs/identification.md).

Rules: a claim goes to review; publishing needs two approvals from independent reviewers (not a
claimant, two different people) and no open conflict on the person or the case. Every decision is
attributed, timestamped, reversible with a reason, and written to the audit chain (identifiers and
a hash of the reason only, never free text).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from athar.accounts.models import Role
from athar.archive.models import Case
from athar.audit.chain import actor_for_user, record
from athar.identification import conflicts
from athar.identification.models import Claim, Conflict, ForensicResult, Identification, Review, Verdict
from athar.identification.signals import identification_status_changed
from athar.registry.lookup import reports_of
from athar.registry.models import MissingPerson

CLAIM_ROLES = {Role.FAMILY, Role.CASEWORKER, Role.ADMIN}
REVIEW_ROLES = {Role.REVIEWER, Role.ADMIN}
FORENSIC_ROLES = {Role.REVIEWER, Role.CASEWORKER, Role.ADMIN}


class NotAllowed(ValueError):
    """The user may not take this decision (a readable reason)."""


def _reason_hash(reason: str) -> str:
    return hashlib.sha256(reason.encode("utf-8")).hexdigest()


def _need_reason(reason: str) -> str:
    if not reason or not reason.strip():
        raise ValueError("a reason is required")
    return reason.strip()


def _may_claim(user: Any, person: MissingPerson) -> None:
    if user.role not in CLAIM_ROLES:
        raise NotAllowed(f"a {user.role} cannot make claims (family members and caseworkers can)")
    if user.role == Role.FAMILY and not any(r.reporter_user_id == user.pk for r in reports_of(person)):
        raise NotAllowed("only a family member who reported this person can claim for them")


def make_claim(person: MissingPerson, case: Case, verdict: str, by: Any, *, certainty: str = "probable",
               relation: str = "", on_behalf_of: str = "") -> Claim:
    """Record a judgement on a candidate; a positive one opens (or re-opens) an identification."""
    _may_claim(by, person)
    if verdict not in Verdict.values:
        raise ValueError(f"unknown verdict {verdict!r} (use {', '.join(Verdict.values)})")
    if certainty not in Claim.Certainty.values:
        raise ValueError(f"unknown certainty {certainty!r} (use {', '.join(Claim.Certainty.values)})")
    with transaction.atomic():
        claim = Claim.objects.create(person=person, case=case, verdict=verdict, certainty=certainty,
                                     relation=relation[:60], by=by, on_behalf_of=on_behalf_of[:120])
        record("identification.claim", object_type="claim", object_id=claim.pk, actor=actor_for_user(by),
               data={"person": person.pk, "case": case.pk, "verdict": verdict, "certainty": certainty,
                     "role": by.role})
        if verdict == Verdict.IS_THEM:
            _open_identification(person, case, by)
        conflicts.detect(person, case)
        refresh(person, case)
    return claim


def _open_identification(person: MissingPerson, case: Case, by: Any) -> Identification:
    ident, made = Identification.objects.get_or_create(person=person, case=case)
    if not made and ident.status in (Identification.Status.WITHDRAWN, Identification.Status.REJECTED):
        ident.status, ident.status_reason = Identification.Status.UNDER_REVIEW, ""
        ident.save(update_fields=["status", "status_reason", "status_changed_at"])
    if made or ident.status == Identification.Status.UNDER_REVIEW:
        record("identification.under_review", object_type="identification", object_id=ident.pk,
               actor=actor_for_user(by), data={"person": person.pk, "case": case.pk})
    return ident


def withdraw_claim(claim: Claim, by: Any, reason: str) -> Claim:
    """Reverse a claim (the claimant, or a caseworker, reviewer or administrator), with a reason."""
    reason = _need_reason(reason)
    if claim.withdrawn_at is not None:
        raise ValueError(f"claim {claim.pk} is already withdrawn")
    if by.pk != claim.by_id and by.role not in (Role.CASEWORKER, Role.REVIEWER, Role.ADMIN):
        raise NotAllowed("only the claimant, a caseworker or a reviewer can withdraw a claim")
    with transaction.atomic():
        claim.withdrawn_at, claim.withdrawn_by, claim.withdrawn_reason = timezone.now(), by, reason
        claim.save(update_fields=["withdrawn_at", "withdrawn_by", "withdrawn_reason"])
        record("identification.claim_withdrawn", object_type="claim", object_id=claim.pk, actor=actor_for_user(by),
               data={"person": claim.person_id, "case": claim.case_id, "reason_sha256": _reason_hash(reason)})
        refresh(claim.person, claim.case)
    return claim


def record_forensic(person: MissingPerson, case: Case, kind: str, result: str, by: Any,
                    reference: str = "") -> ForensicResult:
    """A DNA, dental or other result from outside athar: a match is forensic evidence; an
    exclusion contradicts any claim on the pair (a conflict)."""
    if by.role not in FORENSIC_ROLES:
        raise NotAllowed(f"a {by.role} cannot record forensic results")
    if kind not in ForensicResult.Kind.values or result not in ForensicResult.Result.values:
        raise ValueError("kind must be dna, dental, fingerprint or other; result match, exclusion or inconclusive")
    with transaction.atomic():
        row = ForensicResult.objects.create(person=person, case=case, kind=kind, result=result, by=by,
                                            reference=reference[:200])
        record("identification.forensic_result", object_type="forensic_result", object_id=row.pk,
               actor=actor_for_user(by), data={"person": person.pk, "case": case.pk, "kind": kind, "result": result})
        if result == ForensicResult.Result.MATCH:
            _open_identification(person, case, by)
        conflicts.detect(person, case)
        refresh(person, case)
    return row


def review(ident: Identification, reviewer: Any, decision: str, reason: str = "") -> Review:
    """A reviewer approves or rejects; the second independent approval publishes when nothing blocks."""
    if reviewer.role not in REVIEW_ROLES:
        raise NotAllowed(f"a {reviewer.role} cannot review identifications")
    if decision not in Review.Decision.values:
        raise ValueError("decision must be approve or reject")
    if decision == Review.Decision.REJECT:
        reason = _need_reason(reason)
    if Claim.objects.filter(person=ident.person, case=ident.case, by=reviewer).exists():
        raise NotAllowed("a reviewer cannot review an identification they claimed (not independent)")
    if ident.reviews.filter(reviewer=reviewer, reversed_at__isnull=True).exists():
        raise ValueError("you already reviewed this identification: reverse your review first")
    if ident.status not in (Identification.Status.UNDER_REVIEW, Identification.Status.REJECTED):
        raise ValueError(f"identification {ident.pk} is {ident.status}: nothing to review")
    with transaction.atomic():
        row = Review.objects.create(identification=ident, reviewer=reviewer, decision=decision, reason=reason)
        record("identification.review", object_type="identification", object_id=ident.pk,
               actor=actor_for_user(reviewer), data={"review": row.pk, "decision": decision,
                                                     "reason_sha256": _reason_hash(reason)})
        refresh(ident.person, ident.case)
    return row


def reverse_review(row: Review, by: Any, reason: str) -> Review:
    """Undo a review (its reviewer or an administrator), with a reason; publication follows the rules."""
    reason = _need_reason(reason)
    if row.reversed_at is not None:
        raise ValueError(f"review {row.pk} is already reversed")
    if by.pk != row.reviewer_id and by.role != Role.ADMIN:
        raise NotAllowed("only the reviewer or an administrator can reverse a review")
    with transaction.atomic():
        row.reversed_at, row.reversed_by, row.reversed_reason = timezone.now(), by, reason
        row.save(update_fields=["reversed_at", "reversed_by", "reversed_reason"])
        record("identification.review_reversed", object_type="identification", object_id=row.identification_id,
               actor=actor_for_user(by), data={"review": row.pk, "reason_sha256": _reason_hash(reason)})
        refresh(row.identification.person, row.identification.case)
    return row


def withdraw_identification(ident: Identification, by: Any, reason: str) -> Identification:
    """Take back an identification (published or not): a reviewer's decision, with a reason."""
    reason = _need_reason(reason)
    if by.role not in REVIEW_ROLES:
        raise NotAllowed("only a reviewer can withdraw an identification")
    with transaction.atomic():
        _set_status(ident, Identification.Status.WITHDRAWN, by, reason)
        _sync_case(ident.case)
    return ident


def blocking_conflicts(ident: Identification) -> list[Conflict]:
    return list(Conflict.objects.filter(Q(person=ident.person) | Q(case=ident.case), resolved_at__isnull=True))


def approvals(ident: Identification) -> list[Review]:
    return list(ident.reviews.filter(reversed_at__isnull=True, decision=Review.Decision.APPROVE))


def refresh(person: MissingPerson, case: Case) -> None:
    """Recompute evidence level and status of every identification touching the person or the case."""
    for ident in Identification.objects.filter(Q(person=person) | Q(case=case)):
        _refresh_one(ident)
    _sync_case(case)


def _refresh_one(ident: Identification) -> None:
    level = conflicts.evidence_level(ident.person, ident.case)
    if level != ident.evidence_level:
        ident.evidence_level = level
        ident.save(update_fields=["evidence_level", "status_changed_at"])
    if ident.status == Identification.Status.WITHDRAWN:
        return
    if not _still_claimed(ident):
        _set_status(ident, Identification.Status.WITHDRAWN, None, "every positive claim was withdrawn")
        return
    active = ident.reviews.filter(reversed_at__isnull=True)
    rejected = active.filter(decision=Review.Decision.REJECT).exists()
    approved = len({r.reviewer_id for r in approvals(ident)}) >= 2
    if rejected:
        target = Identification.Status.REJECTED
    elif approved and not blocking_conflicts(ident):
        target = Identification.Status.PUBLISHED
    else:
        target = Identification.Status.UNDER_REVIEW
    if target != ident.status:
        _set_status(ident, target, None, "")


def _still_claimed(ident: Identification) -> bool:
    return (Claim.objects.filter(person=ident.person, case=ident.case, verdict=Verdict.IS_THEM,
                                 withdrawn_at__isnull=True).exists()
            or ForensicResult.objects.filter(person=ident.person, case=ident.case, withdrawn_at__isnull=True,
                                             result=ForensicResult.Result.MATCH).exists())


def _set_status(ident: Identification, status: str, by: Any, reason: str) -> None:
    was = ident.status
    ident.status, ident.status_reason = status, reason
    if status == Identification.Status.PUBLISHED:
        ident.published_at = timezone.now()
    ident.save(update_fields=["status", "status_reason", "published_at", "status_changed_at"])
    action = {"published": "identification.published", "withdrawn": "identification.withdrawn"}.get(
        status, "identification.status")
    transaction.on_commit(lambda: identification_status_changed.send(
        sender=Identification, identification=ident, previous=was, status=status))
    record(action, object_type="identification", object_id=ident.pk,
           actor=actor_for_user(by) if by else "system",
           data={"from": was, "to": status, "evidence_level": ident.evidence_level, "person": ident.person_id,
                 "case": ident.case_id, "reviewers": sorted(r.reviewer_id for r in approvals(ident)),
                 **({"reason_sha256": _reason_hash(reason)} if reason else {})})


def _sync_case(case: Case) -> None:
    """The case's status follows its identifications (identified only when one is published)."""
    statuses = set(Identification.objects.filter(case=case).values_list("status", flat=True))
    status = (Case.Status.IDENTIFIED if Identification.Status.PUBLISHED in statuses else
              Case.Status.UNDER_REVIEW if Identification.Status.UNDER_REVIEW in statuses else Case.Status.UNIDENTIFIED)
    if case.status != status:
        Case.objects.filter(pk=case.pk).update(status=status)
        case.status = status
