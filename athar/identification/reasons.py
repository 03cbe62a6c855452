"""A ranking's reasons in the reader's language: one label per feature and level.

The matching core explains each feature of a comparison as ``{"feature", "level", "weight",
"detail"}`` (``athar.matching.scoring.algorithm.Reason``); ``detail`` is a technical English
sentence for staff and logs. Pages and the API show ``reason_label``: the feature and what its
level means, translated.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

FEATURE_LABELS = {
    "face": _("Face"), "sex": _("Sex"), "age": _("Age"), "time": _("Dates"), "facility": _("Place of detention"),
    "marks": _("Distinguishing marks"), "number": _("Detainee number"),
}

LEVEL_LABELS = {
    # face
    "similarity": _("compared with the family's photos"), "no_face": _("no usable face in the case's photos"),
    "no_photo": _("no photo of the person: ranked on the other facts"),
    # sex
    "same": _("the same"), "different": _("different"), "unknown": _("cannot be compared"),
    # age
    "within": _("fits the reported age"), "off_2": _("off by up to 2 years"), "off_5": _("off by up to 5 years"),
    "off_10": _("off by up to 10 years"), "off_more": _("off by more than 10 years"),
    # time
    "before_arrest": _("photographed before the reported arrest"),
    "just_before_arrest": _("photographed just before the reported arrest"),
    "custody_3m": _("within 3 months of the arrest"), "custody_12m": _("within a year of the arrest"),
    "custody_36m": _("within 3 years of the arrest"), "custody_longer": _("more than 3 years after the arrest"),
    # facility
    "same_facility": _("the branch the family named"), "same_agency": _("the same security agency"),
    "agency_named": _("an agency the family named"), "other_agency": _("another agency"),
    "other_facility": _("another branch"),
    # marks
    "content_and_place": _("the same mark in the same place"), "content": _("the same kind of mark"),
    "place_and_side": _("a mark on the same part and side of the body"), "place": _("a mark on the same part of the body"),
    "other_side": _("a mark on the other side"), "region": _("a mark in the same region"), "kind": _("a mark of the same kind"),
    "none_in_common": _("no mark in common"),
    # number
    "same_number_same_facility": _("the same number at the same branch"), "same_number": _("the same number"),
}


def reason_parts(reason: Any) -> dict[str, Any]:
    """One reason as structured data: feature, level, weight (log-odds, + for, − against), label."""
    if not isinstance(reason, dict):
        return {"feature": "", "level": "", "weight": 0.0, "label": str(reason), "detail": str(reason)}
    feature, level = str(reason.get("feature", "")), str(reason.get("level", ""))
    return {"feature": feature, "level": level, "weight": float(reason.get("weight") or 0.0),
            "label": reason_label(reason), "detail": str(reason.get("detail") or "")}


def reason_label(reason: dict[str, Any]) -> str:
    """'Sex: the same' in the active language; the technical detail when the level is unknown to us."""
    feature, level = str(reason.get("feature", "")), str(reason.get("level", ""))
    feature_text = FEATURE_LABELS.get(feature)
    level_text = LEVEL_LABELS.get(level)
    if feature_text is None or level_text is None:
        return str(reason.get("detail") or feature)
    return f"{feature_text}: {level_text}"
