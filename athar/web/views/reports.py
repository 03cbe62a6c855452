"""Filing a report in short steps, and changing a filed one. The draft is saved on the server at
each step (``registry.ReportDraft``), so it survives signing out; filing deletes it."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from athar.accounts.models import Role, User, signed_in
from athar.archive.models import Agency, Facility
from athar.identification import policy
from athar.identification.jobs import enqueue_for_report
from athar.registry import filing
from athar.registry.models import Place
from athar.registry.places import ensure_governorates
from athar.web import forms as web_forms
from athar.web.templatetags.athar_web import facility_label, place_name
from athar.web.views.family import visible_report

STEPS: list[tuple[str, Any, Any]] = [
    ("family", web_forms.FamilyChoiceForm, gettext_lazy("Family")),
    ("consent", web_forms.ConsentForm, gettext_lazy("Consent")),
    ("person", web_forms.PersonForm, gettext_lazy("Name")),
    ("birth", web_forms.BirthForm, gettext_lazy("Birth and home")),
    ("arrest", web_forms.ArrestForm, gettext_lazy("Arrest")),
    ("marks", web_forms.MarksForm, gettext_lazy("Marks")),
    ("details", web_forms.DetailsForm, gettext_lazy("Body, clothing, health")),
    ("check", web_forms.CheckForm, gettext_lazy("Check")),
    ("photos", web_forms.PhotosForm, gettext_lazy("Photos")),
]
NOT_WHEN_CHANGING = {"family", "consent", "photos"}  # consent and photos have their own pages


def _steps_for(user: Any, amends: Any = None) -> list[tuple[str, Any, Any]]:
    steps = [s for s in STEPS if s[0] != "family" or policy.has_role(user, Role.CASEWORKER, Role.ADMIN)]
    return [s for s in steps if s[0] not in NOT_WHEN_CHANGING] if amends is not None else steps


def _form_kwargs(request: HttpRequest, name: str) -> dict[str, Any]:
    if name == "birth":
        ensure_governorates()
        govs = Place.objects.filter(level=Place.Level.GOVERNORATE).order_by("pcode")
        return {"governorates": [(str(p.pk), place_name(p)) for p in govs]}
    if name == "family":
        return {"families": policy.families_of(request.user)}
    return {}


def _step_url(step: str, amends: Any = None) -> str:
    if amends is not None:
        return reverse("web:report_edit_step", kwargs={"report_id": amends.pk, "step": step})
    return reverse("web:report_step", kwargs={"step": step})


@login_required
@require_http_methods(["GET", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    """Start a report. A draft already begun is continued; starting over (a POST with ``fresh``)
    throws away what was typed, so it is asked once more before it happens (``confirm``)."""
    if not policy.can_file_reports(request.user):
        raise PermissionDenied
    first = _steps_for(request.user)[0][0]
    draft = filing.draft_of(request.user)
    if draft is not None and draft.data:
        if request.method == "GET":
            messages.info(request, _("You had started a report. It was saved: continue where you stopped."))
            return redirect(_step_url(draft.step or first))
        if "confirm" not in request.POST:
            return render(request, "web/family/start_over.html", {"draft": draft,
                                                                  "back": _step_url(draft.step or first)})
        filing.discard_draft(request.user, draft.pk)  # audited: which draft, never what it said
    filing.start_draft(request.user)
    return redirect(_step_url(first))


@login_required
def edit(request: HttpRequest, report_id: int) -> HttpResponse:
    """Change a filed report: the form again, filled in; saving makes a new version."""
    report = visible_report(request, report_id)
    if not policy.can_edit_report(request.user, report):
        raise PermissionDenied
    draft = filing.draft_of(request.user, report)
    if draft is None:
        draft = filing.start_draft(request.user, report, filing.draft_from_report(report))
    return redirect(_step_url(draft.step or _steps_for(request.user, report)[0][0], report))


@login_required
@require_POST
def discard_draft(request: HttpRequest, draft_id: int) -> HttpResponse:
    """Throw away one of my unfinished reports or changes (never another account's: 404)."""
    if not filing.discard_draft(request.user, draft_id):
        raise Http404
    messages.success(request, _("The unfinished report was discarded. Nothing was sent."))
    return redirect("web:family_home" if policy.is_family(request.user) else "web:caseworker_home")


def _initial(draft: dict[str, Any], form_class: Any) -> dict[str, Any]:
    return {k: v for k, v in draft.items() if k in form_class.base_fields and k != "photos"}


def _json_safe(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key == "photos":
            continue
        if hasattr(value, "isoformat"):
            value = value.isoformat()
        elif hasattr(value, "pk"):
            value = value.pk
        out[key] = value
    return out


@login_required
@require_http_methods(["GET", "POST"])
def step(request: HttpRequest, step: str, report_id: int | None = None) -> HttpResponse:
    """One step of the form; each step's answers are saved on the server before the next."""
    if not policy.can_file_reports(request.user):
        raise PermissionDenied
    amends = None
    if report_id is not None:
        amends = visible_report(request, report_id)
        if not policy.can_edit_report(request.user, amends):
            raise PermissionDenied
    steps = _steps_for(request.user, amends)
    names = [s[0] for s in steps]
    draft = filing.draft_of(request.user, amends)
    if step not in names:
        raise Http404
    if draft is None:  # nothing begun (or already filed): start from the beginning
        return redirect("web:report_edit", report_id=amends.pk) if amends else redirect("web:report_new")
    index = names.index(step)
    form_class = steps[index][1]
    kwargs = _form_kwargs(request, step)
    if request.method == "POST":
        form = form_class(request.POST, request.FILES, **kwargs)
        if "back" in request.POST and index > 0:
            _keep_what_was_typed(draft, form, step, names[index - 1])
            return redirect(_step_url(names[index - 1], amends))
        if form.is_valid():
            last = index + 1 == len(names)
            filing.save_step(draft, _json_safe(form.cleaned_data), step if last else names[index + 1],
                             finished_step=step)
            if not last:
                return redirect(_step_url(names[index + 1], amends))
            return _finish(request, draft, form.cleaned_data.get("photos") or [])
    else:
        form = form_class(initial={**_initial(draft.data, form_class), **filing.typed_on(draft, step)}, **kwargs)
    return render(request, "web/family/report_step.html", {
        "form": form, "step": step, "steps": steps, "index": index, "last": index + 1 == len(names),
        "places": _place_names() if step in ("birth", "arrest") else [],
        "agencies": _agency_names() if step == "arrest" else [],
        "multipart": step == "photos", "amends": amends,
        "preview": filing.preview(draft.data) if step == "check" else None,
        "change_links": [(label, _step_url(name, amends)) for name, _c, label in steps
                         if name in ("person", "birth", "arrest", "marks", "details")] if step == "check" else [],
    })


def _keep_what_was_typed(draft: Any, form: Any, step: str, previous: str) -> None:
    """"Back" never loses a word: a step whose answers are complete is saved as if "Next" had been
    pressed; an incomplete one is kept as typed, shown again when the person returns to it."""
    if form.is_valid():
        filing.save_step(draft, _json_safe(form.cleaned_data), previous, finished_step=step)
        return
    typed = {name: form.data.get(name, "") for name in form.fields if name != "photos"}
    filing.keep_typed(draft, step, typed, previous)


def _finish(request: HttpRequest, draft: Any, uploads: list[Any]) -> HttpResponse:
    if draft.amends is not None:
        return _finish_change(request, draft)
    user = signed_in(request.user)
    data = draft.data
    family: User | None
    caseworker: User | None
    if policy.is_family(user):
        family, caseworker = user, user.caseworker
    else:
        family = policy.families_of(user).filter(pk=data.get("family")).first() if data.get("family") else None
        caseworker = user
    report = filing.file_report(data, user, family, caseworker)
    refused = 0
    for upload in uploads:
        try:
            filing.add_photo(report, upload, user)
        except ValueError:
            refused += 1
    draft.delete()
    if refused:
        messages.error(request, _("Some photos could not be read and were not kept. You can add others."))
    messages.success(request, _("The report was filed. Thank you."))
    if report.consent.get("face_processing") and report.photos.exists():
        return redirect("web:report_photos", report_id=report.pk)
    return redirect("web:report", report_id=report.pk)


def _finish_change(request: HttpRequest, draft: Any) -> HttpResponse:
    try:
        report = filing.amend_report(draft.amends, draft.data, request.user)
    except ValueError as exc:
        draft.delete()
        messages.error(request, str(exc))
        return redirect("web:dashboard")
    changed = report.pk != draft.amends_id
    draft.delete()
    if changed:
        enqueue_for_report(report.pk)
        messages.success(request, _("Your changes were saved as a new version of the report. The earlier version is kept."))
    else:
        messages.info(request, _("Nothing was changed."))
    return redirect("web:report", report_id=report.pk)


def _place_names() -> list[str]:
    return [place_name(p) for p in Place.objects.filter(level__in=["governorate", "district"]).order_by("name_en")[:200]]


def _agency_names() -> list[str]:
    names = [facility_label(f) for f in Facility.objects.all()[:100]]
    names += [place_name(a) for a in Agency.objects.all()[:50]]
    return names


