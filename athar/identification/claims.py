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

The states and transitions are the table in ``lifecycle.py``: every status change passes
``_set_status``, which refuses a move the table does not hold. A decided (verified or published)
identification is never moved by the system: a claim against it opens a *challenge* while the
decision stands (``challenges.py``); only a reviewer's explicit, reasoned decision takes it back,
and the families already told get a "tell the family" task. Who may act is asked of
``policy.may_*`` here, so the web, the API and the command line cannot differ.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from athar.accounts.models import Role
from athar.archive.models import Case
from athar.audit.chain import actor_for_user, record
from athar.core.errors import UserError
from athar.identification import conflicts, lifecycle, notices, policy
from athar.identification.concerned import family_reports, informed_lineages, report_consents_to_publication
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
from athar.identification.signals import announce_after_commit, family_informed, identification_status_changed
from athar.registry.lookup import caseworker_ids, reports_of
from athar.registry.models import MissingPerson, Report

__all__ = ["NotAllowed", "family_reports", "informed_lineages", "make_claim", "publish", "review"]


class NotAllowed(UserError):
    """The user may not take this decision (a readable reason)."""


def _reason_hash(reason: str) -> str:
    return hashlib.sha256(reason.encode("utf-8")).hexdigest()


def _need_reason(reason: str) -> str:
    if not reason or not reason.strip():
        raise UserError(_("a reason is required"))
    return reason.strip()


def _may_claim(user: Any, person: MissingPerson, report: Report | None) -> None:
    if policy.may_claim(user, person, report):
        return
    if policy.role_of(user) not in ("family", "caseworker"):
        raise NotAllowed(_("a %(role)s cannot make claims (family members and caseworkers can)")
                         % {"role": policy.role_of(user) or _("inactive account")})
    raise NotAllowed(_("only a family member who reported this person can claim for them"))


def _own_report(user: Any, person: MissingPerson, report: Report | None) -> Report | None:
    """The report a claim speaks for: the one named, else the family's own report of the person,
    else the one report of the person its caseworker looks after."""
    if report is not None:
        return report
    linked = [r for r in reports_of(person) if not r.erased_at]
    mine = [r for r in linked if r.reporter_user_id == user.pk]
    if not mine and getattr(user, "role", "") == Role.CASEWORKER:
        mine = [r for r in linked if user.pk in caseworker_ids(r)]
    return mine[0] if len(mine) == 1 else None


def _set_aside_earlier(report: Report | None, by: Any, case: Case) -> Claim | None:
    """This family's earlier claim on the case that a reviewer set aside, while that stands."""
    rows = Claim.objects.set_aside().positive().filter(case=case)
    rows = rows.filter(report__lineage=report.lineage) if report is not None else rows.filter(by=by)
    return rows.order_by("-set_aside_at").first()


def _require(ident: Identification, target: str, action: str) -> None:
    """A user's request for a move the lifecycle does not allow from here: a readable refusal."""
    if not lifecycle.allowed("identification", ident.status, target, action):
        raise UserError(_("identification %(ident_id)s is %(status)s: this cannot be done now")
                        % {"ident_id": ident.pk, "status": ident.status})


def make_claim(person: MissingPerson, case: Case, verdict: str, by: Any, *, certainty: str = "probable",
               relation: str = "", on_behalf_of: str = "", report: Report | None = None) -> Claim:
    """Record a judgement on a candidate; a positive one opens (or re-opens) an identification.

    ``report``: the report on whose behalf the claim is made (the family's own); a family sees its
    own claims only, never another family's on the same person."""
    _may_claim(by, person, report)
    report = _own_report(by, person, report)
    if verdict not in Verdict.values:
        raise UserError(_("unknown verdict %(verdict)s (use %(verdicts)s)") % {"verdict": verdict, "verdicts": ', '.join(Verdict.values)})
    if certainty not in Claim.Certainty.values:
        raise UserError(_("unknown certainty %(certainty)s (use %(certainties)s)") % {"certainty": certainty, "certainties": ', '.join(Claim.Certainty.values)})
    with transaction.atomic():
        earlier = _set_aside_earlier(report, by, case) if verdict == Verdict.IS_THEM else None
        claim = Claim.objects.create(person=person, case=case, verdict=verdict, certainty=certainty,
                                     relation=relation[:60], by=by, on_behalf_of=on_behalf_of[:120], report=report)
        record("identification.claim", object_type="claim", object_id=claim.pk, actor=actor_for_user(by),
               data={"person": person.pk, "case": case.pk, "verdict": verdict, "certainty": certainty,
                     "role": by.role})
        if earlier is not None:
            _hold(claim, earlier)
            return claim
        if verdict == Verdict.IS_THEM and not conflicts.decided_elsewhere(person, case):
            _open_identification(person, case, by)
        conflicts.detect(person, case, claim=claim)
        refresh(person, case, "claim", by)
    return claim


def _hold(claim: Claim, earlier: Claim) -> None:
    """A family that repeats itself opens nothing new: its word is kept, set aside on arrival by the
    decision that set its earlier claim aside (its caseworker may ask for a challenge)."""
    claim.set_aside_at, claim.set_aside_by = timezone.now(), earlier.set_aside_by
    claim.set_aside_reason, claim.set_aside_by_conflict = earlier.set_aside_reason, earlier.set_aside_by_conflict
    claim.save(update_fields=["set_aside_at", "set_aside_by", "set_aside_reason", "set_aside_by_conflict"])
    record("identification.claim_held", object_type="claim", object_id=claim.pk, actor=actor_for_user(claim.by),
           data={"earlier": earlier.pk, "case": claim.case_id, "person": claim.person_id,
                 "conflict": earlier.set_aside_by_conflict_id})
    notices.tell_set_aside([claim])


def _open_identification(person: MissingPerson, case: Case, by: Any, action: str = "claim") -> Identification:
    ident, made = Identification.objects.get_or_create(person=person, case=case)
    if ident.status == Identification.Status.SET_ASIDE:
        return ident  # a reviewer set it aside: a new claim opens a new conflict, not a new review
    if not made and ident.status in (Identification.Status.WITHDRAWN, Identification.Status.REJECTED):
        _set_status(ident, Identification.Status.UNDER_REVIEW, by, "", action)
    if made or ident.status == Identification.Status.UNDER_REVIEW:
        record("identification.under_review", object_type="identification", object_id=ident.pk,
               actor=actor_for_user(by), data={"person": person.pk, "case": case.pk})
    return ident


def withdraw_claim(claim: Claim, by: Any, reason: str) -> Claim:
    """Reverse a claim (the claimant, or a caseworker, reviewer or administrator), with a reason."""
    reason = _need_reason(reason)
    if claim.withdrawn_at is not None:
        raise UserError(_("claim %(claim_id)s is already withdrawn") % {"claim_id": claim.pk})
    if not policy.may_withdraw_claim(by, claim):
        raise NotAllowed(_("only the claimant, a caseworker or a reviewer can withdraw a claim"))
    with transaction.atomic():
        claim.withdrawn_at, claim.withdrawn_by, claim.withdrawn_reason = timezone.now(), by, reason
        claim.save(update_fields=["withdrawn_at", "withdrawn_by", "withdrawn_reason"])
        record("identification.claim_withdrawn", object_type="claim", object_id=claim.pk, actor=actor_for_user(by),
               data={"person": claim.person_id, "case": claim.case_id, "reason_sha256": _reason_hash(reason)})
        ident = Identification.objects.filter(person=claim.person, case=claim.case).first()
        if ident is not None and ident.status in lifecycle.DECIDED and not _still_claimed(ident):
            from athar.identification import challenges  # here: challenges imports this module

            challenges.open_challenge(ident, "claims_withdrawn", claims=[claim])  # the decision stands
        refresh(claim.person, claim.case, "withdraw_claim", by)
    return claim


def record_forensic(person: MissingPerson, case: Case, kind: str, result: str, by: Any,
                    reference: str = "") -> ForensicResult:
    """A DNA, dental or other result from outside athar: a match is forensic evidence; an
    exclusion contradicts any claim on the pair (a conflict). Against a decided identification
    (an exclusion of its pair, or a match of its case with another person or of its person with
    another case) it opens a challenge while the decision stands: only a reviewer moves it."""
    if not policy.may_record_forensic(by):
        raise NotAllowed(_("a %(role)s cannot record forensic results") % {"role": policy.role_of(by)})
    if kind not in ForensicResult.Kind.values or result not in ForensicResult.Result.values:
        raise UserError(_("kind must be dna, dental, fingerprint or other; result match, exclusion or inconclusive"))
    with transaction.atomic():
        row = ForensicResult.objects.create(person=person, case=case, kind=kind, result=result, by=by,
                                            reference=reference[:200])
        record("identification.forensic_result", object_type="forensic_result", object_id=row.pk,
               actor=actor_for_user(by), data={"person": person.pk, "case": case.pk, "kind": kind, "result": result})
        from athar.identification import challenges  # here: challenges imports this module

        ident = Identification.objects.active().filter(person=person, case=case).first()
        if ident is not None and result == ForensicResult.Result.EXCLUSION:
            challenges.open_challenge(ident, "evidence", by=by)  # the decision stands until a reviewer decides
        elsewhere = conflicts.decided_elsewhere(person, case)
        if result == ForensicResult.Result.MATCH and elsewhere is not None:
            # A match on a pair another family's decided identification contradicts (the same case,
            # another person; or the same person, another case): new evidence for reviewers, never a
            # silent move. Upheld, the match opens its own identification (challenges._uphold).
            challenges.open_challenge(elsewhere, "evidence", by=by)
        elif result == ForensicResult.Result.MATCH:
            _open_identification(person, case, by, "forensic")
        conflicts.detect(person, case)
        refresh(person, case, "forensic", by)
    return row


def review(ident: Identification, reviewer: Any, decision: str, reason: str = "") -> Review:
    """A reviewer approves or rejects; the second independent approval publishes when nothing blocks."""
    if policy.role_of(reviewer) not in ("reviewer", "admin"):
        raise NotAllowed(_("a %(role)s cannot review identifications") % {"role": policy.role_of(reviewer) or _("inactive account")})
    if decision not in Review.Decision.values:
        raise UserError(_("decision must be approve or reject"))
    if decision == Review.Decision.REJECT:
        reason = _need_reason(reason)
    if not policy.may_review(reviewer, ident):
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
        refresh(ident.person, ident.case, "review", reviewer)
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
    if not policy.may_reverse_review(by, row):
        raise NotAllowed(_("only the reviewer or an administrator can reverse a review"))
    with transaction.atomic():
        row.reversed_at, row.reversed_by, row.reversed_reason = timezone.now(), by, reason
        row.save(update_fields=["reversed_at", "reversed_by", "reversed_reason"])
        record("identification.review_reversed", object_type="identification", object_id=row.identification_id,
               actor=actor_for_user(by), data={"review": row.pk, "reason_sha256": _reason_hash(reason)})
        ident = Identification.objects.select_for_update().get(pk=row.identification_id)
        if ident.status in lifecycle.DECIDED and _review_target(ident) != Identification.Status.VERIFIED:
            # A reversal: this reviewer's explicit, reasoned decision takes the identification back.
            _set_status(ident, Identification.Status.UNDER_REVIEW, by, reason, "reverse_review")
        refresh(ident.person, ident.case, "reverse_review", by)
    return row


def withdraw_identification(ident: Identification, by: Any, reason: str) -> Identification:
    """Take back an identification (published or not): a reviewer's decision, with a reason."""
    reason = _need_reason(reason)
    if not policy.may_take_back(by, ident):
        raise NotAllowed(_("only a reviewer can withdraw an identification"))
    with transaction.atomic():
        ident = Identification.objects.select_for_update().get(pk=ident.pk)
        _require(ident, Identification.Status.WITHDRAWN, "withdraw_identification")
        _set_status(ident, Identification.Status.WITHDRAWN, by, reason, "withdraw_identification")
        _sync_case(ident.case)
    return ident


def blocking_conflicts(ident: Identification) -> list[Conflict]:
    return list(Conflict.objects.filter(Q(person=ident.person) | Q(case=ident.case), resolved_at__isnull=True))


def approvals(ident: Identification) -> list[Review]:
    return list(ident.reviews.filter(reversed_at__isnull=True, decision=Review.Decision.APPROVE))


def refresh(person: MissingPerson, case: Case, action: str, by: Any = None) -> None:
    """Recompute evidence level and status of every identification touching the person or the case,
    as the consequence of ``action`` by ``by`` (the lifecycle table says which moves it may make).
    A decided identification is never moved here: only explicit decisions move it."""
    for ident in Identification.objects.filter(Q(person=person) | Q(case=case)):
        _refresh_one(ident, action, by)
    _sync_case(case)


def _refresh_one(ident: Identification, action: str, by: Any) -> None:
    level = conflicts.evidence_level(ident.person, ident.case)
    if level != ident.evidence_level:
        ident.evidence_level = level
        ident.save(update_fields=["evidence_level", "status_changed_at"])
    if ident.status in (Identification.Status.WITHDRAWN, Identification.Status.SET_ASIDE):
        return  # set aside: only reopening the conflict that set it aside brings it back
    if ident.status in lifecycle.DECIDED:
        return  # decided: the decision stands until a reviewer explicitly takes it back
    if not _still_claimed(ident):
        _set_status(ident, Identification.Status.WITHDRAWN, by, "every positive claim was withdrawn", action)
        return
    target = _review_target(ident)
    if target != ident.status:
        try:
            _set_status(ident, target, by, "", action)
        except IntegrityError:  # another identification of this case or person is active
            ident.refresh_from_db()


def _review_target(ident: Identification) -> str:
    """Where the reviews and conflicts put an identification (never *published*: a human step)."""
    active = ident.reviews.filter(reversed_at__isnull=True)
    if active.filter(decision=Review.Decision.REJECT).exists():
        return Identification.Status.REJECTED
    if (len({r.reviewer_id for r in approvals(ident)}) >= 2 and not blocking_conflicts(ident)
            and not conflicts.decided_elsewhere(ident.person, ident.case)):
        return Identification.Status.VERIFIED
    return Identification.Status.UNDER_REVIEW


def _still_claimed(ident: Identification) -> bool:
    return (Claim.objects.live().positive().filter(person=ident.person, case=ident.case).exists()
            or ForensicResult.objects.filter(person=ident.person, case=ident.case, withdrawn_at__isnull=True,
                                             result=ForensicResult.Result.MATCH).exists())


def _set_status(ident: Identification, status: str, by: Any, reason: str, action: str) -> None:
    """Change the status by ``action`` (a row of the lifecycle table, else ``IllegalTransition``);
    IntegrityError (nothing changed) when it would make a second active identification of the same
    case or person. A decided identification that changes (other than being published) gets the
    families already told a "tell the family" task: "informed" records are never lost."""
    was, was_published = ident.status, ident.published_at
    lifecycle.check("identification", was, status, action)
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
    event = {"published": "identification.published", "withdrawn": "identification.withdrawn",
              "verified": "identification.verified", "set_aside": "identification.set_aside"}.get(
        status, "identification.status")
    announce_after_commit(lambda: identification_status_changed.send(
        sender=Identification, identification=ident, previous=was, status=status))
    record(event, object_type="identification", object_id=ident.pk,
           actor=actor_for_user(by) if by else "system",
           data={"from": was, "to": status, "by_action": action, "evidence_level": ident.evidence_level,
                 "person": ident.person_id, "case": ident.case_id,
                 "reviewers": sorted(r.reviewer_id for r in approvals(ident)),
                 **({"reason_sha256": _reason_hash(reason)} if reason else {})})
    if was in lifecycle.DECIDED and (was, status) != ("verified", "published"):
        notices.tell_informed_families(ident, status)


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
# Which families an identification concerns (their own claim or own ranking led to it; a name-only
# link never) is ``concerned.py``: family_reports and informed_lineages are imported from there.


def record_family_informed(ident: Identification, report: Report, by: Any, *, informed_on: dt.date,
                           method: str) -> FamilyInformed:
    """The caseworker told this report's family of the verified identification (in person or by
    phone). Nothing is published before this is recorded for every family."""
    if policy.role_of(by) not in ("caseworker", "admin") or not policy._is_caseworker_of(by, report):
        raise NotAllowed(_("only the family's caseworker (or an administrator) records that the family was informed"))
    if method not in FamilyInformed.Method.values:
        raise UserError(_("method must be in_person or phone"))
    if informed_on > timezone.localdate():
        raise UserError(_("the date the family was informed cannot be in the future"))
    if not policy.may_record_informed(by, ident, report):
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
        announce_after_commit(lambda: family_informed.send(sender=Identification, identification=ident,
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
    if ident.challenges.filter(status="open").exists():
        out.append({"rule": "open_challenge"})
    informed = informed_lineages(ident)
    reports = family_reports(ident)
    if not reports:
        out.append({"rule": "no_report"})
    for report in reports:
        if report.lineage not in informed:
            out.append({"rule": "family_not_informed", "report": report.pk})
        if not report_consents_to_publication(report):
            out.append({"rule": "no_consent", "report": report.pk})
    return out


# Why an identification cannot be published yet, in words (the refusal reaches pages as well as
# the command line; the rule keys stay in ``publication_blockers`` for programs).
BLOCKER_WORDS = {
    "not_verified": gettext_lazy("it is not verified by two reviewers"),
    "open_conflict": gettext_lazy("a conflict on this case or person is open"),
    "open_challenge": gettext_lazy("reviewers were asked to look again and have not decided"),
    "no_report": gettext_lazy("no family's report names this person"),
    "family_not_informed": gettext_lazy("a family has not yet been told in person"),
    "no_consent": gettext_lazy("a family has not agreed to publication"),
}


def blockers_in_words(blockers: list[dict[str, Any]]) -> str:
    """The rules that hold a publication back, said in the active language, one each."""
    rules = sorted({str(b["rule"]) for b in blockers})
    return "; ".join(str(BLOCKER_WORDS.get(rule, rule)) for rule in rules)


def publish(ident: Identification, by: Any) -> Identification:
    """Publish a verified identification once every family was informed and consented.

    Re-checks, inside the transaction and with the row locked, that nothing else is active on the
    case or the person (the database constraint holds it as well)."""
    if policy.role_of(by) not in ("caseworker", "reviewer", "admin"):
        raise NotAllowed(_("a %(role)s cannot publish identifications") % {"role": policy.role_of(by) or _("inactive account")})
    with transaction.atomic():
        ident = Identification.objects.select_for_update().get(pk=ident.pk)
        if not policy.may_publish(by, ident):
            raise NotAllowed(_("only a caseworker of one of the families can publish"))
        blockers = publication_blockers(ident)
        if blockers:
            raise UserError(_("cannot publish yet: %(rules)s") % {"rules": blockers_in_words(blockers)})
        others = Identification.objects.active().filter(Q(case=ident.case) | Q(person=ident.person)).exclude(
            pk=ident.pk)
        if others.exists():
            raise NotAllowed(_("another identification of this case or person is active"))
        try:
            _set_status(ident, Identification.Status.PUBLISHED, by, "", "publish")
        except IntegrityError:
            raise NotAllowed(_("another identification of this case or person is active")) from None
        _sync_case(ident.case)
    return ident


def unpublish(ident: Identification, by: Any, reason: str) -> Identification:
    """Take a publication back (it stays verified): a reviewer's or administrator's decision."""
    reason = _need_reason(reason)
    if not policy.may_take_back(by, ident):
        raise NotAllowed(_("only a reviewer can take a publication back"))
    with transaction.atomic():
        ident = Identification.objects.select_for_update().get(pk=ident.pk)
        if ident.status != Identification.Status.PUBLISHED:
            raise UserError(_("identification %(ident_id)s is not published") % {"ident_id": ident.pk})
        _set_status(ident, Identification.Status.VERIFIED, by, reason, "unpublish")
        _sync_case(ident.case)
    return ident
