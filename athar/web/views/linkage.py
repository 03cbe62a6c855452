"""Reviewers: pairs of reports the linkage model was unsure of, and decisions on them.

A decision (same person / different persons / unsure) is attributed, needs a reason, and wins over
the model on the next linkage run; withdrawing it writes a reversal (``athar.registry.decisions``).
No reporter contact detail is ever shown here.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from athar.registry import decisions, link_reasons
from athar.registry import policy as registry_policy
from athar.registry.models import LinkDecision, ReviewPair, Verdict

PAGE_SIZE = 100
IN_FORCE_SHOWN = 50
REASON_MAX = 4000


def _require_reviewer(request: HttpRequest) -> None:
    if not registry_policy.may_review_links(request.user):
        raise PermissionDenied


def _open_pairs() -> tuple[list[ReviewPair], int]:
    pairs = (ReviewPair.objects.filter(run__is_current=True, status=ReviewPair.Status.OPEN)
             .select_related("left_report", "right_report").order_by("-probability", "pk"))
    total = pairs.count()
    shown = list(pairs[:PAGE_SIZE])
    for pair in shown:
        pair.reasons = link_reasons.readable(pair.explanation)  # type: ignore[attr-defined]
    return shown, total


def _in_force() -> list[LinkDecision]:
    return list(LinkDecision.objects.filter(reversed_by__isnull=True).exclude(verdict=Verdict.REVERSAL)
                .select_related("left_report", "right_report", "user")
                .order_by("-created_at", "-pk")[:IN_FORCE_SHOWN])


@login_required
@require_GET
def review(request: HttpRequest) -> HttpResponse:
    _require_reviewer(request)
    pairs, total = _open_pairs()
    verdicts = [(v, Verdict(v).label) for v in decisions.JUDGEMENTS]
    return render(request, "web/reviewer/link_review.html", {
        "pairs": pairs, "total": total, "in_force": _in_force(), "verdicts": verdicts,
    })


def _reason(request: HttpRequest) -> str:
    return request.POST.get("reason", "").strip()[:REASON_MAX]


@login_required
@require_POST
def decide(request: HttpRequest, pair_id: int) -> HttpResponse:
    _require_reviewer(request)
    pair = get_object_or_404(ReviewPair.objects.select_related("left_report", "right_report"), pk=pair_id)
    verdict = request.POST.get("verdict", "")
    reason = _reason(request)
    if verdict not in decisions.JUDGEMENTS or not reason:
        messages.error(request, _("A verdict and its reason are both required."))
        return redirect("web:link_review")
    if pair.status != ReviewPair.Status.OPEN:
        messages.error(request, _("This pair was already decided."))
        return redirect("web:link_review")
    try:
        decisions.decide(pair.left_report, pair.right_report, verdict, request.user, reason)
    except ValueError:
        messages.error(request, _("This pair cannot be decided."))
        return redirect("web:link_review")
    messages.success(request, _("Your decision was recorded. It will be applied on the next linkage run."))
    return redirect("web:link_review")


@login_required
@require_POST
def reverse(request: HttpRequest, decision_id: int) -> HttpResponse:
    _require_reviewer(request)
    decision = get_object_or_404(LinkDecision, pk=decision_id)
    reason = _reason(request)
    if not reason:
        messages.error(request, _("A reason is required to withdraw a decision."))
        return redirect("web:link_review")
    if decision.verdict == Verdict.REVERSAL:
        messages.error(request, _("This decision was already withdrawn."))
        return redirect("web:link_review")
    try:
        decisions.reverse(decision, request.user, reason)
    except ValueError:
        messages.error(request, _("This decision was already withdrawn."))
        return redirect("web:link_review")
    messages.success(request, _("The decision was withdrawn. The model will decide this pair on the next run."))
    return redirect("web:link_review")
