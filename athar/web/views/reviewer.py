"""Reviewers: identifications to review, conflicts, the comparison view, decisions with a reason.

The rules (two independent approvals, no open conflict, a claimant never reviews) are the
identification app's (``athar.identification.claims``); these pages make them visible.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from athar.identification import policy
from athar.identification import services as ident
from athar.web.forms import DecisionForm
from athar.web.views.photos import case_images, chosen_level, record_reveal


def _require_reviewer(request: HttpRequest) -> None:
    if not policy.can_review(request.user):
        raise PermissionDenied


@login_required
def queue(request: HttpRequest) -> HttpResponse:
    _require_reviewer(request)
    rows = ident.open_identifications(request.user)
    return render(request, "web/reviewer/queue.html", {
        "items": [r for r in rows if not r.mine], "waiting": [r for r in rows if r.mine],
        "decided": ident.recent_decisions(request.user)})


@login_required
def conflicts(request: HttpRequest) -> HttpResponse:
    _require_reviewer(request)
    return render(request, "web/reviewer/conflicts.html", {"conflicts": ident.open_conflicts(),
                                                           "challenges": ident.open_challenges(),
                                                           "resolved": ident.recently_resolved_conflicts()})


def _view(identification_id: int, user: Any = None) -> dict[str, Any]:
    view = ident.identification_view(identification_id, user)
    if view is None:
        raise Http404
    return view


@login_required
@require_http_methods(["GET", "POST"])
def compare(request: HttpRequest, identification_id: int) -> HttpResponse:
    """The family's photo beside the case's face crop, the facts side by side, the score's reasons.
    A POST is the reviewer's explicit choice to see more of the case, for this page only."""
    _require_reviewer(request)
    view = _view(identification_id, request.user)
    level = chosen_level(request)
    if level != policy.HIDDEN:
        record_reveal(request, view["case"], level, "identification", identification_id)
    return render(request, "web/reviewer/compare.html", {
        "v": view, "images": case_images(request, view["case"], level), "form": DecisionForm(),
    })


@login_required
@require_POST
def decide(request: HttpRequest, identification_id: int) -> HttpResponse:
    _require_reviewer(request)
    view = _view(identification_id)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("A decision and its reason are both required."))
        return redirect("web:compare", identification_id=identification_id)
    try:
        ident.decide(view["obj"], request.user, form.cleaned_data["decision"], form.cleaned_data["reason"])
    except ValueError as exc:
        messages.error(request, str(exc))
        return redirect("web:compare", identification_id=identification_id)
    messages.success(request, _("Your decision was recorded."))
    return redirect("web:review_queue")


def _reasoned(request: HttpRequest, act: Callable[[str], Any], done: str, then: HttpResponse) -> HttpResponse:
    """A reviewer's POSTed decision with its required reason: 404 for an unknown object, the rule's
    own message when it refuses (a missing reason, not the reviewer's review…), ``done`` otherwise."""
    _require_reviewer(request)
    try:
        act(request.POST.get("reason", "").strip())
    except LookupError:
        raise Http404 from None
    except ValueError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done)
    return then


@login_required
@require_POST
def resolve_conflict(request: HttpRequest, conflict_id: int) -> HttpResponse:
    """Settle a conflict with a required reason (identification rules; audited there)."""
    _require_reviewer(request)
    keep = request.POST.get("keep", "")
    if not keep:
        messages.error(request, _("Choose which claim stands, or that none of them does."))
        return redirect("web:conflicts")
    return _reasoned(request, lambda reason: ident.resolve_conflict(conflict_id, request.user, reason, keep),
                     _("The conflict was resolved. The other claims were set aside and their caseworkers notified."),
                     redirect("web:conflicts"))


@login_required
@require_POST
def reverse_review(request: HttpRequest, identification_id: int, review_id: int) -> HttpResponse:
    """Reverse a review with a required reason (its reviewer or an administrator; audited)."""
    return _reasoned(request, lambda reason: ident.reverse_review(review_id, identification_id, request.user, reason),
                     _("The review was reversed. The identification follows the rules again."),
                     redirect("web:compare", identification_id=identification_id))


@login_required
@require_POST
def reopen_conflict(request: HttpRequest, conflict_id: int) -> HttpResponse:
    """Reverse a conflict's resolution with a required reason: it blocks publication again."""
    return _reasoned(request, lambda reason: ident.reopen_conflict(conflict_id, request.user, reason),
                     _("The conflict is open again."), redirect("web:conflicts"))


@login_required
@require_POST
def decide_challenge(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Uphold (a reversal) or dismiss (the decision stands) a challenge, with a required reason."""
    uphold = request.POST.get("decision") == "uphold"
    return _reasoned(request, lambda reason: ident.decide_challenge(challenge_id, request.user, uphold, reason),
                     _("The challenge was decided. The families' caseworkers were asked to tell them."),
                     redirect("web:conflicts"))
