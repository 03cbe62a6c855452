"""Template helpers: the language switch, partial dates, derivative URLs."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import translate_url
from django.utils.html import format_html
from django.utils.translation import get_language

from athar.archive.ingest import count_rows
from athar.archive.models import Sex
from athar.core.labels import facility_label, partial_date, place_name

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


register.filter(partial_date)
register.filter(place_name)
register.filter(facility_label)


@register.filter
def sex_label(code: str) -> str:
    """'M' / 'F' / 'U' as words in the active language."""
    return str(dict(Sex.choices).get(code or "U", code))


@register.filter
def ingest_counts(counts: dict[str, Any] | None) -> list[tuple[str, Any]]:
    """An ingest run's counts as (label, number) in the active language."""
    return count_rows(counts or {})
