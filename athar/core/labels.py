"""Facts in the reader's language: partial dates, places and facilities (pages, the API, exports)."""

from __future__ import annotations

from typing import Any

from django.utils.formats import date_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _


def partial_date(value: Any, precision: str = "day") -> str:
    """A date as precise as it is known: '2012', 'March 2012' or '4 March 2012'."""
    if not value:
        return ""
    if precision == "year":
        return str(value.year)
    if precision == "month":
        return date_format(value, "F Y")
    if precision == "unknown":
        return ""
    return date_format(value, "j F Y")


def place_name(place: Any) -> str:
    """A place, facility or agency in the active language, falling back to the other one."""
    if place is None:
        return ""
    arabic = getattr(place, "name_ar", "")
    english = getattr(place, "name_en", "") or str(place)
    return (arabic or english) if (get_language() or "ar").startswith("ar") else (english or arabic)


def facility_label(facility: Any) -> str:
    """'Branch 215 — Military Intelligence' style label in the active language."""
    if facility is None:
        return ""
    name = place_name(facility)
    if facility.number and str(facility.number) not in name:
        return _("Branch %(number)s — %(name)s") % {"number": facility.number, "name": name} if name else str(facility.number)
    return name or facility.code
