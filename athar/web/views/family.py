"""A family's pages: its reports, their status, consent, photos and the face to compare."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from athar.accounts.models import signed_in
from athar.audit.chain import actor_for_user, record
from athar.identification import policy
from athar.identification import services as ident
from athar.identification.family_faces import rank_report_again
from athar.identification.jobs import enqueue_for_report
from athar.registry import consent as consent_rules
from athar.registry import policy as registry_policy
from athar.registry.filing import add_photo, consent_record
from athar.registry.filing import remove_photo as remove_report_photo
from athar.registry.models import ReportDraft
from athar.registry.photos import refusal_message
from athar.registry.privacy import erase_report, erasure_preview, export_report
from athar.web.faces import detect_faces, view_size
from athar.web.forms import ConsentForm, PhotosForm, RecordedConsentForm


def family_contact(user: Any) -> dict[str, Any]:
    """Who looks after this family, and how to reach the organisation (ATHAR_ORGANISATION_CONTACT)."""
    caseworker = user.caseworker if user.caseworker_id and user.caseworker.is_active else None
    return {"caseworker": caseworker, "organisation_contact": settings.ATHAR_ORGANISATION_CONTACT.replace("\\n", "\n")}


def visible_report(request: HttpRequest, report_id: int) -> Any:
    """The report if this person may see it; 404 otherwise (never reveal that it exists)."""
    report = policy.reports_visible_to(request.user).filter(pk=report_id).first()
    if report is None:
        raise Http404
    return report


@login_required
def home(request: HttpRequest) -> HttpResponse:
    if not policy.is_family(request.user):
        return redirect("web:dashboard")
    reports = policy.reports_visible_to(request.user).order_by("-filed_at")
    drafts = ReportDraft.objects.filter(owner=signed_in(request.user)).select_related("amends").order_by("-updated_at")
    return render(request, "web/family/home.html", {
        "reports": ident.report_summaries(list(reports), request.user),
        "new_draft": next((d for d in drafts if d.amends is None and d.data), None),
        "changes": [d for d in drafts if d.amends is not None and d.amends.is_current],
        **family_contact(request.user),
    })


@login_required
def report(request: HttpRequest, report_id: int) -> HttpResponse:
    item = visible_report(request, report_id)
    staff_consent = registry_policy.may_record_consent(request.user, item)
    return render(request, "web/family/report.html", {
        "report": item, "summary": ident.report_summary(item, request.user), "photos": item.photos.all(),
        "can_edit": policy.can_edit_report(request.user, item),
        "publication_consent": consent_rules.publication_consent(item),
        "consent_form": RecordedConsentForm() if staff_consent else None,
        "consent_history": _consent_history(item, request.user) if staff_consent else [],
        "same_person": ident.reports_of_same_person(item, request.user),
    })


def _consent_history(item: Any, user: Any) -> list[dict[str, Any]]:
    """What the family said on publication, each statement with who recorded it and the family's
    words (for its caseworker only)."""
    return [{"row": row, "words": consent_rules.words_of(row, user)} for row in consent_rules.history(item)]


@login_required
@require_POST
def record_consent(request: HttpRequest, report_id: int) -> HttpResponse:
    """A caseworker records the family's consent to publication (or its withdrawal) given on paper,
    by phone or in person (``registry.consent.record_consent`` checks who may)."""
    item = visible_report(request, report_id)
    if not registry_policy.may_record_consent(request.user, item):
        raise PermissionDenied
    form = RecordedConsentForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say what the family answered and how."))
        return redirect("web:report", report_id=item.pk)
    data = form.cleaned_data
    try:
        consent_rules.record_consent(item, request.user, publication=data["publication"], method=data["method"],
                                     given_on=data["given_on"], words=data["words"])
    except ValueError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The family's answer was recorded."))
    return redirect("web:report", report_id=item.pk)


@login_required
@require_http_methods(["GET", "POST"])
def consent(request: HttpRequest, report_id: int) -> HttpResponse:
    """Give or withdraw consent to face processing (and publication) for one report."""
    item = visible_report(request, report_id)
    if not policy.can_edit_report(request.user, item):
        raise PermissionDenied
    current = item.consent or {}
    form = ConsentForm(request.POST if request.method == "POST" else None, initial={"face_processing": current.get("face_processing", False),
                                                     "publication": consent_rules.publication_consent(item).given})
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            item.consent = consent_record(form.cleaned_data["face_processing"], form.cleaned_data["publication"])
            item.save(update_fields=["consent"])
            record("consent.changed", object_type="report", object_id=item.pk, actor=actor_for_user(request.user),
                   data={"face_processing": item.consent["face_processing"], "publication": item.consent["publication"]})
        if bool(current.get("face_processing")) != item.consent["face_processing"]:
            rank_report_again(item)  # its photos are compared, or no longer, from now on
        messages.success(request, _("Your choice was saved."))
        return redirect("web:report", report_id=item.pk)
    return render(request, "web/family/consent.html", {"form": form, "report": item})


@login_required
@require_http_methods(["GET", "POST"])
def photos(request: HttpRequest, report_id: int) -> HttpResponse:
    """Add photos of the person alive, and see which face will be compared in each."""
    item = visible_report(request, report_id)
    if not policy.can_edit_report(request.user, item):
        raise PermissionDenied
    form = PhotosForm(*((request.POST, request.FILES) if request.method == "POST" else ()))
    if request.method == "POST" and form.is_valid():
        added = 0
        for upload in form.cleaned_data["photos"]:
            try:
                add_photo(item, upload, request.user)
                added += 1
            except ValueError as exc:
                messages.error(request, refusal_message(exc, upload.name or ""))
        if added:  # every photo is used: the report is compared again with all of them
            rank_report_again(item)
        return redirect("web:report_photos", report_id=item.pk)
    consented = bool((item.consent or {}).get("face_processing"))
    rows = [{"photo": p, "faces": _faces(p) if consented else [], "chosen": _chosen(p)} for p in item.photos.all()]
    return render(request, "web/family/photos.html", {"report": item, "form": form, "rows": rows,
                                                      "consented": consented})


@login_required
@require_POST
def remove_photo(request: HttpRequest, report_id: int, photo_id: int) -> HttpResponse:
    """Take out a photo uploaded by mistake (audited); the report is compared again without it."""
    item = visible_report(request, report_id)
    if not policy.can_edit_report(request.user, item):
        raise PermissionDenied
    photo = get_object_or_404(item.photos, pk=photo_id)
    remove_report_photo(photo, request.user)
    enqueue_for_report(item.pk)
    messages.success(request, _("The photo was removed."))
    return redirect("web:report_photos", report_id=item.pk)


def _detected(photo: Any) -> list[dict[str, Any]]:
    """The faces the family chooses among (the detector's boxes in the viewing copy), never the
    worker's embedded entries (``{"model": …}``, boxes in the original's pixels)."""
    return [f for f in photo.faces or [] if "model" not in f]


def _faces(photo: Any) -> list[dict[str, Any]]:
    if not _detected(photo):
        found = detect_faces(photo)
        if found:
            photo.faces = [*found, *(photo.faces or [])]
            photo.save(update_fields=["faces"])
    return _detected(photo)


def _chosen(photo: Any) -> int | None:
    for i, face in enumerate(_detected(photo)):
        if face.get("chosen"):
            return i
    return None


@login_required
@require_http_methods(["GET", "POST"])
def pick_face(request: HttpRequest, report_id: int, photo_id: int) -> HttpResponse:
    """When a photo holds several faces, the family says which one is the person sought."""
    item = visible_report(request, report_id)
    if not policy.can_edit_report(request.user, item):
        raise PermissionDenied
    if not (item.consent or {}).get("face_processing"):
        messages.error(request, _("Faces are only looked for after you agree to it."))
        return redirect("web:consent", report_id=item.pk)
    photo = get_object_or_404(item.photos, pk=photo_id)
    faces = _faces(photo)
    if request.method == "POST":
        try:
            index = int(request.POST.get("face", ""))
            faces[index]
        except (ValueError, IndexError):
            messages.error(request, _("Choose one of the faces."))
        else:
            for i, face in enumerate(faces):
                face["chosen"] = i == index
            # The embedded entries were of the face chosen before: dropped, so the worker embeds this one.
            photo.faces = faces
            photo.save(update_fields=["faces"])
            record("report.face_chosen", object_type="report", object_id=item.pk, actor=actor_for_user(request.user),
                   data={"photo": photo.pk, "face": index})
            rank_report_again(item)
            messages.success(request, _("Thank you. This face will be compared."))
            return redirect("web:report_photos", report_id=item.pk)
    width, height = view_size(photo)
    boxes = [{"x": f["box"][0], "y": f["box"][1], "w": f["box"][2] - f["box"][0], "h": f["box"][3] - f["box"][1],
              "n": i + 1, "ty": max(f["box"][1] - 8, 30)} for i, f in enumerate(faces)]
    return render(request, "web/family/pick_face.html", {"report": item, "photo": photo, "faces": faces,
                                                         "boxes": boxes, "width": width, "height": height,
                                                         "chosen": _chosen(photo)})


@login_required
def export_data(request: HttpRequest, report_id: int) -> HttpResponse:
    """Everything athar holds about this report (every version), as a JSON download (audited).

    The reporter's contact details are included only for the family who filed it and its caseworker.
    """
    item = visible_report(request, report_id)
    if not policy.may_exercise_data_rights(request.user, item):
        raise PermissionDenied
    with_contact = policy.export_includes_contact(request.user, item)
    data = export_report(item, include_contact=with_contact, actor=actor_for_user(request.user))
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="athar-report-{item.lineage[:12]}.json"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def erase(request: HttpRequest, report_id: int) -> HttpResponse:
    """Erase the report's personal data on request, after an explicit confirmation (irreversible:
    names and facts become a tombstone, contact details unreadable, photos removed)."""
    item = visible_report(request, report_id)
    if not policy.may_exercise_data_rights(request.user, item):
        raise PermissionDenied
    if request.method == "POST":
        if request.POST.get("confirm") != "yes":
            messages.error(request, _("Tick the box to confirm that you want to erase this report."))
        else:
            mine = item.reporter_user_id == request.user.pk
            erase_report(item, actor=actor_for_user(request.user),
                         reason_code="family_request" if mine else "request_via_" + policy.role_of(request.user))
            messages.success(request, _("The report was erased. What remains holds no name, fact, photo or contact."))
            return redirect("web:dashboard")
    return render(request, "web/family/erase.html", {"report": item, "will": erasure_preview(item)})
