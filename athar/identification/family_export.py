"""A family's data, readable: everything it gave about one report (every field, the governorate it
chose included), the photos it gave, its consent statements, its claims and what it was told, in the
reader's language. The web page, the PDF and the machine-readable file (``registry.privacy``) are
three views of the same export; taking it is audited once (``registry.export_report``).

Nothing here says more than the family's own pages do: the status is the family's
(``services.report_summary``), never a score, and an identification is not mentioned before its
caseworker has told the family.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from athar.archive.models import Sex
from athar.core.labels import partial_date, place_name
from athar.identification.models import Claim, Verdict
from athar.identification.services import report_summary
from athar.registry.models import ConsentRecord, Report
from athar.registry.privacy import export_report

# (field, label): text fields shown as the family wrote them, in the order of the report's page.
TEXT_FIELDS = (
    ("full_name_ar", gettext_lazy("Full name in Arabic letters")),
    ("full_name_latin", gettext_lazy("Name in Latin letters")),
    ("first_name", gettext_lazy("First name")),
    ("father_name", gettext_lazy("Father's name")),
    ("grandfather_name", gettext_lazy("Grandfather's name")),
    ("family_name", gettext_lazy("Family name")),
    ("mother_name", gettext_lazy("Mother's name")),
    ("name_nickname", gettext_lazy("nickname")),
    ("birth_place", gettext_lazy("Place of birth")),
    ("governorate", gettext_lazy("Governorate")),
    ("city", gettext_lazy("Hometown")),
    ("neighbourhood", gettext_lazy("Neighbourhood")),
    ("arrest_place", gettext_lazy("Place of arrest")),
    ("arresting_agency", gettext_lazy("Agency or branch")),
    ("detainee_number", gettext_lazy("Detainee number")),
    ("distinguishing_marks", gettext_lazy("Distinguishing marks")),
    ("clothing", gettext_lazy("Clothing at the arrest")),
    ("belongings", gettext_lazy("Belongings at the arrest")),
    ("dental", gettext_lazy("Teeth")),
    ("medical", gettext_lazy("Medical details")),
    ("reporter_relation", gettext_lazy("Your relation to him or her")),
    ("notes", gettext_lazy("Notes")),
)
LTR = {"detainee_number", "full_name_latin"}


def _row(label: Any, value: Any, ltr: bool = False) -> dict[str, Any]:
    return {"label": str(label), "value": str(value), "ltr": ltr}


def fact_rows(report: Report) -> list[dict[str, Any]]:
    """Every fact of the report that holds a value, labelled in the reader's language."""
    rows = [_row(label, getattr(report, field), field in LTR) for field, label in TEXT_FIELDS
            if getattr(report, field)]
    places = (("governorate_ref", _("Governorate (as chosen)")), ("city_ref", _("Hometown (as recognised)")),
              ("arrest_place_ref", _("Place of arrest (as recognised)")))
    rows += [_row(label, place_name(getattr(report, f))) for f, label in places if getattr(report, f"{f}_id")]
    rows.append(_row(_("Sex"), dict(Sex.choices).get(report.sex or "U", report.sex)))
    if report.birth_year:
        approx = f" ({_('approximately')})" if report.birth_year_margin else ""
        rows.append(_row(_("Year of birth"), f"{report.birth_year}{approx}"))
    if report.birth_date:
        rows.append(_row(_("Date of birth"), partial_date(report.birth_date)))
    if report.arrest_date:
        rows.append(_row(_("Arrested"), partial_date(report.arrest_date, report.arrest_date_precision)))
    if report.height_cm:
        rows.append(_row(_("Height"), _("%(n)s cm") % {"n": report.height_cm}))
    if report.build:
        rows.append(_row(_("Build"), report.get_build_display()))
    rows += [_row(key, value) for key, value in (report.extra or {}).items() if value]  # imported as written
    return rows


def photo_rows(report: Report) -> list[dict[str, Any]]:
    return [{"name": p.original_name, "added": p.created_at, "sha256": p.sha256}
            for p in report.photos.order_by("created_at")]


def consent_rows(report: Report) -> list[dict[str, Any]]:
    """What the family said about the use of its report: on the web, and as recorded by its caseworker."""
    given = report.consent or {}
    rows = [{"how": _("on the web, by the family"), "when": given.get("changed_at", "")[:10],
             "text": (_("Faces may be compared: yes") if given.get("face_processing") else
                      _("Faces may be compared: no")) + " · " +
                     (_("Publication once told: yes") if given.get("publication") else
                      _("Publication once told: no"))}] if given else []
    methods = dict(ConsentRecord.Method.choices)
    for row in ConsentRecord.objects.filter(lineage=report.lineage).order_by("recorded_at", "pk"):
        rows.append({"how": str(methods.get(row.method, row.method)), "when": row.given_on.isoformat(),
                     "text": _("Publication once told: yes") if row.publication else _("Publication once told: no")})
    return rows


def claim_rows(report: Report) -> list[dict[str, Any]]:
    """The family's answers on the cases it was shown, and where each stands in its words."""
    rows = []
    for claim in Claim.objects.filter(report__lineage=report.lineage).order_by("created_at"):
        if claim.withdrawn_at:
            state = _("withdrawn")
        elif claim.set_aside_at:
            state = _("set aside by a reviewer: your caseworker will tell you why")
        elif claim.verdict == "is_them":
            state = _("with the reviewers: two of them must look at the evidence")
        else:
            state = _("recorded")
        rows.append({"answer": str(dict(Verdict.choices).get(claim.verdict, claim.verdict)), "when": claim.created_at,
                     "state": state, "relation": claim.relation})
    return rows


def readable_export(report: Report, viewer: Any, *, include_contact: bool, actor: str) -> dict[str, Any]:
    """The export for a page or a PDF: the machine-readable data (audited) and its readable parts."""
    data = export_report(report, include_contact=include_contact, actor=actor)
    current = Report.objects.current().filter(lineage=report.lineage).first() or report
    contact = data["versions"][-1].get("reporter_contact") if data["versions"] else None
    return {"report": current, "facts": fact_rows(current), "versions": len(data["versions"]),
            "photos": photo_rows(current), "consent": consent_rows(current), "claims": claim_rows(current),
            "told": str(report_summary(current, viewer)["status"]), "contact": contact or "", "data": data}
