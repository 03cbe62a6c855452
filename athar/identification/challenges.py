"""Challenges: questions put to reviewers about a decided identification while the decision stands.

A decided (verified or published) identification is never moved back by the system. What used to
reopen it — a new claim of the case for another person (or of the person for another case), every
claim on it withdrawn, a forensic exclusion — now opens (or joins) one *challenge*; a caseworker may
open one too, with a reason, for a family the identification concerns or whose claim it set aside.

Only a reviewer ends it, with a reason:
- *upheld*: a reversal. The identification goes back to review (its live reviews are reversed with
  the same reason: two new independent approvals are needed); the claims of the challenge stand
  (their conflicts open as usual); a set-aside family's request reopens the conflict that set it
  aside. The families already told are told again (a task for their caseworkers).
- *dismissed*: the decision stands; the challenge's claims are set aside with the reason and their
  families' caseworkers get the task of telling them.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from athar.audit.chain import actor_for_user, record
from athar.core.errors import UserError
from athar.identification import claims as rules
from athar.identification import conflicts, lifecycle, policy
from athar.identification.models import Challenge, Claim, ForensicResult, Identification, Review
from athar.registry.models import Report


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def open_challenge(ident: Identification, grounds: str, *, claims: list[Claim] | tuple[Claim, ...] = (),
                   by: Any = None, report: Report | None = None, reason: str = "") -> Challenge:
    """Open a challenge of a decided identification, or add ``claims`` to the one already open."""
    if ident.status not in lifecycle.DECIDED:
        raise UserError(_("identification %(ident_id)s is %(status)s: only a decided identification is challenged")
                        % {"ident_id": ident.pk, "status": ident.status})
    current = Challenge.objects.filter(identification=ident, status=Challenge.Status.OPEN).first()
    if current is None:
        try:
            with transaction.atomic():
                current = Challenge.objects.create(identification=ident, grounds=grounds, opened_by=by,
                                                   report=report, reason=reason)
        except IntegrityError:  # opened at the same moment by another request: join it
            current = Challenge.objects.get(identification=ident, status=Challenge.Status.OPEN)
        else:
            record("identification.challenge_opened", object_type="challenge", object_id=current.pk,
                   actor=actor_for_user(by) if by is not None else "system",
                   data={"identification": ident.pk, "grounds": grounds, "claims": sorted(c.pk for c in claims),
                         "report": report.pk if report else None,
                         **({"reason_sha256": _hash(reason)} if reason else {})})
            current.claims.add(*claims)
            return current
    if claims:
        current.claims.add(*claims)
        record("identification.challenge_joined", object_type="challenge", object_id=current.pk,
               actor=actor_for_user(by) if by is not None else "system",
               data={"identification": ident.pk, "grounds": grounds, "claims": sorted(c.pk for c in claims)})
    return current


def request_challenge(ident: Identification, report: Report, by: Any, reason: str) -> Challenge:
    """A caseworker asks reviewers to look again at a decided identification, for a family it
    concerns or whose claim it set aside: with a reason (kept; the audit holds its hash)."""
    reason = (reason or "").strip()
    if not reason:
        raise UserError(_("a reason is required"))
    if not policy.may_request_challenge(by, ident, report):
        raise rules.NotAllowed(_("only the caseworker of a family concerned can ask for a challenge"))
    with transaction.atomic():
        ident = Identification.objects.select_for_update().get(pk=ident.pk)
        held = list(Claim.objects.set_aside().positive().filter(report__lineage=report.lineage, case_id=ident.case_id))
        challenge = open_challenge(ident, Challenge.Grounds.REQUEST, claims=held, by=by, report=report, reason=reason)
        if challenge.report_id is None:  # joined an open one: the request still names its family
            Challenge.objects.filter(pk=challenge.pk).update(report=report)
    return challenge


def decide(challenge: Challenge, by: Any, uphold: bool, reason: str) -> Challenge:
    """A reviewer upholds (a reversal: back to review) or dismisses (the decision stands)."""
    reason = (reason or "").strip()
    if not reason:
        raise UserError(_("a reason is required"))
    if not policy.may_decide_conflicts(by):
        raise rules.NotAllowed(_("a %(role)s cannot decide challenges (reviewers can)")
                               % {"role": policy.role_of(by) or _("inactive account")})
    with transaction.atomic():
        challenge = Challenge.objects.select_for_update().get(pk=challenge.pk)
        if not challenge.is_open:
            raise UserError(_("challenge %(challenge_id)s is already decided") % {"challenge_id": challenge.pk})
        if challenge.claims.filter(by=by).exists() or Claim.objects.filter(
                person_id=challenge.identification.person_id, case_id=challenge.identification.case_id,
                by=by).exists():
            raise rules.NotAllowed(_("a reviewer cannot decide a challenge of claims they made (not independent)"))
        status = Challenge.Status.UPHELD if uphold else Challenge.Status.DISMISSED
        challenge.status, challenge.decided_at, challenge.decided_by = status, timezone.now(), by
        challenge.decision_reason = reason
        challenge.save(update_fields=["status", "decided_at", "decided_by", "decision_reason"])
        record("identification.challenge_" + status, object_type="challenge", object_id=challenge.pk,
               actor=actor_for_user(by), data={"identification": challenge.identification_id,
                                               "reason_sha256": _hash(reason)})
        (_uphold if uphold else _dismiss)(challenge, by, reason)
    return challenge


def _uphold(challenge: Challenge, by: Any, reason: str) -> None:
    ident = Identification.objects.select_for_update().get(pk=challenge.identification_id)
    if ident.status in lifecycle.DECIDED:
        rules._set_status(ident, Identification.Status.UNDER_REVIEW, by, reason, "uphold_challenge")
    now = timezone.now()
    for review in Review.objects.filter(identification=ident, reversed_at__isnull=True):
        review.reversed_at, review.reversed_by, review.reversed_reason = now, by, reason
        review.save(update_fields=["reversed_at", "reversed_by", "reversed_reason"])
    held = list(challenge.claims.set_aside().not_withdrawn())
    for conflict in {c.set_aside_by_conflict for c in held if c.set_aside_by_conflict is not None}:
        if not conflict.is_open:
            conflicts.reopen(conflict, by, reason)
    others = [c for c in held if c.set_aside_by_conflict_id is None]
    Claim.objects.filter(pk__in=[c.pk for c in others]).update(
        set_aside_at=None, set_aside_by=None, set_aside_reason="", set_aside_by_conflict=None)
    for claim in challenge.claims.live().positive():
        rules._open_identification(claim.person, claim.case, by, "uphold_challenge")
        conflicts.detect(claim.person, claim.case)
        rules.refresh(claim.person, claim.case, "uphold_challenge", by)
    for match in _contradicting_matches(ident):  # a forensic match of another pair: it stands now
        opened = rules._open_identification(match.person, match.case, by, "uphold_challenge")
        if opened.status == Identification.Status.SET_ASIDE:  # set aside by a conflict: the match outweighs it
            rules._set_status(opened, Identification.Status.UNDER_REVIEW, by, reason, "uphold_challenge")
        conflicts.detect(match.person, match.case)
        rules.refresh(match.person, match.case, "uphold_challenge", by)
    rules.refresh(ident.person, ident.case, "uphold_challenge", by)


def _contradicting_matches(ident: Identification) -> list[ForensicResult]:
    """Live forensic matches of this identification's case with another person, or of its person
    with another case (``record_forensic`` opened a challenge for them)."""
    return list(ForensicResult.objects.filter(Q(case_id=ident.case_id) | Q(person_id=ident.person_id),
                                              result=ForensicResult.Result.MATCH, withdrawn_at__isnull=True)
                .exclude(person_id=ident.person_id, case_id=ident.case_id).select_related("person", "case"))


def _dismiss(challenge: Challenge, by: Any, reason: str) -> None:
    ident = challenge.identification
    standing = [c for c in challenge.claims.live().positive()
                if (c.person_id, c.case_id) != (ident.person_id, ident.case_id)]
    conflicts.set_aside(standing, by, reason, "dismiss_challenge")
    # A set-aside family's request dismissed: its caseworker tells the family (again).
    from athar.identification import notices

    notices.tell_set_aside(list(challenge.claims.set_aside()))


def open_challenges() -> list[Challenge]:
    return list(Challenge.objects.filter(status=Challenge.Status.OPEN)
                .select_related("identification__case__facility").order_by("opened_at")[:200])


def view(challenge: Challenge) -> dict[str, Any]:
    """What a reviewer reads before deciding: the identification's facts, the challenger's reason,
    and the evidence of both sides beside the case's recorded facts — the standing families'
    reports and the challenging families' (their claims' reports, or the family a caseworker asked
    for), never a contact detail. ``rows``: one per fact, the case's value then each side's."""
    from athar.identification.comparison import facts_side_by_side
    from athar.identification.concerned import family_reports

    ident = Identification.objects.select_related("case__facility").get(pk=challenge.identification_id)
    standing = family_reports(ident)
    ids = {c.report_id for c in challenge.claims.all() if c.report_id is not None}
    if challenge.report_id is not None:
        ids.add(challenge.report_id)
    lineages = set(Report.objects.filter(pk__in=ids).values_list("lineage", flat=True))
    challenging = [r for r in Report.objects.current().filter(lineage__in=lineages, erased_at__isnull=True)
                   if r.lineage not in {s.lineage for s in standing}]
    sides = [("standing", r) for r in standing] + [("challenging", r) for r in challenging]
    facts = [facts_side_by_side(r, ident.case) for _side, r in sides]
    rows = [{"feature": row["feature"], "label": row["label"], "case": row["case"], "ltr": row.get("ltr", False),
             "sides": [f[i]["report"] for f in facts]} for i, row in enumerate(facts[0])] if facts else []
    return {"challenge": challenge, "identification": ident, "case": ident.case,
            "columns": [{"side": side, "report": r.pk} for side, r in sides], "rows": rows,
            "claims": list(challenge.claims.select_related("case").order_by("pk")),
            "forensic": list(ForensicResult.objects.filter(
                Q(case_id=ident.case_id) | Q(person_id=ident.person_id), withdrawn_at__isnull=True).order_by("pk")),
            "decidable": challenge.is_open}
