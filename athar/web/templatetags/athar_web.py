"""Template helpers: the language switch, partial dates, derivative URLs."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.urls import translate_url
from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from athar.archive import rejections
from athar.archive.ingest import count_rows
from athar.archive.models import RejectedFile, Sex
from athar.core.findings import Finding
from athar.core.labels import facility_label, partial_date, place_name
from athar.identification.explanations import written_language
from athar.identification.notices import describe as describe_notice
from athar.matching.digits import arabic_indic_digits
from athar.registry.models import ConsentRecord

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


PHONE_LIKE = re.compile(r"\+?[0-9\u0660-\u0669\u06F0-\u06F9][0-9\u0660-\u0669\u06F0-\u06F9 ()\-]{4,}[0-9\u0660-\u0669\u06F0-\u06F9]")


@register.filter
def ltr_numbers(text: str) -> str:
    """Plain text with each phone-like number isolated left to right (``<bdi dir="ltr">``), so that
    "+963 11 234 5678" keeps its order inside Arabic text; everything else escaped."""
    parts, last = [], 0
    for match in PHONE_LIKE.finditer(text or ""):
        parts.append(escape(text[last:match.start()]))
        parts.append(format_html('<bdi dir="ltr">{}</bdi>', match.group(0)))
        last = match.end()
    parts.append(escape((text or "")[last:]))
    return mark_safe("".join(parts))  # every piece escaped above


register.filter("arabic_digits", arabic_indic_digits)
register.filter(partial_date)
register.filter(place_name)
register.filter(facility_label)
register.filter("written_language", written_language)


@register.filter
def notice_text(notice: Any) -> str:
    """A caseworker's notice in words, in the page's language (``identification.notices.describe``)."""
    return describe_notice(notice)


@register.filter
def consent_how(code: str) -> str:
    """How a family said its answer on publication (``registry.consent``), in the active language."""
    if code == "web":
        return str(_("on the web, by the family"))
    return str(dict(ConsentRecord.Method.choices).get(code, code))


@register.filter
def sex_label(code: str) -> str:
    """'M' / 'F' / 'U' as words in the active language."""
    return str(dict(Sex.choices).get(code or "U", code))


@register.filter
def rejection_message(refused: RejectedFile) -> str:
    """Why an ingest refused a file, in the active language; the values from the file (a kind, a
    date as written, a file name) set apart as machine text, left to right, each escaped."""
    def value(key: str, item: Any) -> str:
        if key in rejections.LITERAL_PARAMS:
            return format_html('<bdi dir="ltr"><code>{}</code></bdi>', item)
        return format_html("<bdi>{}</bdi>", item)

    return mark_safe(rejections.message(refused.code, refused.params, conditional_escape, value))  # escaped above


@register.filter
def ingest_counts(counts: dict[str, Any] | None) -> list[tuple[str, Any]]:
    """An ingest run's counts as (label, number) in the active language."""
    return count_rows(counts or {})


@register.filter
def in_reader_language(problem: Any) -> str:
    """A check's finding in the page's language, each value (event number, file, sha256) set apart in
    <bdi>; a line athar only has in English (a plugged-in check's own text) is marked as English."""
    if isinstance(problem, Finding):
        values = {k: format_html("<bdi>{}</bdi>", v) for k, v in problem.params.items()}
        return mark_safe(escape(str(problem.message)) % values)  # the message escaped, each value escaped
    return format_html('<span lang="en" dir="ltr">{}</span>', problem)
