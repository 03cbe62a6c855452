"""Reasons in words: each reason of a ranking (feature, level, weight) with the facts it compared,
rendered through gettext for the reader — staff see both sides and what the ranking made of them;
families see, in careful words, which of their facts agree with the archive and which differ.

The matching core's ``detail`` is English for logs and the command line; pages never show it. Values
come from the report and the case themselves; the archive's own text (marks) is shown as it was
written, with its language, and said to be so.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from athar.archive.models import Sex
from athar.core.labels import facility_label, partial_date, place_name
from athar.matching.names.normalize import detect_script


def written_language(text: str) -> str:
    """The language a recorded text was written in, for ``lang``: 'ar', 'en' or '' (no letters)."""
    script = detect_script(text or "")
    return {"ar": "ar", "latin": "en"}.get(script, "")


def _sex(code: str) -> str:
    return str(dict(Sex.choices).get(code or "U", code)) if code and code != "U" else ""


def _birth(report: Any) -> str:
    if not report.birth_year:
        return ""
    return f"{report.birth_year} ± {report.birth_year_margin}" if report.birth_year_margin else str(report.birth_year)


def _estimate(case: Any) -> str:
    if case.age_min is None and case.age_max is None:
        return ""
    low = case.age_min if case.age_min is not None else "?"
    high = case.age_max if case.age_max is not None else "?"
    return f"{low}–{high}"


def _months(report: Any, case: Any) -> int | None:
    """Whole months from the reported arrest to the photograph (negative: before), when both are known."""
    if not report.arrest_date or not case.photographed or report.arrest_date_precision == "unknown":
        return None
    a, p = report.arrest_date, case.photographed
    return (p.year - a.year) * 12 + (p.month - a.month)


def _age_note(report: Any, case: Any) -> str:
    if not report.birth_year or not case.photographed:
        return ""
    age = case.photographed.year - report.birth_year
    return ngettext("about %(n)s year old when photographed", "about %(n)s years old when photographed",
                    age) % {"n": age}


def _time_note(report: Any, case: Any) -> str:
    months = _months(report, case)
    if months is None:
        return ""
    if months < 0:
        return ngettext("photographed about %(n)s month before the reported arrest",
                        "photographed about %(n)s months before the reported arrest", -months) % {"n": -months}
    return ngettext("about %(n)s month between the reported arrest and the photograph",
                    "about %(n)s months between the reported arrest and the photograph", months) % {"n": months}


def _facility(case: Any) -> str:
    label = facility_label(case.facility)
    agency = getattr(case.facility, "agency", None) if case.facility is not None else None
    name = place_name(agency) if agency is not None else ""
    return f"{label} ({name})" if label and name and name not in label else label


def compared_values(feature: str, report: Any, case: Any) -> dict[str, Any]:
    """What the family reported and what the archive records for one feature, in the page's language;
    ``as_written`` (with ``lang``) when the recorded value is the archive's own text."""
    if report is None or case is None:
        return {}
    values: dict[str, Any] = {"reported": "", "recorded": "", "note": "", "as_written": False, "lang": "", "ltr": False}
    if feature == "sex":
        values.update(reported=_sex(report.sex), recorded=_sex(case.sex))
    elif feature == "age":
        values.update(reported=_birth(report), recorded=_estimate(case), note=_age_note(report, case), ltr=True)
    elif feature == "time":
        values.update(reported=partial_date(report.arrest_date, report.arrest_date_precision),
                      recorded=partial_date(case.photographed, case.photographed_precision),
                      note=_time_note(report, case))
    elif feature == "facility":
        values.update(reported=report.arresting_agency, recorded=_facility(case))
    elif feature == "marks":
        values.update(reported=report.distinguishing_marks, recorded=case.marks, as_written=bool(case.marks),
                      lang=written_language(case.marks))
    elif feature == "number":
        values.update(reported=report.detainee_number, recorded=case.detainee_number, ltr=True)
    return values


# What a reason means to the family who filed the report: said of their facts, never a score, never
# "he died". Only levels that say something agree or differ; the others are left out.
FAMILY_WORDS: dict[tuple[str, str], Any] = {
    ("face", "similarity"): _("The face in the photos you gave resembles the face in the archive's photos."),
    ("face", "dissimilar"): _("The face in the photos you gave does not closely resemble the face in the archive's "
                              "photos."),
    ("sex", "same"): _("The sex you reported is the one the archive records."),
    ("sex", "different"): _("The sex you reported is not the one the archive records."),
    ("age", "within"): _("The year of birth you gave fits the age the examiner estimated."),
    ("age", "off_2"): _("The year of birth you gave is a year or two away from the age the examiner estimated."),
    ("age", "off_5"): _("The year of birth you gave is a few years away from the age the examiner estimated."),
    ("age", "off_10"): _("The year of birth you gave is several years away from the age the examiner estimated."),
    ("age", "off_more"): _("The year of birth you gave is far from the age the examiner estimated."),
    ("time", "custody_3m"): _("This person was photographed in the months after the arrest date you gave."),
    ("time", "custody_12m"): _("This person was photographed within a year after the arrest date you gave."),
    ("time", "custody_36m"): _("This person was photographed within three years after the arrest date you gave."),
    ("time", "custody_longer"): _("This person was photographed more than three years after the arrest date you "
                                  "gave."),
    ("time", "just_before_arrest"): _("This person was photographed close to the arrest date you gave, a little "
                                      "before it (dates are often remembered approximately)."),
    ("time", "before_arrest"): _("This person was photographed before the arrest date you gave."),
    ("facility", "same_facility"): _("The branch you reported is the branch that held this person."),
    ("facility", "same_agency"): _("The branch that held this person belongs to the agency of the branch you "
                                   "reported, but it is another branch."),
    ("facility", "agency_named"): _("The agency you reported is the agency that held this person."),
    ("facility", "other_agency"): _("This person was held by another agency than the one you reported."),
    ("facility", "other_facility"): _("This person was held in another place than the one you reported."),
    ("marks", "content_and_place"): _("A mark you described is recorded on this person, in the same place."),
    ("marks", "content"): _("A mark you described is recorded on this person (what it shows is the same)."),
    ("marks", "place_and_side"): _("A mark of the kind you described is recorded in the same place and on the "
                                   "same side."),
    ("marks", "place"): _("A mark of the kind you described is recorded in the same place."),
    ("marks", "other_side"): _("A mark of the kind you described is recorded in the same place, but on the other "
                               "side."),
    ("marks", "region"): _("A mark of the kind you described is recorded on the same part of the body."),
    ("marks", "kind"): _("A mark of the kind you described is recorded, in another place."),
    ("marks", "none_in_common"): _("None of the marks you described is recorded for this person."),
    ("number", "same_number_same_facility"): _("The detainee number you gave is the number recorded for this "
                                               "person, in the same branch."),
    ("number", "same_number"): _("The detainee number you gave is the number recorded for this person, in "
                                 "another branch."),
    ("number", "different"): _("The detainee number you gave is not the number recorded for this person."),
}


def family_reasons(reasons: list[Any]) -> dict[str, list[str]]:
    """The family's facts that agree with the archive (``agree``) and those that differ (``differ``),
    in careful words, strongest first; facts not compared are left out."""
    out: dict[str, list[str]] = {"agree": [], "differ": []}
    rows = [r for r in reasons or [] if isinstance(r, dict)]
    for reason in sorted(rows, key=lambda r: -abs(float(r.get("weight") or 0.0))):
        weight = float(reason.get("weight") or 0.0)
        level = str(reason.get("level"))
        if reason.get("feature") == "face" and level == "similarity" and weight < 0:
            level = "dissimilar"
        words = FAMILY_WORDS.get((str(reason.get("feature")), level))
        if words is None or weight == 0:
            continue
        out["agree" if weight > 0 else "differ"].append(str(words))
    return out
