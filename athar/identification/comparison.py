"""What staff see of a ranked case: the score on a stated scale, the reasons in the page's language,
and the facts the ranking compared, report beside case. Shared by the caseworker's candidate list
and the reviewer's comparison page (web and API read the same dicts)."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from athar.archive.models import Sex
from athar.core.labels import facility_label, partial_date, place_name
from athar.identification.explanations import compared_values, written_language
from athar.matching.scoring.algorithm import DEFAULT_ALGORITHM, load_algorithm

FEATURES = {
    "face": _("Face"), "sex": _("Sex"), "age": _("Age"), "time": _("Arrest and photograph dates"),
    "facility": _("Branch or facility"), "marks": _("Distinguishing marks"), "number": _("Detainee number"),
    "forensic": _("Forensic result"),
}

LEVELS = {
    # face
    "similarity": _("similarity of the faces"), "no_face": _("no usable face in the case's photos"),
    "no_photo": _("no photo of the person: ranked on the other facts"),
    # sex
    "same": _("the same"), "different": _("different"), "unknown": _("unknown on one side: not compared"),
    # age
    "within": _("within the examiner's estimate"), "off_2": _("1–2 years outside the estimate"),
    "off_5": _("3–5 years outside the estimate"), "off_10": _("6–10 years outside the estimate"),
    "off_more": _("more than 10 years outside the estimate"),
    # time
    "before_arrest": _("photographed before the reported arrest"),
    "just_before_arrest": _("photographed just before the reported arrest (within what dates allow)"),
    "custody_3m": _("photographed within 3 months of the arrest"),
    "custody_12m": _("photographed 3 to 12 months after the arrest"),
    "custody_36m": _("photographed 1 to 3 years after the arrest"),
    "custody_longer": _("photographed more than 3 years after the arrest"),
    # facility
    "same_facility": _("the branch the family named"), "same_agency": _("the same agency, another branch"),
    "agency_named": _("the agency the family named"), "other_agency": _("another agency"),
    "other_facility": _("another facility (its agency unknown)"),
    # marks
    "content_and_place": _("the same mark in the same place"), "content": _("the same content (what a tattoo shows)"),
    "place_and_side": _("the same kind, place and side"), "place": _("the same kind and place (a side unknown)"),
    "other_side": _("the same kind and place, but the other side"), "region": _("the same kind, same part of the body"),
    "kind": _("the same kind of mark, elsewhere"), "none_in_common": _("no mark in common"),
    # number
    "confirmed_same_number": _("the same number, confirmed by archivists in the case's photos"),
    "same_number_same_facility": _("the same number in the same branch"),
    "same_number": _("the same number, another branch"),
    # forensic
    "exclusion": _("a forensic result excludes this case"),
}

SCALE = _("The percentage is the ranking's probability that this case is the person, given every case in "
          "the archives and the facts compared. It is not proof: only reviewers' decisions on the evidence "
          "identify anyone. A family is shown a case only when it is ranked first and reaches %(threshold)s.")


FACT_LABELS = {
    "sex": _("Sex"), "age": _("Year of birth / estimated age"), "time": _("Arrested / photographed"),
    "facility": _("Branch named / facility of the case"), "place": _("Place of arrest / home town"),
    "number": _("Detainee number"), "marks": _("Distinguishing marks"),
}

_WORDS: dict[tuple[int, str], str] = {}


def words(text: Promise) -> str:
    """A label of this module's tables in the active language, translated once per language: the
    staff ranked list shows 25 cases with some fifteen labels each, and each lazy label read on the
    page was a catalogue lookup."""
    key = (id(text), get_language() or "")
    found = _WORDS.get(key)
    if found is None:
        found = _WORDS[key] = str(text)
    return found


def reason_label(reason: dict[str, Any]) -> str:
    """'Sex: the same' in the active language; the feature alone when the level has no words here
    (never the matching core's English detail, nor a raw key)."""
    feature, level = str(reason.get("feature", "")), str(reason.get("level", ""))
    if feature not in FEATURES:
        return ""
    return f"{words(FEATURES[feature])}: {words(LEVELS[level])}" if level in LEVELS else words(FEATURES[feature])


def reason_parts(reason: Any) -> dict[str, Any]:
    """One reason as structured data (the API): feature, level, weight (log-odds, + for, − against),
    a label in the active language and the algorithm's own detail (English)."""
    if not isinstance(reason, dict):
        return {"feature": "", "level": "", "weight": 0.0, "label": str(reason), "detail": str(reason)}
    return {"feature": str(reason.get("feature", "")), "level": str(reason.get("level", "")),
            "weight": float(reason.get("weight") or 0.0), "label": reason_label(reason),
            "detail": str(reason.get("detail") or "")}


def reason_rows(reasons: list[Any], report: Any = None, case: Any = None) -> list[dict[str, Any]]:
    """Each reason as a feature and a level in the page's language, its weight and its direction
    (for or against), and — given the report and the case — the values it compared (``values``:
    reported, recorded, a note), in the page's language. The algorithm's own detail (English, for
    logs and the API) is kept under ``detail`` and never shown on a page."""
    rows: list[dict[str, Any]] = []
    for reason in reasons or []:
        if not isinstance(reason, dict):
            continue  # not from any algorithm athar ships: nothing to say in the reader's language
        weight = reason.get("weight")
        direction = "" if not weight else "for" if weight > 0 else "against"
        feature, level = str(reason.get("feature", "")), str(reason.get("level", ""))
        if feature not in FEATURES:
            continue  # an unknown feature has no words in any language: the API still has it
        rows.append({"feature": feature, "label": words(FEATURES[feature]),
                     "level": words(LEVELS[level]) if level in LEVELS else "", "weight": weight,
                     "direction": direction, "detail": str(reason.get("detail", "")),
                     "values": compared_values(feature, report, case)})
    return rows


def likely_threshold(algorithm: str) -> float | None:
    """The probability a first-ranked case needs to be a likely match (None: unknown algorithm)."""
    for name in (algorithm, DEFAULT_ALGORITHM):  # rankings store the algorithm's name, files add "-v1"
        try:
            shipped = load_algorithm(name)
        except ValueError:
            continue
        if shipped.name == algorithm or name == algorithm:
            return shipped.likely_match_probability
    return None


def percent(value: float | None) -> str:
    return "" if value is None else f"{round(value * 100)}%"


# A ranking is never proof: no per cent shown reaches 100. Facts alone (a number, a branch, a mark,
# dates) can agree for two people: a match without a face or forensic result compared is shown no
# higher than FACTS_ONLY_CEILING and labelled "facts agree" (staff read 100 % as certainty).
CEILING = 0.99
FACTS_ONLY_CEILING = 0.90
BASIS = {"face": _("faces compared"), "forensic": _("a forensic result"),
         "facts": _("facts agree (no face or forensic result compared)")}


def evidence_basis(reasons: list[Any]) -> str:
    """What the probability rests on: a compared face, a forensic result, or facts alone."""
    levels = {(r.get("feature"), r.get("level")) for r in reasons or [] if isinstance(r, dict)}
    if any(feature == "forensic" and level != "exclusion" for feature, level in levels):
        return "forensic"
    if any(feature == "face" and level not in ("no_face", "no_photo") for feature, level in levels):
        return "face"
    return "facts"


def shown_probability(probability: float | None, basis: str) -> float | None:
    """The probability as staff are shown it: capped by what the evidence can support."""
    if probability is None:
        return None
    return min(probability, FACTS_ONLY_CEILING if basis == "facts" else CEILING)


def score_scale(candidate: Any) -> dict[str, Any]:
    """The candidate's probability as a per cent (capped by its evidence, never 100 %), the
    threshold families see cases at, what the evidence rests on, and what the number means, in the
    page's language. ``probability`` stays the ranking's own value (the API's readers compute)."""
    threshold = likely_threshold(candidate.ranking.algorithm)
    basis = evidence_basis(candidate.reasons)
    return {"percent": percent(shown_probability(candidate.probability, basis)),
            "probability": candidate.probability, "capped": shown_probability(candidate.probability, basis)
            != candidate.probability, "basis": basis, "basis_label": BASIS[basis],
            "threshold": percent(threshold), "likely": candidate.likely_match, "rank": candidate.rank,
            "score": candidate.score,
            "meaning": SCALE % {"threshold": percent(threshold) or _("the likely-match threshold")}}


def _sex(code: str) -> str:
    return str(dict(Sex.choices).get(code or "U", code))


def _age_range(case: Any) -> str:
    if case.age_min is None and case.age_max is None:
        return ""
    return f"{case.age_min if case.age_min is not None else '?'}–{case.age_max if case.age_max is not None else '?'}"


def facts_side_by_side(report: Any, case: Any) -> list[dict[str, Any]]:
    """Every fact the ranking compares, reported beside recorded (empty: not known on that side);
    ``ltr`` marks values (numbers, ranges) to show left to right inside Arabic text."""
    birth = str(report.birth_year or "")
    if birth and report.birth_year_margin:
        birth += f" ± {report.birth_year_margin}"
    arrest_place = report.arrest_place or place_name(report.arrest_place_ref)
    town = report.city or place_name(report.city_ref) or report.governorate or place_name(report.governorate_ref)
    return [
        {"feature": "sex", "label": words(FACT_LABELS["sex"]), "report": _sex(report.sex), "case": _sex(case.sex)},
        {"feature": "age", "label": words(FACT_LABELS["age"]), "report": birth, "case": _age_range(case),
         "ltr": True},
        {"feature": "time", "label": words(FACT_LABELS["time"]),
         "report": partial_date(report.arrest_date, report.arrest_date_precision),
         "case": partial_date(case.photographed, case.photographed_precision)},
        {"feature": "facility", "label": words(FACT_LABELS["facility"]),
         "report": report.arresting_agency, "case": facility_label(case.facility)},
        {"feature": "place", "label": words(FACT_LABELS["place"]),
         "report": " · ".join(v for v in (arrest_place, town) if v), "case": ""},
        {"feature": "number", "label": words(FACT_LABELS["number"]), "report": report.detainee_number,
         "case": case.detainee_number, "ltr": True},
        {"feature": "marks", "label": words(FACT_LABELS["marks"]), "report": report.distinguishing_marks,
         "case": case.marks, "as_written": bool(case.marks), "lang": written_language(case.marks)},
    ]
