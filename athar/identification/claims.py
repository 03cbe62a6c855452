"""Claims, reviews, conflicts and publication of identifications (docs/identification.md).

Rules:
- a positive claim opens an identification under review;
- two approvals from two different reviewers (never a claimant) and no open conflict on the
  person or the case make it *verified*: the family's caseworker is asked to inform the family;
- *publication* is a further step: every family that reported the person was informed (in person
  or by phone, recorded with the date and who) and consented to publication for its own report;
- one body, one person: at most one verified or published identification per case and per person,
  held by database constraints (``identification_one_active_per_*``) as well as here; one live
  review per reviewer and identification (``review_one_live_per_reviewer``).
Every decision is attributed, timestamped, reversible with a reason, and written to the audit
chain (identifiers and a hash of the reason only, never free text).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from athar.accounts.models import CLAIM_ROLES, FORENSIC_ROLES, INFORM_ROLES, PUBLISH_ROLES, REVIEW_ROLES, Role
from athar.archive.models import Case
from athar.audit.chain import actor_for_user, record
from athar.core.errors import UserError
from athar.identification import conflicts
from athar.identification.models import (
    ACTIVE_STATUSES,
    Claim,
    Conflict,
    FamilyInformed,
    ForensicResult,
    Identification,
    Review,
    Verdict,
)
from athar.identification.signals import family_informed, identification_status_changed
from athar.registry.consent import publication_consent
from athar.registry.lookup import caseworker_ids, reports_of
from athar.registry.models import MissingPerson, Report


class NotAllowed(UserError):
    """The user may not take this decision (a readable reason)."""


def _reason_hash(reason: str) -> str:
    return hashlib.sha256(reason.encode("utf-8")).hexdigest()


def _need_reason(reason: str) -> str:
    if not reason or not reason.strip():
        raise UserError(_("a reason is required"))
    return reason.strip()


def _may_claim(user: Any, person: MissingPerson, report: Report | None) -> None:
    if user.role not in CLAIM_ROLES:
        raise NotAllowed(_("a %(role)s cannot make claims (family members and caseworkers can)") % {"role": user.role})
    mine = [r for r in reports_of(person) if r.reporter_user_id == user.pk]
    if user.role == Role.FAMILY and not mine and not (report is not None and report.reporter_user_id == user.pk):
        raise NotAllowed(_("only a family member who reported this person can claim for them"))


def make_claim(person: MissingPerson, case: Case, verdict: str, by: Any, *, certainty: str = "probable",
               relation: str = "", on_behalf_of: str = "", report: Report | None = None) -> Claim:
    """Record a judgement on a candidate; a positive one opens (or re-opens) an identification.

    ``report``: the report on whose behalf the claim is made (the family's own); a family sees its
    own claims only, never another family's on the same person."""
    _may_claim(by, person, report)
    if verdict not in Verdict.values:
        raise UserError(_("unknown verdict %(verdict)s (use %(verdicts)s)") % {"verdict": verdict, "verdicts": ', '.join(Verdict.values)})
    if certainty not in Claim.Certainty.values:
        raise UserError(_("unknown certainty %(certainty)s (use %(certainties)s)") % {"certainty": certainty, "certainties": ', '.join(Claim.Certainty.values)})
    with transaction.atomic():
        claim = Claim.objects.create(person=person, case=case, verdict=verdict, certainty=certainty,
                                     relation=relation[:60], by=by, on_behalf_of=on_behalf_of[:120], report=report)
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
    if ident.status == Identification.Status.SET_ASIDE:
        return ident  # a reviewer set it aside: a new claim opens a new conflict, not a new review
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
        raise UserError(_("claim %(claim_id)s is already withdrawn") % {"claim_id": claim.pk})
    if by.pk != claim.by_id and by.role not in (Role.CASEWORKER, Role.REVIEWER, Role.ADMIN):
        raise NotAllowed(_("only the claimant, a caseworker or a reviewer can withdraw a claim"))
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
        raise NotAllowed(_("a %(role)s cannot record forensic results") % {"role": by.role})
    if kind not in ForensicResult.Kind.values or result not in ForensicResult.Result.values:
        raise UserError(_("kind must be dna, dental, fingerprint or other; result match, exclusion or inconclusive"))
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
        raise NotAllowed(_("a %(role)s cannot review identifications") % {"role": reviewer.role})
    if decision not in Review.Decision.values:
        raise UserError(_("decision must be approve or reject"))
    if decision == Review.Decision.REJECT:
        reason = _need_reason(reason)
    if Claim.objects.filter(person=ident.person, case=ident.case, by=reviewer).exists():
        raise NotAllowed(_("a reviewer cannot review an identification they claimed (not independent)"))
    with transaction.atomic():
        ident = Identification.objects.select_for_update().get(pk=ident.pk)
        if ident.reviews.filter(reviewer=reviewer, reversed_at__isnull=True).exists():
            raise UserError(_("you already reviewed this identification: reverse your review first"))
        if ident.status not in (Identification.Status.UNDER_REVIEW, Identification.Status.REJECTED):
            raise UserError(_("identification %(ident_id)s is %(status)s: nothing to review") % {"ident_id": ident.pk, "status": ident.status})
        row = _create_review(ident, reviewer, decision, reason)
        record("identification.review", object_type="identification", object_id=ident.pk,
               actor=actor_for_user(reviewer), data={"review": row.pk, "decision": decision,
                                                     "reason_sha256": _reason_hash(reason)})
        refresh(ident.person, ident.case)
    return row


def _create_review(ident: Identification, reviewer: Any, decision: str, reason: str) -> Review:
    """One live review per reviewer: the database refuses a second one (concurrent requests)."""
    try:
        with transaction.atomic():
            return Review.objects.create(identification=ident, reviewer=reviewer, decision=decision, reason=reason)
    except IntegrityError:
        raise UserError(_("you already reviewed this identification: reverse your review first")) from None


def reverse_review(row: Review, by: Any, reason: str) -> Review:
    """Undo a review (its reviewer or an administrator), with a reason; publication follows the rules."""
    reason = _need_reason(reason)
    if row.reversed_at is not None:
        raise UserError(_("review %(row_id)s is already reversed") % {"row_id": row.pk})
    if by.pk != row.reviewer_id and by.role != Role.ADMIN:
        raise NotAllowed(_("only the reviewer or an administrator can reverse a review"))
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
        raise NotAllowed(_("only a reviewer can withdraw an identification"))
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
    if ident.status in (Identification.Status.WITHDRAWN, Identification.Status.SET_ASIDE):
        return  # set aside: only reopening the conflict that set it aside brings it back
    if not _still_claimed(ident):
        _set_status(ident, Identification.Status.WITHDRAWN, None, "every positive claim was withdrawn")
        return
    target = _review_target(ident)
    if target == Identification.Status.VERIFIED and ident.status == Identification.Status.PUBLISHED:
        return  # still two approvals and nothing blocks: publication stands
    if target != ident.status:
        try:
            _set_status(ident, target, None, "")
        except IntegrityError:  # another identification of this case or person is active
            ident.refresh_from_db()


def _review_target(ident: Identification) -> str:
    """Where the reviews and conflicts put an identification (never *published*: a human step)."""
    active = ident.reviews.filter(reversed_at__isnull=True)
    if active.filter(decision=Review.Decision.REJECT).exists():
        return Identification.Status.REJECTED
    if len({r.reviewer_id for r in approvals(ident)}) >= 2 and not blocking_conflicts(ident):
        return Identification.Status.VERIFIED
    return Identification.Status.UNDER_REVIEW


def _still_claimed(ident: Identification) -> bool:
    return (Claim.objects.filter(person=ident.person, case=ident.case, verdict=Verdict.IS_THEM,
                                 withdrawn_at__isnull=True, set_aside_at__isnull=True).exists()
            or ForensicResult.objects.filter(person=ident.person, case=ident.case, withdrawn_at__isnull=True,
                                             result=ForensicResult.Result.MATCH).exists())


def _set_status(ident: Identification, status: str, by: Any, reason: str) -> None:
    """Change the status; IntegrityError (nothing changed) when it would make a second active
    identification of the same case or person."""
    was, was_published = ident.status, ident.published_at
    ident.status, ident.status_reason = status, reason
    if status == Identification.Status.PUBLISHED:
        ident.published_at = timezone.now()
    elif was == Identification.Status.PUBLISHED:
        ident.published_at = None
    try:
        with transaction.atomic():
            ident.save(update_fields=["status", "status_reason", "published_at", "status_changed_at"])
    except IntegrityError:
        ident.status, ident.published_at = was, was_published
        raise
    action = {"published": "identification.published", "withdrawn": "identification.withdrawn",
              "verified": "identification.verified", "set_aside": "identification.set_aside"}.get(
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
              Case.Status.UNDER_REVIEW if statuses & {Identification.Status.UNDER_REVIEW, Identification.Status.VERIFIED}
              else Case.Status.UNIDENTIFIED)
    if case.status != status:
        Case.objects.filter(pk=case.pk).update(status=status)
        case.status = status


# ---- the family first: informing, then publication ------------------------------------------------

def _caseworker_of(user: Any, report: Report) -> bool:
    return user.role == Role.ADMIN or user.pk in caseworker_ids(report)


def family_reports(ident: Identification) -> list[Report]:
    """The reports (one per family) that name the person, each as its family last wrote it: each must be
    informed and consent. Linkage may still hold an earlier version of a report the family has since
    changed; the current version is the one whose consent counts (a consent withdrawn in the new
    version is never outvoted by the old one)."""
    lineages = {r.lineage for r in reports_of(ident.person)}
    return list(Report.objects.filter(lineage__in=lineages, is_current=True, erased_at__isnull=True).order_by("id"))


def informed_lineages(ident: Identification) -> set[str]:
    """The reports (by lineage: every version of one report) whose family was told of this
    identification. Changing a report after being told does not undo having been told."""
    return set(FamilyInformed.objects.filter(identification=ident).values_list("report__lineage", flat=True))


def record_family_informed(ident: Identification, report: Report, by: Any, *, informed_on: dt.date,
                           method: str) -> FamilyInformed:
    """The caseworker told this report's family of the verified identification (in person or by
    phone). Nothing is published before this is recorded for every family."""
    if by.role not in INFORM_ROLES or not _caseworker_of(by, report):
        raise NotAllowed(_("only the family's caseworker (or an administrator) records that the family was informed"))
    if method not in FamilyInformed.Method.values:
        raise UserError(_("method must be in_person or phone"))
    if informed_on > timezone.localdate():
        raise UserError(_("the date the family was informed cannot be in the future"))
    if report.lineage not in {r.lineage for r in family_reports(ident)}:
        raise UserError(_("this report does not name the identified person"))
    with transaction.atomic():
        ident = Identification.objects.select_for_update().get(pk=ident.pk)
        if ident.status not in ACTIVE_STATUSES:
            raise UserError(_("identification %(ident_id)s is %(status)s: only a verified identification is told") % {"ident_id": ident.pk, "status": ident.status})
        if FamilyInformed.objects.filter(identification=ident, report__lineage=report.lineage).exists():
            raise UserError(_("this family was already recorded as informed"))
        row = FamilyInformed.objects.create(identification=ident, report=report, informed_by=by,
                                            informed_on=informed_on, method=method)
        record("identification.family_informed", object_type="identification", object_id=ident.pk,
               actor=actor_for_user(by), data={"report": report.pk, "method": method,
                                               "informed_on": informed_on.isoformat()})
        transaction.on_commit(lambda: family_informed.send(sender=Identification, identification=ident,
                                                           report=report))
    return row


def publication_blockers(ident: Identification) -> list[dict[str, Any]]:
    """Why this identification cannot be published now (empty: it can). Each item names the
    rule and, for staff, the report concerned."""
    out: list[dict[str, Any]] = []
    if ident.status != Identification.Status.VERIFIED:
        out.append({"rule": "not_verified", "status": ident.status})
    if blocking_conflicts(ident):
        out.append({"rule": "open_conflict"})
    informed = informed_lineages(ident)
    reports = family_reports(ident)
    if not reports:
        out.append({"rule": "no_report"})
    for report in reports:
        if report.lineage not in informed:
            out.append({"rule": "family_not_informed", "report": report.pk})
        if not publication_consent(report).given:  # the family's own word: web, paper, phone, import
            out.append({"rule": "no_consent", "report": report.pk})
    return out


def publish(ident: Identification, by: Any) -> Identification:
    """Publish a verified identification once every family was informed and consented.

    Re-checks, inside the transaction and with the row locked, that nothing else is active on the
    case or the person (the database constraint holds it as well)."""
    if by.role not in PUBLISH_ROLES:
        raise NotAllowed(_("a %(role)s cannot publish identifications") % {"role": by.role})
    with transaction.atomic():
        ident = Identification.objects.select_for_update().get(pk=ident.pk)
        if by.role == Role.CASEWORKER and not any(_caseworker_of(by, r) for r in family_reports(ident)):
            raise NotAllowed(_("only a caseworker of one of the families can publish"))
        blockers = publication_blockers(ident)
        if blockers:
            raise UserError(_("cannot publish yet: %(rules)s") % {"rules": ", ".join(sorted({b["rule"] for b in blockers}))})
        others = Identification.objects.filter(Q(case=ident.case) | Q(person=ident.person),
                                               status__in=ACTIVE_STATUSES).exclude(pk=ident.pk)
        if others.exists():
            raise NotAllowed(_("another identification of this case or person is active"))
        try:
            _set_status(ident, Identification.Status.PUBLISHED, by, "")
        except IntegrityError:
            raise NotAllowed(_("another identification of this case or person is active")) from None
        _sync_case(ident.case)
    return ident


def unpublish(ident: Identification, by: Any, reason: str) -> Identification:
    """Take a publication back (it stays verified): a reviewer's or administrator's decision."""
    reason = _need_reason(reason)
    if by.role not in REVIEW_ROLES:
        raise NotAllowed(_("only a reviewer can take a publication back"))
    if ident.status != Identification.Status.PUBLISHED:
        raise UserError(_("identification %(ident_id)s is not published") % {"ident_id": ident.pk})
    with transaction.atomic():
        _set_status(ident, Identification.Status.VERIFIED, by, reason)
        _sync_case(ident.case)
    return ident
