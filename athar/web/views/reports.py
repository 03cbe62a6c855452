"""Filing a report in short steps. The draft lives in the session until the last step."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from athar.accounts.models import Role, User, signed_in
from athar.archive.models import Agency, Facility
from athar.identification import policy
from athar.registry.models import Place
from athar.registry.places import ensure_governorates
from athar.web import forms as web_forms
from athar.web.filing import add_photo, file_report
from athar.web.templatetags.athar_web import facility_label, place_name

DRAFT = "athar_report_draft"
STEPS: list[tuple[str, Any, Any]] = [
    ("family", web_forms.FamilyChoiceForm, gettext_lazy("Family")),
    ("consent", web_forms.ConsentForm, gettext_lazy("Consent")),
    ("person", web_forms.PersonForm, gettext_lazy("Name")),
    ("birth", web_forms.BirthForm, gettext_lazy("Birth and home")),
    ("arrest", web_forms.ArrestForm, gettext_lazy("Arrest")),
    ("marks", web_forms.MarksForm, gettext_lazy("Marks")),
    ("photos", web_forms.PhotosForm, gettext_lazy("Photos")),
]


def _steps_for(user: Any) -> list[tuple[str, Any, Any]]:
    return [s for s in STEPS if s[0] != "family" or policy.has_role(user, Role.CASEWORKER, Role.ADMIN)]


def _form_kwargs(request: HttpRequest, name: str) -> dict[str, Any]:
    if name == "birth":
        ensure_governorates()
        govs = Place.objects.filter(level=Place.Level.GOVERNORATE).order_by("pcode")
        return {"governorates": [(str(p.pk), place_name(p)) for p in govs]}
    if name == "family":
        return {"families": policy.families_of(request.user)}
    return {}


@login_required
def new(request: HttpRequest) -> HttpResponse:
    if not policy.can_file_reports(request.user):
        raise PermissionDenied
    request.session[DRAFT] = {}
    return redirect("web:report_step", step=_steps_for(request.user)[0][0])


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
def step(request: HttpRequest, step: str) -> HttpResponse:
    if not policy.can_file_reports(request.user):
        raise PermissionDenied
    steps = _steps_for(request.user)
    names = [s[0] for s in steps]
    if step not in names or DRAFT not in request.session:
        raise Http404
    index = names.index(step)
    form_class = steps[index][1]
    draft = dict(request.session[DRAFT])
    kwargs = _form_kwargs(request, step)
    if request.method == "POST":
        form = form_class(request.POST, request.FILES, **kwargs)
        if "back" in request.POST and index > 0:
            return redirect("web:report_step", step=names[index - 1])
        if form.is_valid():
            draft.update(_json_safe(form.cleaned_data))
            request.session[DRAFT] = draft
            if index + 1 < len(names):
                return redirect("web:report_step", step=names[index + 1])
            return _finish(request, draft, form.cleaned_data.get("photos") or [])
    else:
        form = form_class(initial=_initial(draft, form_class), **kwargs)
    return render(request, "web/family/report_step.html", {
        "form": form, "step": step, "steps": steps, "index": index, "last": index + 1 == len(names),
        "places": _place_names() if step in ("birth", "arrest") else [],
        "agencies": _agency_names() if step == "arrest" else [],
        "multipart": step == "photos",
    })


def _finish(request: HttpRequest, draft: dict[str, Any], uploads: list[Any]) -> HttpResponse:
    user = signed_in(request.user)
    family: User | None
    if policy.is_family(user):
        family, caseworker = user, user.caseworker
    else:
        family = policy.families_of(user).filter(pk=draft.get("family")).first() if draft.get("family") else None
        caseworker = user
    report = file_report(draft, user, family, caseworker)
    refused = 0
    for upload in uploads:
        try:
            add_photo(report, upload, user)
        except ValueError:
            refused += 1
    del request.session[DRAFT]
    if refused:
        messages.error(request, _("Some photos could not be read and were not kept. You can add others."))
    messages.success(request, _("The report was filed. Thank you."))
    if report.consent.get("face_processing") and report.photos.exists():
        return redirect("web:report_photos", report_id=report.pk)
    return redirect("web:report", report_id=report.pk)


def _place_names() -> list[str]:
    return [place_name(p) for p in Place.objects.filter(level__in=["governorate", "district"]).order_by("name_en")[:200]]


def _agency_names() -> list[str]:
    names = [facility_label(f) for f in Facility.objects.all()[:100]]
    names += [place_name(a) for a in Agency.objects.all()[:50]]
    return names


