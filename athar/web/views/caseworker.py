"""Caseworkers: the queue of their families, invitations, importing lists of reports."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from athar.accounts import enrolment
from athar.accounts.caseworkers import TakeOnRefused, take_on
from athar.accounts.models import RESET_CODE_HOURS, Invitation, Role, User, format_code, signed_in
from athar.accounts.recovery import issue_reset_code
from athar.audit.chain import actor_for_user, record
from athar.identification import notices, policy
from athar.identification import services as ident
from athar.identification.jobs import enqueue_import
from athar.registry.importing import import_reports as run_import
from athar.registry.importing import queue_upload
from athar.registry.models import ImportBatch, Report
from athar.registry.template import template_bytes
from athar.web.forms import ImportForm, InformedForm

# Files up to this size are imported while the page waits; larger ones by the worker, with a
# progress page (issue 28).
IMPORT_IN_REQUEST_MAX_BYTES = 256 * 1024


def _require_caseworker(request: HttpRequest) -> User:
    """The signed-in caseworker (or administrator); anyone else is refused."""
    if not policy.has_role(request.user, Role.CASEWORKER, Role.ADMIN):
        raise PermissionDenied
    return signed_in(request.user)


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Reports of my families (and those I filed), newest first, with their status and notices;
    families who registered on their own and wait for a caseworker."""
    _require_caseworker(request)
    reports = policy.reports_visible_to(request.user).select_related("reporter_user").order_by("-filed_at")[:200]
    return render(request, "web/caseworker/home.html", {
        "persons": ident.group_by_person(ident.report_summaries(list(reports))),
        "families": _families_with_reports(request.user),
        "notices": notices.notices_of(request.user)[:30], "unread": notices.unread_count(request.user),
        "tasks": ident.open_inform_tasks(request.user),
        "waiting": _waiting_families(), "drafts": ident.unfinished_drafts(request.user),
    })


def _families_with_reports(user: Any) -> list[dict[str, Any]]:
    """The families I look after, each with the reports of theirs I may open."""
    visible = policy.reports_visible_to(user)
    families = list(policy.families_of(user).order_by("display_name", "pk")[:200])
    reports: dict[int, list[Any]] = {}
    for report in visible.filter(reporter_user__in=families).order_by("-filed_at"):
        reports.setdefault(report.reporter_user_id, []).append(report)
    return [{"user": f, "reports": reports.get(f.pk, [])} for f in families]


def _waiting_families() -> list[dict[str, Any]]:
    """Self-registered family accounts without a caseworker: the last digits of their phone only."""
    rows = (User.objects.filter(role=Role.FAMILY, is_active=True, caseworker__isnull=True)
            .annotate(reports_filed_count=Count("reports_filed", filter=Q(reports_filed__is_current=True)))
            .order_by("date_joined")[:100])
    return [{"user": u, "phone_end": (u.phone or u.login)[-3:], "reports": u.reports_filed_count} for u in rows]


@login_required
@require_POST
def take_family(request: HttpRequest, user_id: int) -> HttpResponse:
    """A caseworker takes on a self-registered family, with the code the family read to them
    (athar.accounts.caseworkers.take_on: checked, audited)."""
    caseworker = _require_caseworker(request)
    family = User.objects.filter(pk=user_id, role=Role.FAMILY).first()
    if family is None:
        raise Http404
    try:
        take_on(caseworker, family, request.POST.get("code", ""))
    except TakeOnRefused:
        messages.error(request, _("The family's code is not right or has expired. Ask the family to open "
                                  "“Code for a caseworker” on its page and read you the code."))
        return redirect("web:caseworker_home")
    messages.success(request, _("The family is now in your queue."))
    return redirect("web:caseworker_home")


@login_required
@require_POST
def reset_code(request: HttpRequest, user_id: int) -> HttpResponse:
    """A one-time code for one of my families to choose a new password (shown once, audited)."""
    _require_caseworker(request)
    family = policy.families_of(request.user).filter(pk=user_id).first()
    if family is None:
        raise Http404
    code = issue_reset_code(request.user, family)
    response = render(request, "web/caseworker/reset_code.html", {
        "family": family, "code": format_code(code), "hours": RESET_CODE_HOURS})
    response["Cache-Control"] = "no-store, private"
    return response


@login_required
@require_POST
def read_notices(request: HttpRequest) -> HttpResponse:
    """Mark one notice (``notice``) or all of mine read."""
    _require_caseworker(request)
    value = request.POST.get("notice", "")
    notices.mark_read(request.user, int(value) if value.isdigit() else None)
    return redirect("web:caseworker_home")


@login_required
@require_http_methods(["POST"])
def task_told(request: HttpRequest, notice_id: int) -> HttpResponse:
    """Close a 'tell the family' task: the caseworker told the family (audited)."""
    _require_caseworker(request)
    try:
        ident.mark_told(request.user, notice_id)
    except LookupError:
        raise Http404 from None
    messages.success(request, _("Recorded: the family was told."))
    return redirect("web:caseworker_home")


@login_required
@require_http_methods(["POST"])
def claim_challenge(request: HttpRequest, claim_id: int) -> HttpResponse:
    """Ask reviewers to look again at the decided identification of a family's claim (with a
    reason). The decision stands until a reviewer decides."""
    _require_caseworker(request)
    try:
        ident.request_challenge_for_claim(claim_id, request.user, request.POST.get("reason", ""))
        messages.success(request, _("The reviewers were asked to look again. The decision stands until they decide."))
    except LookupError:
        raise Http404 from None
    except ValueError as exc:
        messages.error(request, str(exc))
    return redirect("web:caseworker_home")


@login_required
@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest) -> HttpResponse:
    """Make a one-time invitation code for a family (shown once, to read out or write down)."""
    caseworker = _require_caseworker(request)
    code = None
    made_for = ""
    if request.method == "POST":
        made_for = request.POST.get("label", "").strip()
        invitation, plain = Invitation.issue(caseworker, made_for)
        record("invitation.created", object_type="invitation", object_id=invitation.pk,
               actor=actor_for_user(caseworker))
        code = format_code(plain)
    invitations = Invitation.objects.filter(caseworker=caseworker).select_related("used_by")[:50]
    return render(request, "web/caseworker/invite.html", {"code": code, "made_for": made_for,
                                                          "invitations": invitations, "now": timezone.now()})


@login_required
@require_POST
def revoke_invitation(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """Take back an unused invitation of mine (audited); another caseworker's answers 404."""
    caseworker = _require_caseworker(request)
    invitation = Invitation.objects.filter(pk=invitation_id, caseworker=caseworker).first()
    if invitation is None:
        raise Http404
    if enrolment.revoke_invitation(invitation, caseworker):
        messages.success(request, _("The invitation was revoked: its code no longer works."))
    else:
        messages.error(request, _("This invitation was already used, revoked or expired."))
    return redirect("web:invite")


@login_required
@require_http_methods(["GET", "POST"])
def import_reports(request: HttpRequest) -> HttpResponse:
    """The registry import from an uploaded CSV/XLSX, with a readable report of rejected rows."""
    _require_caseworker(request)
    form = ImportForm(*((request.POST, request.FILES) if request.method == "POST" else ()))
    result = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        suffix = Path(upload.name).suffix.lower()
        if suffix not in (".csv", ".xlsx"):
            form.add_error("file", _("Use a CSV or Excel (.xlsx) file."))
        elif upload.size > IMPORT_IN_REQUEST_MAX_BYTES:
            batch = queue_upload(upload.read(), upload.name, form.cleaned_data["source"] or "", request.user,
                                 actor_for_user(request.user))
            enqueue_import(batch.pk)
            return redirect("web:import_progress", batch_id=batch.pk)
        else:
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / f"upload{suffix}"
                path.write_bytes(upload.read())
                try:
                    result = run_import(path, source=form.cleaned_data["source"] or "",
                                        actor=actor_for_user(request.user))
                except ValueError as exc:
                    form.add_error("file", str(exc))
            if result:
                Report.objects.filter(batch_id=result["batch"], caseworker=None).update(caseworker=request.user)
    return render(request, "web/caseworker/import.html", {"form": form, "result": result})


@login_required
def import_progress(request: HttpRequest, batch_id: int) -> HttpResponse:
    """A large file imported by the worker: rows done of the total while it runs (the page
    refreshes itself, no script), then the counts, the refused rows and the warnings."""
    batch = ImportBatch.objects.filter(pk=batch_id).first()
    if batch is None or not policy.may_view_import(request.user, batch):
        raise Http404
    running = batch.status in (ImportBatch.Status.QUEUED, ImportBatch.Status.RUNNING)
    percent = int(100 * batch.rows_done / batch.rows_total) if batch.rows_total else 0
    result = {**batch.counts, **batch.result} if batch.status == ImportBatch.Status.DONE else None
    return render(request, "web/caseworker/import_progress.html", {
        "batch": batch, "running": running, "percent": percent, "result": result, "refresh": 3 if running else 0})


TEMPLATE_TYPES = {"csv": "text/csv; charset=utf-8",
                  "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}


@login_required
def import_template(request: HttpRequest, fmt: str, lang: str) -> HttpResponse:
    """The blank import template (CSV or XLSX) with Arabic or English headers."""
    _require_caseworker(request)
    if fmt not in TEMPLATE_TYPES or lang not in ("ar", "en"):
        raise Http404
    response = HttpResponse(template_bytes(fmt, lang), content_type=TEMPLATE_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="athar-reports-template-{lang}.{fmt}"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def publication(request: HttpRequest, identification_id: int) -> HttpResponse:
    """A verified identification of one of my families: record that the family was told (in person
    or by phone), see who has consented, and publish once every family was told and agreed."""
    _require_caseworker(request)
    view = ident.publication_view(identification_id, request.user)
    if view is None:
        raise Http404
    form = InformedForm(request.POST if request.POST.get("action") == "inform" else None)
    if request.method == "POST":
        try:
            if request.POST.get("action") == "publish" and request.POST.get("confirmed") != "yes":
                return _confirm_publication(request, view)
            if request.POST.get("action") == "publish":
                ident.publish(identification_id, request.user)
                messages.success(request, _("The identification is published."))
            elif form.is_valid():
                report_id = int(request.POST.get("report", "0") or 0)
                ident.record_informed(identification_id, report_id, request.user, form.cleaned_data["informed_on"],
                                      form.cleaned_data["method"])
                messages.success(request, _("Recorded: the family was informed."))
            else:
                messages.error(request, _("Give the day and how the family was told."))
        except LookupError:
            raise Http404 from None
        except ValueError as exc:
            messages.error(request, str(exc))
        return redirect("web:publication", identification_id=identification_id)
    return render(request, "web/caseworker/publication.html", {"v": view, "form": InformedForm()})


def _confirm_publication(request: HttpRequest, view: dict[str, Any]) -> HttpResponse:
    """Publishing asks once more: the very row the public list will show (never a photo), and that
    every family concerned was told and agreed. Nothing changes until the caseworker confirms; when
    the rules would refuse, the page says so instead of offering the button."""
    if not view["can_publish"]:
        messages.error(request, _("Not yet: every family must be told and agree first."))
        return redirect("web:publication", identification_id=view["obj"].pk)
    return render(request, "web/caseworker/publication_confirm.html",
                  {"v": view, "row": ident.public_row(view["obj"])})
