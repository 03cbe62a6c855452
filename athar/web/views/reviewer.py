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
        "challenges": ident.open_challenges(), "decided": ident.recent_decisions(request.user)})


@login_required
def conflicts(request: HttpRequest) -> HttpResponse:
    _require_reviewer(request)
    return _conflicts_page(request)


def _conflicts_page(request: HttpRequest, failed: dict[str, Any] | None = None) -> HttpResponse:
    """The conflicts page; ``failed`` (kind, pk, reason, keep, error) is a refused form shown again
    with what the reviewer typed and the error beside it (400), never a redirect that loses it."""
    failed = failed or {}
    return render(request, "web/reviewer/conflicts.html", {
        "conflicts": ident.open_conflicts(), "challenges": ident.open_challenges(),
        "resolved": ident.recently_resolved_conflicts(), "failed": failed,
        **_refused(f"{failed.get('kind')}-form-{failed.get('pk')}" if failed else "", failed.get("error", ""))},
        status=400 if failed else 200)


def _refused(anchor: str, error: str) -> dict[str, str]:
    """The short alert at the top of a long page: nothing was recorded, the form below keeps the
    reason, a link to it (the full message stands beside the form)."""
    return {"refused_anchor": anchor, "refused_error": error} if anchor else {}


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
    return _compare_page(request, view, DecisionForm(initial={"reason": _draft(request, identification_id)}), level)


def _draft_key(identification_id: int) -> str:
    return f"review-reason-draft:{int(identification_id)}"


def _draft(request: HttpRequest, identification_id: int) -> str:
    """The reason this reviewer began writing on this identification and kept (server side, in its
    session): leaving the page, or a refused decision, never loses it."""
    return str(request.session.get(_draft_key(identification_id), ""))


def _keep_draft(request: HttpRequest, identification_id: int, reason: str) -> None:
    if reason.strip():
        request.session[_draft_key(identification_id)] = reason[:4000]


def _compare_page(request: HttpRequest, view: dict[str, Any], form: DecisionForm, level: int = policy.HIDDEN,
                  failed: dict[str, Any] | None = None) -> HttpResponse:
    """The comparison page with ``form`` as given: a refused decision comes back with the reason typed
    and its errors beside the form (the forms post to ``#decision-form`` so the browser lands there)."""
    failed = failed or {}
    if failed:
        top = _refused(f"reverse-form-{failed['pk']}", failed["error"])
    elif form.is_bound:
        top = _refused("decision-form", " ".join(str(e) for e in form.non_field_errors()) or
                       _("A decision and its reason are both required."))
    else:
        top = {}
    return render(request, "web/reviewer/compare.html", {
        "v": view, "images": case_images(request, view["case"], level), "form": form, "failed": failed, **top,
    }, status=400 if top else 200)


@login_required
@require_POST
def decide(request: HttpRequest, identification_id: int) -> HttpResponse:
    _require_reviewer(request)
    view = _view(identification_id)
    _keep_draft(request, identification_id, request.POST.get("reason", ""))
    if "draft" in request.POST:  # "keep my reason and come back later"
        messages.success(request, _("Your reason was kept. It will be here when you come back to this comparison."))
        return redirect("web:compare", identification_id=identification_id)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        return _compare_page(request, _view(identification_id, request.user), form)
    try:
        ident.decide(view["obj"], request.user, form.cleaned_data["decision"], form.cleaned_data["reason"])
    except ValueError as exc:
        form.add_error(None, str(exc))
        return _compare_page(request, _view(identification_id, request.user), form)
    request.session.pop(_draft_key(identification_id), None)
    messages.success(request, _("Your decision was recorded."))
    return redirect("web:review_queue")


def _reasoned(request: HttpRequest, act: Callable[[str], Any], done: str, then: HttpResponse,
              refused: Callable[[dict[str, Any]], HttpResponse]) -> HttpResponse:
    """A reviewer's POSTed decision with its required reason: 404 for an unknown object, ``done``
    and ``then`` when it was recorded. When the rule refuses (a missing reason, not the reviewer's
    review…) ``refused`` shows the page again with the reason typed and the rule's own message
    beside the form: a reviewer's written reason is never thrown away."""
    _require_reviewer(request)
    reason = request.POST.get("reason", "")
    try:
        act(reason.strip())
    except LookupError:
        raise Http404 from None
    except ValueError as exc:
        return refused({"reason": reason, "error": str(exc)})
    messages.success(request, done)
    return then


def _again_on_conflicts(request: HttpRequest, kind: str, pk: int, **more: Any) -> Callable[[dict[str, Any]], HttpResponse]:
    return lambda failed: _conflicts_page(request, {"kind": kind, "pk": pk, **more, **failed})


def _again_on_compare(request: HttpRequest, identification_id: int, review_id: int) -> Callable[[dict[str, Any]], HttpResponse]:
    return lambda failed: _compare_page(request, _view(identification_id, request.user), DecisionForm(),
                                        failed={"kind": "reverse", "pk": review_id, **failed})


@login_required
@require_POST
def resolve_conflict(request: HttpRequest, conflict_id: int) -> HttpResponse:
    """Settle a conflict with a required reason (identification rules; audited there)."""
    _require_reviewer(request)
    keep = request.POST.get("keep", "")
    again = _again_on_conflicts(request, "conflict", conflict_id, keep=keep)
    if not keep:
        return again({"reason": request.POST.get("reason", ""),
                      "error": _("Choose which claim stands, or that none of them does.")})
    return _reasoned(request, lambda reason: ident.resolve_conflict(conflict_id, request.user, reason, keep),
                     _("The conflict was resolved. The other claims were set aside and their caseworkers notified."),
                     redirect("web:conflicts"), again)


@login_required
@require_POST
def reverse_review(request: HttpRequest, identification_id: int, review_id: int) -> HttpResponse:
    """Reverse a review with a required reason (its reviewer or an administrator; audited)."""
    return _reasoned(request, lambda reason: ident.reverse_review(review_id, identification_id, request.user, reason),
                     _("The review was reversed. The identification follows the rules again."),
                     redirect("web:compare", identification_id=identification_id),
                     _again_on_compare(request, identification_id, review_id))


@login_required
@require_POST
def reopen_conflict(request: HttpRequest, conflict_id: int) -> HttpResponse:
    """Reverse a conflict's resolution with a required reason: it blocks publication again."""
    return _reasoned(request, lambda reason: ident.reopen_conflict(conflict_id, request.user, reason),
                     _("The conflict is open again."), redirect("web:conflicts"),
                     _again_on_conflicts(request, "reopen", conflict_id))


@login_required
def challenge(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """One challenge: the identification's facts, the challenger's reason, both sides' evidence
    beside the case's facts (no contact details), and the decision with its required reason."""
    _require_reviewer(request)
    return _challenge_page(request, challenge_id)


def _challenge_page(request: HttpRequest, challenge_id: int, failed: dict[str, Any] | None = None) -> HttpResponse:
    view = ident.challenge_view(challenge_id, request.user)
    if view is None:
        raise Http404
    failed = failed or {}
    return render(request, "web/reviewer/challenge.html", {
        "v": view, "failed": failed, **_refused("challenge-form" if failed else "", failed.get("error", ""))},
        status=400 if failed else 200)


@login_required
@require_POST
def decide_challenge(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Uphold (a reversal) or dismiss (the decision stands) a challenge, with a required reason:
    ``services.decide_challenge``, the decision the API and ``athar conflicts decide-challenge`` take.
    Refused, the page it came from (the challenge's own, or the conflicts page) shows it again."""
    decision = request.POST.get("decision", "")
    if request.POST.get("page") == "challenge":
        again: Callable[[dict[str, Any]], HttpResponse] = lambda failed: _challenge_page(  # noqa: E731
            request, challenge_id, {**failed, "decision": decision})
    else:
        again = _again_on_conflicts(request, "challenge", challenge_id)
    if decision not in ("uphold", "dismiss"):
        _require_reviewer(request)
        return again({"reason": request.POST.get("reason", ""),
                      "error": _("Choose: uphold the challenge, or dismiss it.")})
    return _reasoned(request, lambda reason: ident.decide_challenge(challenge_id, request.user,
                                                                    decision == "uphold", reason),
                     _("The challenge was decided. The families' caseworkers were asked to tell them."),
                     redirect("web:review_queue"), again)
