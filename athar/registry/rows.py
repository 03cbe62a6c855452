"""One file row → the fields of a Report, or a readable reason why the row cannot go in.

Values are taken as written (names, places, marks): nothing is guessed or corrected; only
structured values (sex, years, dates, status) are read, and an unreadable one rejects the row.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from athar.core.dates import ARABIC_DIGITS, parse_partial_date
from athar.matching.names.normalize import detect_script, normalize_arabic
from athar.registry.models import ReportedStatus

MALE = {"m", "male", "man", "boy", "ذكر", "ذ", "رجل", "شاب", "طفل", "h", "homme"}
FEMALE = {"f", "female", "woman", "girl", "انثى", "أنثى", "ا", "امراة", "امرأة", "فتاة", "طفلة", "femme"}
UNKNOWN_SEX = {"u", "unknown", "other", "غير معروف", "غير محدد", "؟", "?", "-"}
STATUSES = {
    ReportedStatus.DETAINED: {"detained", "in_custody", "in custody", "arrested", "معتقل", "معتقلة", "محتجز"},
    ReportedStatus.MISSING: {"missing", "disappeared", "forcibly disappeared", "مفقود", "مفقودة", "مختف",
                             "مختفي", "مختفي قسريا", "مختف قسريا", "مغيب"},
    ReportedStatus.RELEASED: {"released", "freed", "found", "محرر", "مفرج عنه", "مفرج عنها", "أفرج عنه", "افرج عنه"},
    ReportedStatus.DEAD: {"dead", "deceased", "killed", "died", "متوفى", "متوفي", "متوفاة", "توفي", "شهيد", "قتل"},
    ReportedStatus.UNKNOWN: {"unknown", "غير معروف", "غير محدد"},
}
TEXT_FIELDS = ("full_name_ar", "full_name_latin", "first_name", "father_name", "grandfather_name",
               "family_name", "mother_name", "birth_place", "governorate", "city", "neighbourhood",
               "arrest_place", "arresting_agency", "detainee_number", "distinguishing_marks", "reporter_relation",
               "notes")
MAX_TEXT = {"distinguishing_marks": 10_000, "notes": 20_000, "detainee_number": 40}


class RowError(ValueError):
    """A row that cannot go in, with the reason in plain words."""


@dataclass
class ParsedRow:
    """What one row says, ready to become a Report."""

    number: int
    source: str
    report_id: str
    fields: dict[str, Any]
    contact: str = ""
    photos: list[str] = field(default_factory=list)
    extra: dict[str, str] = field(default_factory=dict)


def _fold(text: str) -> str:
    return normalize_arabic(text).strip().lower().translate(ARABIC_DIGITS)


@lru_cache(maxsize=1)
def _sex_words() -> dict[str, str]:
    return {_fold(w): code for code, words in (("M", MALE), ("F", FEMALE), ("U", UNKNOWN_SEX)) for w in words}


@lru_cache(maxsize=1)
def _status_words() -> dict[str, str]:
    return {_fold(w).replace("_", " "): str(status) for status, words in STATUSES.items() for w in words}


@lru_cache(maxsize=4096)
def parse_sex(value: str) -> str:
    """M, F or U from the ways reports write it; RowError for anything else."""
    key = _fold(value)
    if not key:
        return "U"
    if key in _sex_words():
        return _sex_words()[key]
    raise RowError(f"sex {value!r} is not one of M / F / ذكر / أنثى")


@lru_cache(maxsize=4096)
def parse_status(value: str) -> str:
    """The status the reporter believes, as one of ReportedStatus; RowError for anything else."""
    key = _fold(value).replace("-", " ").replace("_", " ")
    if not key:
        return str(ReportedStatus.UNKNOWN)
    if key in _status_words():
        return _status_words()[key]
    raise RowError(f"status {value!r} is not one of detained, missing, released, dead (معتقل، مفقود…)")


def parse_birth(value: str, today: dt.date) -> tuple[int | None, dt.date | None]:
    """A birth year, or a full or partial birth date (its year is kept)."""
    text = value.strip().translate(ARABIC_DIGITS)
    if not text:
        return None, None
    try:
        date = parse_partial_date(text)
    except ValueError as exc:
        raise RowError(f"birth year {value!r} is not a year or a date") from exc
    assert date is not None
    if date.date.year > today.year:
        raise RowError(f"birth year {value!r} is in the future")
    return date.date.year, (date.date if date.precision == "day" else None)


def parse_age(value: str) -> int | None:
    text = value.strip().translate(ARABIC_DIGITS)
    if not text:
        return None
    match = re.fullmatch(r"(\d{1,3})(?:\.0+)?\s*(?:years?|سنة|عام|عاما|سنوات)?", text)
    if not match or int(match.group(1)) > 120:
        raise RowError(f"age at detention {value!r} is not a whole number of years (0–120)")
    return int(match.group(1))


def split_full_name(value: str, fields: dict[str, Any]) -> None:
    """A name of unknown script (Syrian Detainee Finder) goes to the Arabic or Latin field."""
    if value.strip():
        target = "full_name_ar" if detect_script(value) == "ar" else "full_name_latin"
        fields.setdefault(target, value.strip())


def build_fields(values: dict[str, str], today: dt.date) -> dict[str, Any]:
    """Report fields from mapped values (RowError when a structured value cannot be read)."""
    fields: dict[str, Any] = {}
    for name in TEXT_FIELDS:
        text = values.get(name, "").strip()
        if len(text) > MAX_TEXT.get(name, 300):
            raise RowError(f"{name} is longer than {MAX_TEXT.get(name, 300)} characters")
        if text:
            fields[name] = text
    split_full_name(values.get("full_name", ""), fields)
    if not any(fields.get(n) for n in ("full_name_ar", "full_name_latin", "first_name", "family_name")):
        raise RowError("no name: a report needs at least a full name, a first name or a family name")
    fields["sex"] = parse_sex(values.get("sex", ""))
    fields["reported_status"] = parse_status(values.get("reported_status", ""))
    fields["birth_year"], fields["birth_date"] = parse_birth(values.get("birth_year", ""), today)
    _arrest(values, fields, today)
    return fields


def _arrest(values: dict[str, str], fields: dict[str, Any], today: dt.date) -> None:
    try:
        arrest = parse_partial_date(values.get("arrest_date", ""))
    except ValueError as exc:
        raise RowError(str(exc)) from exc
    if arrest and arrest.date > today:
        raise RowError(f"arrest date {values['arrest_date']!r} is in the future")
    fields["arrest_date"] = arrest.date if arrest else None
    fields["arrest_date_precision"] = arrest.precision if arrest else "unknown"
    age = parse_age(values.get("age_at_detention", ""))
    if age is not None and fields["birth_year"] is None:
        if arrest is None:
            raise RowError("age at detention without a date of detention: the birth year cannot be worked out")
        fields["birth_year"], fields["birth_year_margin"] = arrest.date.year - age, 1
    if fields["birth_year"] and arrest and fields["birth_year"] > arrest.date.year:
        raise RowError("born after the arrest date")


def split_photos(value: str) -> list[str]:
    """``a.jpg; b.jpg`` → ["a.jpg", "b.jpg"]."""
    return [p.strip() for p in re.split(r"[;؛]", value or "") if p.strip()]
