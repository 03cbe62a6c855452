"""Archivists: archives, facilities and cases (blurred by default), case edits (audited),
ingest runs with their refused files, and the ``verify`` check."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Count
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from athar.archive.evidence import case_scope, export_evidence_zip, facility_overview, facility_scope
from athar.archive.ingest_jobs import ingest_root
from athar.archive.models import Archive, Case, Facility, IngestRun
from athar.archive.verify import verify_store
from athar.audit.chain import actor_for_user, record
from athar.core.errors import UserError
from athar.identification import policy
from athar.identification.ingest_requests import start_ingest
from athar.web.forms import CaseForm
from athar.web.staff_forms import IngestForm
from athar.web.views.photos import case_images, chosen_level, record_reveal

AUDITED_CASE_FIELDS = CaseForm.Meta.fields


def _require_archivist(request: HttpRequest) -> None:
    if not policy.can_archive(request.user):
        raise PermissionDenied


def _require_case_viewer(request: HttpRequest) -> None:
    if policy.role_of(request.user) not in policy.STAFF_ROLES:
        raise PermissionDenied


@login_required
def archives(request: HttpRequest) -> HttpResponse:
    _require_archivist(request)
    rows = Archive.objects.annotate(n_cases=Count("cases", distinct=True))
    return render(request, "web/archivist/archives.html", {"archives": rows})


@login_required
def archive(request: HttpRequest, archive_id: int) -> HttpResponse:
    _require_archivist(request)
    item = get_object_or_404(Archive, pk=archive_id)
    cases = Case.objects.filter(archive=item).select_related("facility")
    if request.GET.get("facility"):
        cases = cases.filter(facility__code=request.GET["facility"])
    page = Paginator(cases, 50).get_page(request.GET.get("page"))
    return render(request, "web/archivist/archive.html", {"archive": item, "page": page})


@login_required
def facilities(request: HttpRequest) -> HttpResponse:
    _require_archivist(request)
    rows = Facility.objects.select_related("agency").annotate(n_cases=Count("cases"))
    return render(request, "web/archivist/facilities.html", {"facilities": rows})


@login_required
def facility(request: HttpRequest, facility_id: int) -> HttpResponse:
    """One facility: its cases (paginated), photographs, identifications and dates."""
    _require_archivist(request)
    item = get_object_or_404(Facility.objects.select_related("agency"), pk=facility_id)
    cases = Case.objects.filter(facility=item).select_related("archive").order_by("photographed", "label")
    page = Paginator(cases, 50).get_page(request.GET.get("page"))
    return render(request, "web/archivist/facility.html", {"o": facility_overview(item), "page": page})


def _evidence_download(request: HttpRequest, scoped: tuple[Any, dict[str, Any]]) -> FileResponse:
    sightings, scope = scoped
    archive, name = export_evidence_zip(sightings, scope, actor=actor_for_user(request.user))
    response = FileResponse(archive, as_attachment=True, filename=name, content_type="application/zip")
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_POST
def facility_evidence(request: HttpRequest, facility_id: int) -> FileResponse:
    """Every original of the facility's cases with SHA256SUMS and manifest.json, as a zip (audited
    ``export.evidence``, as ``athar export evidence --facility``)."""
    _require_archivist(request)
    return _evidence_download(request, facility_scope(get_object_or_404(Facility, pk=facility_id)))


@login_required
@require_POST
def case_evidence(request: HttpRequest, case_id: int) -> FileResponse:
    """One case's originals with SHA256SUMS and manifest.json, as a zip (audited)."""
    _require_archivist(request)
    return _evidence_download(request, case_scope(get_object_or_404(Case.objects.select_related("facility"),
                                                                    pk=case_id)))


@login_required
def case(request: HttpRequest, case_id: int) -> HttpResponse:
    """A case's facts and photos, blurred until the archivist or reviewer chooses to see more."""
    _require_case_viewer(request)
    item = get_object_or_404(Case.objects.select_related("facility", "archive"), pk=case_id)
    return _case_page(request, item, policy.HIDDEN)


def _case_page(request: HttpRequest, item: Case, level: int) -> HttpResponse:
    return render(request, "web/archivist/case.html", {"case": item, "images": case_images(request, item, level),
                                                       "can_edit": policy.can_edit_case(request.user)})


@login_required
@require_POST
def case_reveal(request: HttpRequest, case_id: int) -> HttpResponse:
    """An archivist's or reviewer's explicit choice to see more of a case, for this page only."""
    _require_case_viewer(request)
    item = get_object_or_404(Case.objects.select_related("facility", "archive"), pk=case_id)
    level = chosen_level(request)
    if level == policy.HIDDEN:
        return redirect("web:case", case_id=item.pk)
    record_reveal(request, item, level, "case", item.pk)
    return _case_page(request, item, level)


@login_required
@require_http_methods(["GET", "POST"])
def case_edit(request: HttpRequest, case_id: int) -> HttpResponse:
    """Edit a case's facts; every change is audited (field names only, never the values)."""
    _require_archivist(request)
    item = get_object_or_404(Case, pk=case_id)
    form = CaseForm(request.POST if request.method == "POST" else None, instance=item)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            form.save()
            record("case.edited", object_type="case", object_id=item.pk, actor=actor_for_user(request.user),
                   data={"fields": sorted(form.changed_data)})
        messages.success(request, _("The case was saved."))
        return redirect("web:case", case_id=item.pk)
    return render(request, "web/archivist/case_edit.html", {"case": item, "form": form})


@login_required
def ingest_runs(request: HttpRequest) -> HttpResponse:
    _require_archivist(request)
    runs = IngestRun.objects.select_related("archive").annotate(n_rejected=Count("rejected"))[:100]
    return render(request, "web/archivist/ingest_runs.html", {"runs": runs})


@login_required
def ingest_run(request: HttpRequest, run_id: int) -> HttpResponse:
    """A run: while it waits or runs, its phase and files done of the total (the page refreshes
    itself, no script); then its counts, the files refused and why, or why it failed."""
    _require_archivist(request)
    run = get_object_or_404(IngestRun.objects.select_related("archive"), pk=run_id)
    page = Paginator(run.rejected.order_by("path"), 100).get_page(request.GET.get("page"))
    active = run.status in (IngestRun.Status.QUEUED, IngestRun.Status.RUNNING)
    return render(request, "web/archivist/ingest_run.html", {"run": run, "page": page, "active": active,
                                                             "refresh": 3 if active else 0})


@login_required
@require_http_methods(["GET", "POST"])
def ingest_start(request: HttpRequest) -> HttpResponse:
    """Start an ingest of a folder already on the server, inside ``ATHAR_INGEST_ROOT``; the worker
    runs it and the run's page follows it."""
    if not policy.may_start_ingest(request.user):
        raise PermissionDenied
    form = IngestForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            run = start_ingest(request.user, form.cleaned_data["folder"], form.cleaned_data["archive"],
                               form.cleaned_data["faces"])
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("web:ingest_run", run_id=run.pk)
    return render(request, "web/archivist/ingest_start.html", {"form": form, "root": ingest_root()})


@login_required
@require_http_methods(["GET", "POST"])
def verify(request: HttpRequest) -> HttpResponse:
    """Run ``verify`` (re-hash every file, re-check the audit chain) and show what it found."""
    _require_archivist(request)
    report = None
    if request.method == "POST":
        report = verify_store().as_dict()
        record("verify.run", object_type="store", actor=actor_for_user(request.user),
               data={"ok": report["ok"], "problems": len(report["problems"])})
    return render(request, "web/archivist/verify.html", {"report": report})
