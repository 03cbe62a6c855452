"""Reviewer decisions on pairs of reports: same / different / unsure, attributed, reversible.

Decisions are kept per report lineage (they survive new versions of either report) and win
over the model on the next linkage run. Reversing a decision writes a new row; nothing is deleted.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from athar.audit.chain import actor_for_user, record
from athar.core.errors import UserError
from athar.registry import policy
from athar.registry.models import LinkDecision, Report, ReviewPair, Verdict

JUDGEMENTS = (Verdict.SAME.value, Verdict.DIFFERENT.value, Verdict.UNSURE.value)


def _ordered(a: Report, b: Report) -> tuple[Report, Report]:
    if a.lineage == b.lineage:
        raise UserError(_("a report cannot be judged against another version of itself"))
    return (a, b) if a.lineage < b.lineage else (b, a)


def _need_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise UserError(_("a reason is required"))
    return reason


def active_decision(a: Report, b: Report) -> LinkDecision | None:
    """The decision in force on a pair (the latest not reversed), if any."""
    left, right = _ordered(a, b)
    return (LinkDecision.objects.filter(left_lineage=left.lineage, right_lineage=right.lineage,
                                        reversed_by__isnull=True)
            .exclude(verdict=Verdict.REVERSAL).order_by("-created_at", "-pk").first())


def decide(a: Report, b: Report, verdict: str, user: Any, reason: str = "") -> LinkDecision:
    """Record a reviewer's verdict on two reports; a previous decision on the pair is reversed.

    Only an active reviewer or administrator decides (``registry.policy.may_decide_link``), with a reason."""
    if not policy.may_decide_link(user, a, b):
        raise policy.NotAllowed(_("only an active reviewer or administrator decides whether two reports are one person"))
    reason = _need_reason(reason)
    if verdict not in JUDGEMENTS:
        raise UserError(_("verdict must be one of %(verdicts)s") % {"verdicts": ', '.join(JUDGEMENTS)})
    left, right = _ordered(a, b)
    with transaction.atomic():
        previous = active_decision(left, right)
        decision = LinkDecision.objects.create(
            left_lineage=left.lineage, right_lineage=right.lineage, left_report=left, right_report=right,
            verdict=verdict, user=user, reason=reason)
        if previous is not None:
            previous.reversed_by = decision
            previous.save(update_fields=["reversed_by"])
        ReviewPair.objects.filter(left_report__lineage__in=[left.lineage, right.lineage],
                                  right_report__lineage__in=[left.lineage, right.lineage],
                                  status=ReviewPair.Status.OPEN).update(status=ReviewPair.Status.DECIDED)
        record("registry.link_decision", object_type="link_decision", object_id=decision.pk,
               actor=actor_for_user(user), data={"left_report": left.pk, "right_report": right.pk,
                                                 "verdict": verdict, "replaces": previous.pk if previous else None})
    return decision


def reverse(decision: LinkDecision, user: Any, reason: str = "") -> LinkDecision:
    """Withdraw a decision: the pair goes back to the model (a 'reversal' row records who and why)."""
    if not policy.may_reverse_link_decision(user, decision):
        raise policy.NotAllowed(_("only an active reviewer or administrator withdraws a decision"))
    reason = _need_reason(reason)
    with transaction.atomic():
        decision = LinkDecision.objects.select_for_update().get(pk=decision.pk)
        if decision.reversed_by_id:
            raise UserError(_("this decision was already reversed"))
        undo = LinkDecision.objects.create(
            left_lineage=decision.left_lineage, right_lineage=decision.right_lineage,
            left_report=decision.left_report, right_report=decision.right_report,
            verdict=Verdict.REVERSAL, user=user, reason=reason)
        decision.reversed_by = undo
        decision.save(update_fields=["reversed_by"])
        record("registry.link_decision_reversed", object_type="link_decision", object_id=decision.pk,
               actor=actor_for_user(user), data={"reversal": undo.pk})
    return undo


def decisions_in_force() -> list[tuple[str, str, str]]:
    """(left lineage, right lineage, verdict) of every decision not reversed."""
    rows = (LinkDecision.objects.filter(reversed_by__isnull=True).exclude(verdict=Verdict.REVERSAL)
            .values_list("left_lineage", "right_lineage", "verdict"))
    return [(a, b, v) for a, b, v in rows]
