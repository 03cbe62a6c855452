"""Conflicts that block publication, and the evidence level of an identification.

Kinds: one case claimed for two persons; one person claimed for two cases; a claim against the
evidence beyond tolerance (a different sex; photographed well before the reported arrest; a forensic
exclusion). A conflict stays open until a reviewer resolves it with a reason (reversible).

Resolving is a choice, never a note: the reviewer names the claim that stands (or none). Every
other claim of the conflict is *set aside* with that reason (kept, attributed, reversible by
reopening the conflict), their identifications become ``set_aside`` and can never be verified or
published while the resolution stands; the caseworkers of the families set aside get a "tell the
family" task with the reviewer's reason.

A conflict never opens against a decided (verified or published) identification: a claim against
one opens a *challenge* for reviewers while the decision stands (``challenges.py``).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from athar.accounts.models import Role
from athar.archive.models import Case
from athar.audit.chain import actor_for_user, record
from athar.core.errors import UserError
from athar.identification import notices, policy
from athar.identification.facts import case_record
from athar.identification.models import (
    Claim,
    Conflict,
    ForensicResult,
    Identification,
    Verdict,
)
from athar.identification.ranking import facts_of, subject_for_person
from athar.matching.scoring import CaseTable, load_algorithm
from athar.matching.scoring.features import FEATURES
from athar.registry.models import MissingPerson

STRONG_MARKS = {"content_and_place", "content", "place_and_side"}
STRONG_NUMBER = {"confirmed_same_number", "same_number_same_facility", "same_number"}
Kind = Conflict.Kind


def _positive(**filters: Any) -> Any:
    return Claim.objects.live().positive().filter(**filters)


def decided_elsewhere(person: MissingPerson, case: Case) -> Identification | None:
    """A decided identification of this case with another person, or of this person with another case."""
    return (Identification.objects.active().filter(Q(person=person) | Q(case=case))
            .exclude(person=person, case=case).first())


def detect(person: MissingPerson, case: Case, claim: Claim | None = None) -> list[Conflict]:
    """Open (or extend) the conflicts the claims on this person and this case now show. Against a
    decided identification nothing is reopened: the new positive ``claim`` opens (or joins) a
    challenge of it, and the decision stands until a reviewer decides."""
    decided = list(Identification.objects.active().filter(Q(person=person) | Q(case=case)))
    if decided:
        from athar.identification import challenges  # here: challenges imports this module

        if claim is not None and claim.verdict == Verdict.IS_THEM and claim.active:
            for ident in decided:
                if (ident.person_id, ident.case_id) != (person.pk, case.pk):
                    challenges.open_challenge(ident, "new_claim", claims=[claim])
        return []
    opened = []
    on_case = list(_positive(case=case))
    if len({c.person_id for c in on_case}) >= 2:
        opened += _open(Kind.CASE_TWO_PERSONS, f"case:{case.pk}", on_case, case=case,
                        detail={"persons": sorted({c.person_id for c in on_case})})
    on_person = list(_positive(person=person))
    if len({c.case_id for c in on_person}) >= 2:
        opened += _open(Kind.PERSON_TWO_CASES, f"person:{person.pk}", on_person, person=person,
                        detail={"cases": sorted({c.case_id for c in on_person})})
    for claim in _positive(person=person, case=case):
        problems = against_evidence(person, case)
        if problems:
            opened += _open(Kind.AGAINST_EVIDENCE, f"claim:{claim.pk}", [claim], person=person, case=case,
                            detail={"problems": problems})
    return opened


def against_evidence(person: MissingPerson, case: Case) -> list[dict[str, str]]:
    """What contradicts "case is person" beyond tolerance, with readable details."""
    facts, _algorithm = facts_of(subject_for_person(person), load_algorithm())
    record_ = case_record(case)
    table = CaseTable.build([record_])
    out = []
    for feature in FEATURES:
        level = feature.levels[int(feature.compare(facts, table)[0])]
        if (feature.name, level) in (("sex", "different"), ("time", "before_arrest")):
            out.append({"feature": feature.name, "level": level, "detail": feature.explain(level, facts, record_)})
    if ForensicResult.objects.filter(person=person, case=case, result=ForensicResult.Result.EXCLUSION,
                                     withdrawn_at__isnull=True).exists():
        out.append({"feature": "forensic", "level": "exclusion", "detail": "a forensic result excludes this case"})
    return out


def _open(kind: str, key: str, claims: list[Claim], *, person: MissingPerson | None = None,
          case: Case | None = None, detail: dict[str, Any]) -> list[Conflict]:
    ids = {c.pk for c in claims}
    current = Conflict.objects.filter(kind=kind, key=key).order_by("-opened_at").first()
    if current is not None and current.is_open:
        current.claims.add(*claims)
        return []
    if current is not None and ids <= set(current.claims.values_list("id", flat=True)):
        return []  # resolved already, and nothing new since
    conflict = Conflict.objects.create(kind=kind, key=key, person=person, case=case, detail=detail)
    conflict.claims.add(*claims)
    record("identification.conflict_opened", object_type="conflict", object_id=conflict.pk,
           data={"kind": kind, "key": key, "claims": sorted(ids)})
    return [conflict]


def _touching(conflict: Conflict) -> Any:
    q = Q(pk__in=[])
    if conflict.person_id:
        q |= Q(person_id=conflict.person_id)
    if conflict.case_id:
        q |= Q(case_id=conflict.case_id)
    return Identification.objects.filter(q)


def resolve(conflict: Conflict, by: Any, reason: str, *, keep: Claim | None) -> Conflict:
    """A reviewer settles a conflict: ``keep`` is the claim that stands (None: none of them).

    Case claimed for two persons: the claims for every other person on this case are set aside.
    Person claimed for two cases: the claims for every other case of this person are set aside.
    A claim against the evidence: kept, it stands despite the evidence; not kept, it is set aside."""
    _check_reviewer(by)
    if not reason.strip():
        raise UserError(_("a reason is required"))
    with transaction.atomic():
        conflict = Conflict.objects.select_for_update().get(pk=conflict.pk)
        if not conflict.is_open:
            raise UserError(_("conflict %(conflict_id)s is already resolved") % {"conflict_id": conflict.pk})
        claims = list(conflict.claims.live())
        if keep is not None and keep.pk not in {c.pk for c in claims}:
            raise UserError(_("claim %(keep_id)s is not an open claim of conflict %(conflict_id)s") % {"keep_id": keep.pk, "conflict_id": conflict.pk})
        losing = _losing_claims(conflict, claims, keep)
        conflict.resolved_at, conflict.resolved_by, conflict.resolution = timezone.now(), by, reason.strip()
        conflict.kept_claim = keep
        conflict.save(update_fields=["resolved_at", "resolved_by", "resolution", "kept_claim"])
        set_aside(losing, by, reason.strip(), "resolve_conflict", conflict=conflict)
        record("identification.conflict_resolved", object_type="conflict", object_id=conflict.pk,
               actor=actor_for_user(by), data={"kept_claim": keep.pk if keep else None,
                                               "set_aside": sorted(c.pk for c in losing),
                                               "reason_sha256": hashlib.sha256(reason.encode()).hexdigest()})
        _refresh_touching(conflict, "resolve_conflict", by)
    return conflict


def _losing_claims(conflict: Conflict, claims: list[Claim], keep: Claim | None) -> list[Claim]:
    if keep is None:
        return claims
    if conflict.kind == Kind.CASE_TWO_PERSONS:
        return [c for c in claims if c.person_id != keep.person_id]
    if conflict.kind == Kind.PERSON_TWO_CASES:
        return [c for c in claims if c.case_id != keep.case_id]
    return []  # against the evidence: the kept claim stands


def set_aside(claims: list[Claim], by: Any, reason: str, action: str, conflict: Conflict | None = None) -> None:
    """Set claims aside (a reviewer's decision: ``resolve_conflict`` or ``dismiss_challenge``), and
    with them the identifications they alone carried; each family's caseworker is given the task of
    telling the family, with the reviewer's reason."""
    from athar.identification.claims import _set_status  # here: claims imports this module

    now = timezone.now()
    for claim in claims:
        claim.set_aside_at, claim.set_aside_by, claim.set_aside_reason = now, by, reason
        claim.set_aside_by_conflict = conflict
        claim.save(update_fields=["set_aside_at", "set_aside_by", "set_aside_reason", "set_aside_by_conflict"])
    for person_id, case_id in {(c.person_id, c.case_id) for c in claims}:
        if _positive(person_id=person_id, case_id=case_id).exists():
            continue  # another claim on the same pair still stands
        ident = Identification.objects.filter(person_id=person_id, case_id=case_id).first()
        if ident is not None and ident.status in (Identification.Status.UNDER_REVIEW, Identification.Status.REJECTED):
            _set_status(ident, Identification.Status.SET_ASIDE, by, reason, action)
    notices.tell_set_aside(claims)


def reopen(conflict: Conflict, by: Any, reason: str) -> Conflict:
    """Reverse a resolution, with a reason: the claims it set aside stand again (under review) and
    the conflict blocks publication again."""
    _check_reviewer(by)
    if not reason.strip():
        raise UserError(_("a reason is required"))
    with transaction.atomic():
        conflict = Conflict.objects.select_for_update().get(pk=conflict.pk)
        if conflict.is_open:
            raise UserError(_("conflict %(conflict_id)s is open") % {"conflict_id": conflict.pk})
        conflict.resolved_at, conflict.resolved_by = None, None
        conflict.resolution, conflict.kept_claim = "", None
        conflict.save(update_fields=["resolved_at", "resolved_by", "resolution", "kept_claim"])
        reinstated = _reinstate(conflict, by)
        record("identification.conflict_reopened", object_type="conflict", object_id=conflict.pk,
               actor=actor_for_user(by), data={"reinstated": reinstated,
                                               "reason_sha256": hashlib.sha256(reason.encode()).hexdigest()})
        from athar.identification.claims import _set_status  # here: claims imports this module

        for ident in _touching(conflict).active():
            # A reversal: this reviewer's explicit, reasoned decision takes it back to review.
            _set_status(ident, Identification.Status.UNDER_REVIEW, by, reason.strip(), "reopen_conflict")
        _refresh_touching(conflict, "reopen_conflict", by)
    return conflict


def _reinstate(conflict: Conflict, by: Any) -> list[int]:
    from athar.identification.claims import _set_status  # here: claims imports this module

    claims = list(Claim.objects.filter(set_aside_by_conflict=conflict))
    Claim.objects.filter(pk__in=[c.pk for c in claims]).update(
        set_aside_at=None, set_aside_by=None, set_aside_reason="", set_aside_by_conflict=None)
    for person_id, case_id in {(c.person_id, c.case_id) for c in claims}:
        ident = Identification.objects.filter(person_id=person_id, case_id=case_id,
                                              status=Identification.Status.SET_ASIDE).first()
        if ident is not None:
            _set_status(ident, Identification.Status.UNDER_REVIEW, by, "", "reopen_conflict")
    return sorted(c.pk for c in claims)


def _refresh_touching(conflict: Conflict, action: str, by: Any) -> None:
    from athar.identification.claims import refresh  # here: claims imports this module

    for ident in _touching(conflict):
        refresh(ident.person, ident.case, action, by)


def _check_reviewer(user: Any) -> None:
    from athar.identification.claims import NotAllowed  # here: claims imports this module

    if not policy.may_decide_conflicts(user):
        raise NotAllowed(_("a %(role)s cannot resolve conflicts (reviewers can)")
                         % {"role": policy.role_of(user) or _("inactive account")})


def evidence_level(person: MissingPerson, case: Case) -> str:
    """forensic (a recorded match) > corroborated (two independent relatives, or a matching mark or
    number) > family recognition."""
    if ForensicResult.objects.filter(person=person, case=case, result=ForensicResult.Result.MATCH,
                                     withdrawn_at__isnull=True).exists():
        return Identification.Evidence.FORENSIC
    claims = list(_positive(person=person, case=case))
    witnesses = {(c.by_id, c.on_behalf_of.strip().casefold()) for c in claims}
    if len(witnesses) >= 2 or _mark_or_number_matches(person, case):
        return Identification.Evidence.CORROBORATED
    return Identification.Evidence.FAMILY


def _mark_or_number_matches(person: MissingPerson, case: Case) -> bool:
    facts, _algorithm = facts_of(subject_for_person(person), load_algorithm())
    table = CaseTable.build([case_record(case)])
    levels = {f.name: f.levels[int(f.compare(facts, table)[0])] for f in FEATURES if f.name in ("marks", "number")}
    return levels["marks"] in STRONG_MARKS or levels["number"] in STRONG_NUMBER


def role_of(user: Any) -> str:
    return str(getattr(user, "role", Role.FAMILY))
