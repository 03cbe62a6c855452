"""Candidate review, built to protect the person looking.

A warning first; then the case's facts and a blurred face crop; the face unblurred only on an
explicit tap (a POST, audited) with a short warning; the body photos only on a further explicit
choice from that page; then "this is him/her", "not him/her", "not sure". A reveal is answered by
the page itself and never remembered: a reload or a later visit starts blurred again. A way to
stop is on every step.
"""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from athar.identification import policy
from athar.identification import services as ident
from athar.web.forms import ClaimForm
from athar.web.views.family import visible_report
from athar.web.views.photos import case_images, chosen_level, record_reveal


class StaleCandidate(Exception):
    """The link names a candidate of an earlier comparison of a report this user may see."""

    def __init__(self, report: Any) -> None:
        super().__init__(report.pk)
        self.report = report


def visible_candidate(request: HttpRequest, candidate_id: int) -> Any:
    """The candidate if this person may see it; a stale one leads to its report's current list;
    404 otherwise (never reveal that it exists)."""
    candidate = policy.candidates_visible_to(request.user).filter(pk=candidate_id).first()
    if candidate is None:
        report = policy.report_of_stale_candidate(request.user, candidate_id)
        if report is not None:
            raise StaleCandidate(report)
        raise Http404
    return candidate


def stale_redirect(request: HttpRequest, exc: StaleCandidate) -> HttpResponse:
    messages.info(request, _("This link came from an earlier comparison. The report was compared again "
                             "(or changed), so here is what it shows now."))
    return redirect("web:candidates", report_id=exc.report.pk)


def leads_to_current(view: Any) -> Any:
    """Wrap a candidate view: a stale candidate link goes to its report's current candidates."""
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except StaleCandidate as exc:
            return stale_redirect(request, exc)
    return wrapped


@login_required
def candidate_list(request: HttpRequest, report_id: int) -> HttpResponse:
    """The likely matches for one report; when there are none, that is all the family sees."""
    report = visible_report(request, report_id)
    candidates = list(policy.candidates_visible_to(request.user).filter(ranking__report=report, likely_match=True))
    visible = policy.reports_visible_to(request.user)
    return render(request, "web/family/candidates.html", {  # the status is said only when no case is listed
        "report": report, "summary": None if candidates else ident.report_summary(report, request.user),
        "faces_compared": any(ident.faces_compared(c) for c in candidates),
        "candidates": [ident.candidate_view(c, visible) for c in candidates],
    })


def _candidate_page(request: HttpRequest, item: Any, ready: bool, level: int) -> HttpResponse:
    view = ident.candidate_view(item, policy.reports_visible_to(request.user))
    staff = not policy.is_family(request.user)
    return render(request, "web/family/candidate.html", {
        "scale": ident.candidate_scale(item) if staff else None,
        "reason_rows": ident.candidate_reasons(item, view["report"]) if staff else None,
        "why": ident.family_explanation(item, view["report"]) if ready and not staff else None,
        "c": view, "ready": ready, "images": case_images(request, view["case"], level) if ready else None,
        "form": ClaimForm(), "can_claim": policy.can_claim(request.user, item),
        "claim": ident.claim_of(item, request.user), "show_reasons": staff,
    })


@login_required
@leads_to_current
def candidate(request: HttpRequest, candidate_id: int) -> HttpResponse:
    """The warning, then (``?ready=1``) the facts and blurred pictures: never more on a GET."""
    item = visible_candidate(request, candidate_id)
    return _candidate_page(request, item, request.GET.get("ready") == "1", policy.HIDDEN)


@login_required
@require_POST
@leads_to_current
def reveal(request: HttpRequest, candidate_id: int) -> HttpResponse:
    """The explicit choice to see the face (level 1) or, from the page showing the face, the other
    photos (level 2): answered with this page at that level, for this page only."""
    item = visible_candidate(request, candidate_id)
    level = chosen_level(request)
    if level == policy.HIDDEN:
        return redirect("web:candidate", candidate_id=item.pk)
    record_reveal(request, item.case, level, "candidate", item.pk)
    return _candidate_page(request, item, True, level)


@login_required
@require_POST
@leads_to_current
def claim(request: HttpRequest, candidate_id: int) -> HttpResponse:
    item = visible_candidate(request, candidate_id)
    if not policy.can_claim(request.user, item):
        raise PermissionDenied
    form = ClaimForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose one answer."))
        return redirect("web:candidate", candidate_id=item.pk)
    view = ident.candidate_view(item, policy.reports_visible_to(request.user))
    try:
        ident.make_claim(item, request.user, form.cleaned_data["verdict"], view["report"].reporter_relation)
    except ValueError as exc:
        messages.error(request, str(exc))
        return redirect("web:candidate", candidate_id=item.pk)
    messages.success(request, _("Thank you. Your answer was recorded. Two reviewers will look at it, and your caseworker will be in touch."))
    return redirect("web:candidates", report_id=view["report"].pk)
