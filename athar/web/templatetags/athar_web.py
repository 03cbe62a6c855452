"""Template helpers: the language switch, partial dates, derivative URLs."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import translate_url
from django.utils.html import format_html
from django.utils.translation import get_language, gettext as _

from django.utils.formats import date_format

register = template.Library()

OTHER = {"ar": ("en", "English"), "en": ("ar", "العربية")}


@register.simple_tag(takes_context=True)
def language_switch(context: dict[str, Any]) -> str:
    """A link to this very page in the other language (one tap, no JavaScript)."""
    request = context.get("request")
    code, label = OTHER.get(get_language() or "ar", OTHER["ar"])
    path = request.get_full_path() if request else "/"
    return format_html('<a href="{}" lang="{}" hreflang="{}" class="lang-switch">{}</a>',
                       translate_url(path, code), code, code, label)


@register.filter
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


@register.filter
def place_name(place: Any) -> str:
    """A place, facility or agency in the active language, falling back to the other one."""
    if place is None:
        return ""
    arabic = getattr(place, "name_ar", "")
    english = getattr(place, "name_en", "") or str(place)
    return (arabic or english) if (get_language() or "ar").startswith("ar") else (english or arabic)


@register.filter
def facility_label(facility: Any) -> str:
    """'Branch 215 — Military Intelligence' style label in the active language."""
    if facility is None:
        return ""
    name = place_name(facility)
    if facility.number and str(facility.number) not in name:
        return _("Branch %(number)s — %(name)s") % {"number": facility.number, "name": name} if name else str(facility.number)
    return name or facility.code


@register.filter
def sex_label(code: str) -> str:
    """'M' / 'F' / 'U' as words in the active language."""
    from athar.archive.models import Sex

    return str(dict(Sex.choices).get(code or "U", code))
