"""Numbers written in the photos (issue 29): archivists decide on the reader's suggestions one by one
or the easy ones together, and see what the confirmed numbers say (photos of one body, facilities,
the same number in two archives); caseworkers search by a number a family quotes.

Thin: the rules are the archive's (``archive.number_review``, ``archive.number_use``) and the search
the identification's (``identification.number_search``), the same functions as the command line
and the API. Photos are shown only as the number's crop (``web.media.number_url``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from athar.archive import number_review, number_use
from athar.archive.models import Archive, Case, NumberReading
from athar.core.errors import UserError
from athar.identification import policy
from athar.identification.number_search import search_by_number
from athar.web.media import number_url
from athar.web.number_forms import BulkConfirmForm, NumberDecisionForm, NumberSearchForm

STATUSES = ("suggested", "second")


def _require_numbers(request: HttpRequest) -> Any:
    if not policy.may_review_numbers(request.user):
        raise PermissionDenied
    return request.user


def _archive_filter(request: HttpRequest) -> Archive | None:
    value = request.GET.get("archive", "")
    return Archive.objects.filter(pk=int(value)).first() if value.isdigit() else None


def _item(request: HttpRequest, reading: NumberReading) -> dict[str, Any]:
    return {"r": reading, "src": number_url(request.user, reading), "percent": round(reading.confidence * 100)}


@login_required
def queue(request: HttpRequest) -> HttpResponse:
    """The suggestions awaiting a decision, most confident first; ``status=second``: those another
    archivist decided that await this archivist's agreement."""
    user = _require_numbers(request)
    status = request.GET.get("status", "suggested")
    status = status if status in STATUSES else "suggested"
    archive = _archive_filter(request)
    rows = number_review.suggestions_for(user, status, archive.name if archive else None)
    page = Paginator(rows.select_related("decided_by"), 20).get_page(request.GET.get("page"))
    return render(request, "web/numbers/queue.html", {
        "status": status, "archive": archive, "archives": Archive.objects.all(), "page": page,
        "items": [_item(request, r) for r in page], "form": NumberDecisionForm(),
        "n_easy": len(number_use.easy_suggestions(user, archive.name if archive else None))})


def _error_text(exc: UserError) -> str:
    if isinstance(exc, number_review.NotAllowed):
        return _("A second archivist must be someone other than the archivist who decided first.")
    return _("This suggestion could not be decided as asked: someone may have decided it meanwhile. Look again.")


@login_required
@require_POST
def decide(request: HttpRequest, reading_id: int) -> HttpResponse:
    """One decision on one suggestion: confirm (as the first or the second archivist), correct with
    the number and a reason, or reject."""
    user = _require_numbers(request)
    reading = get_object_or_404(NumberReading, pk=reading_id)
    form = NumberDecisionForm(request.POST)
    back = _back(request)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return back
    data = form.cleaned_data
    try:
        if data["decision"] == "confirm":
            reading = number_review.confirm(user, reading.pk, data["kind"] or None)
        else:
            reading = number_review.decide(user, reading.pk, data["decision"], number=data["number"],
                                           reason=data["reason"], kind=data["kind"] or None)
    except UserError as exc:
        messages.error(request, _error_text(exc))
        return back
    messages.success(request, _decided_text(reading))
    return back


def _decided_text(reading: NumberReading) -> str:
    if reading.status == NumberReading.Status.REJECTED:
        return _("Rejected.")
    if reading.settled and reading.second_by_id:
        return _("Agreed: the number %(number)s now counts.") % {"number": reading.number}
    if reading.needs_second:
        return _("Recorded. The number %(number)s counts once a second archivist agrees.") % {"number": reading.number}
    return _("Recorded: the number %(number)s counts.") % {"number": reading.number}


def _back(request: HttpRequest) -> HttpResponseRedirect:
    status = request.POST.get("status", "suggested")
    url = reverse("web:numbers") + ("?status=second" if status == "second" else "")
    return redirect(url)


@login_required
def bulk(request: HttpRequest) -> HttpResponse:
    """The easy suggestions on one screen, all ticked: high confidence, and the same number read in
    another photo of the same case. Each ticked one is confirmed as its own decision."""
    user = _require_numbers(request)
    archive = _archive_filter(request)
    easy = number_use.easy_suggestions(user, archive.name if archive else None)
    choices = [(r.pk, r.text) for r in easy]
    if request.method == "POST":
        form = BulkConfirmForm(request.POST, choices=choices)
        if form.is_valid():
            try:
                counts = number_use.bulk_confirm(user, form.cleaned_data["readings"], archive.name if archive else None)
            except UserError as exc:
                messages.error(request, _error_text(exc))
                return redirect(request.get_full_path())
            messages.success(request, _("%(confirmed)d confirmed (%(second)d of them await a second archivist); "
                                        "%(skipped)d left for the one-by-one queue.")
                             % {"confirmed": counts["confirmed"], "second": counts["needs_second"],
                                "skipped": counts["skipped"]})
            return redirect(request.get_full_path())
        messages.error(request, _("Tick at least one suggestion to confirm."))
    return render(request, "web/numbers/bulk.html", {
        "archive": archive, "items": [_item(request, r) for r in easy],
        "min_percent": round(number_use.BULK_MIN_CONFIDENCE * 100)})


@login_required
def groups(request: HttpRequest) -> HttpResponse:
    """Photos of one body, grouped by the detainee number archivists confirmed (per archive), with
    the faces' second opinion and the disagreements shown."""
    user = _require_numbers(request)
    archive = _archive_filter(request)
    case = None
    if request.GET.get("case", "").isdigit():
        case = get_object_or_404(Case.objects.select_related("archive", "facility"), pk=int(request.GET["case"]))
    found = number_use.body_groups(user, archive=archive, case=case)
    return render(request, "web/numbers/groups.html", {"groups": found, "archive": archive, "case": case,
                                                        "archives": Archive.objects.all()})


@login_required
def joins(request: HttpRequest) -> HttpResponse:
    """The same confirmed detainee number in photos of two archives: possible joins, for people."""
    user = _require_numbers(request)
    return render(request, "web/numbers/joins.html", {"joins": number_use.number_joins(user)})


@login_required
def facilities(request: HttpRequest) -> HttpResponse:
    """Cases whose confirmed branch number is not their facility's: a suggestion an archivist decides."""
    user = _require_numbers(request)
    return render(request, "web/numbers/facilities.html",
                  {"suggestions": number_use.facility_suggestions(user, _archive_filter(request))})


@login_required
@require_POST
def move_case(request: HttpRequest, case_id: int) -> HttpResponse:
    user = _require_numbers(request)
    try:
        case = number_use.move_case_to_facility(user, case_id, request.POST.get("number", ""))
    except UserError:
        messages.error(request, _("The case was not moved: the suggestion no longer holds, the facility table has "
                                  "no facility of that number, or a case with the same label is already there "
                                  "(merging cases is not done here)."))
        return redirect("web:number_facilities")
    messages.success(request, _("The case was moved to facility %(facility)s.") % {"facility": case.facility.code})
    return redirect("web:number_facilities")


@login_required
def search(request: HttpRequest) -> HttpResponse:
    """A caseworker (or staff) types the number a family quotes, in either digit script, and sees
    the cases that carry it: confirmed in a photo first, then as recorded, then read but undecided."""
    if not policy.can_search_numbers(request.user):
        raise PermissionDenied
    form = NumberSearchForm(request.GET or None)
    found = None
    if form.is_valid():
        found = search_by_number(request.user, form.cleaned_data["number"])
        staff = policy.role_of(request.user) in policy.STAFF_ROLES  # the case page is for staff
        for row in found["cases"]:
            row["openable"] = staff
    return render(request, "web/numbers/search.html", {"form": form, "found": found})
