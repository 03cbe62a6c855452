"""Caseworkers: the staff candidate list of one report — every ranked case with its probability on
a stated scale, the reasons in the page's language, the facts on both sides, filters. Each case
opens on the careful candidate page (warning, blurred, face on a tap, body on a further choice)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from athar.identification import policy
from athar.identification import services as ident
from athar.web.staff_forms import CandidateFilterForm
from athar.web.views.family import visible_report


@login_required
def staff_candidates(request: HttpRequest, report_id: int) -> HttpResponse:
    if not policy.can_casework(request.user):
        raise PermissionDenied
    report = visible_report(request, report_id)
    form = CandidateFilterForm(request.GET or None)
    where = form.cleaned_data if form.is_valid() else {}
    view = ident.staff_candidate_list(request.user, report, facility=where.get("facility"), since=where.get("since"),
                                      until=where.get("until"), sex=where.get("sex", ""))
    page = Paginator(view["items"], 25).get_page(request.GET.get("page"))
    return render(request, "web/caseworker/candidates.html", {"v": view, "page": page, "form": form})
