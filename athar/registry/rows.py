"""One file row → the fields of a Report, with a warning for every value athar cannot read.

Values are taken as written (names, places, marks): nothing is guessed or corrected. Structured
values (sex, years, dates, age, status) are read; one that cannot be read is kept verbatim (the
importer puts it in the report's ``extra`` and notes) with a warning naming the row and the
column — it never refuses the report. Only a row that names nobody is refused here.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml
from django.utils.translation import gettext as _

from athar.core.dates import PartialDate, parse_partial_date
from athar.core.errors import UserError
from athar.matching.dates import read_age, read_part_of_year
from athar.matching.digits import ARABIC_DIGITS
from athar.matching.names.normalize import detect_script, normalize_arabic
from athar.registry.models import ReportedStatus

TEXT_FIELDS = ("full_name_ar", "full_name_latin", "first_name", "father_name", "grandfather_name",
               "family_name", "mother_name", "birth_place", "governorate", "city", "neighbourhood",
               "arrest_place", "arresting_agency", "detainee_number", "distinguishing_marks", "reporter_relation",
               "notes")
NAME_FIELDS = ("full_name_ar", "full_name_latin", "first_name", "family_name", "full_name")
# Longest value each field holds (the database column); a longer one is kept verbatim in ``extra``.
MAX_TEXT = {"full_name_ar": 300, "full_name_latin": 300, "mother_name": 200, "birth_place": 200,
            "neighbourhood": 200, "arrest_place": 200, "arresting_agency": 200, "detainee_number": 40,
            "distinguishing_marks": 100_000, "notes": 100_000}
_TEXT_LIMITS = tuple((name, MAX_TEXT.get(name, 120)) for name in TEXT_FIELDS)


class RowError(ValueError):
    """A row that cannot go in, with the reason in plain words."""


@dataclass(frozen=True)
class ValueWarning:
    """A value athar could not read: kept verbatim, the report imported anyway."""

    field: str
    value: str
    reason: str


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
    warnings: list[ValueWarning] = field(default_factory=list)
    digest: str = ""  # the keyed content hash (athar.registry.importing.content_hash), once computed
    consent: str = ""  # the publication consent cell as written (registry.consent reads it)
    lineage: str = ""  # the report's lineage (importing.lineage_of), once the report_id is known


@lru_cache(maxsize=4096)  # a file writes sex and status in a handful of ways
def _fold(text: str) -> str:
    value = normalize_arabic(text).strip().lower()
    return re.sub(r"[\s\-_.]+", " ", value).strip()


@lru_cache(maxsize=1)
def _vocabulary() -> dict[str, dict[str, str]]:
    """``{"sex": {folded word: code}, "status": {folded word: status}}`` from data/values.yaml."""
    text = resources.files("athar.registry").joinpath("data/values.yaml").read_text("utf-8")
    table = yaml.safe_load(text)
    return {kind: {_fold(str(w)): code for code, words in table[kind].items() for w in words}
            for kind in ("sex", "status")}


def parse_sex(value: str) -> str | None:
    """M, F or U from the ways reports write it; None when the value is not one of them."""
    key = _fold(value)
    return "U" if not key else _vocabulary()["sex"].get(key)


def parse_status(value: str) -> str | None:
    """The status the reporter believes (a ReportedStatus value); None when not recognised."""
    key = _fold(value)
    if not key:
        return str(ReportedStatus.UNKNOWN)
    return _vocabulary()["status"].get(key)


def parse_birth(value: str, today: dt.date) -> tuple[int | None, dt.date | None]:
    """A birth year, or a full or partial birth date (its year is kept); ValueError when unreadable."""
    text = value.strip().translate(ARABIC_DIGITS)
    if not text:
        return None, None
    date = parse_partial_date(text)
    assert date is not None
    if date.date.year > today.year:
        raise UserError("the birth year is in the future")
    return date.date.year, (date.date if date.precision == "day" else None)


def parse_age(value: str) -> int | None:
    """Whole years (``35``, ``٣٥``, ``35 سنة``, ``عمره 35``, ``35 years``: ``athar.matching.dates.read_age``,
    the reading the linkage shares); ValueError when unreadable."""
    try:
        return read_age(value)
    except ValueError as exc:
        raise UserError(str(exc)) from exc


def split_full_name(value: str, fields: dict[str, Any]) -> None:
    """A name of unknown script (Syrian Detainee Finder) goes to the Arabic or Latin field."""
    if value.strip():
        target = "full_name_ar" if detect_script(value) == "ar" else "full_name_latin"
        fields.setdefault(target, value.strip())


def has_a_name(values: dict[str, str]) -> bool:
    """True when the row names somebody (in any name column, whatever its length)."""
    return any(values.get(n, "").strip() for n in NAME_FIELDS)


def build_fields(values: dict[str, str], today: dt.date, warnings: list[ValueWarning]) -> dict[str, Any]:
    """Report fields from mapped values; an unreadable value is left out and named in ``warnings``."""
    if not has_a_name(values):
        raise RowError(_("no name: a report needs at least a full name, a first name or a family name"))
    fields: dict[str, Any] = {}
    for name, limit in _TEXT_LIMITS:
        text = values.get(name, "").strip()
        if len(text) > limit:
            warnings.append(ValueWarning(name, text, _("longer than %(limit)s characters: kept as written") % {"limit": limit}))
        elif text:
            fields[name] = text
    split_full_name(values.get("full_name", "")[:300], fields)
    _read_choice(values, "sex", parse_sex, "U", lambda: _("not one of M / F / unknown (ذكر / أنثى / غير معروف)"),
                 fields, warnings)
    _read_choice(values, "reported_status", parse_status, str(ReportedStatus.UNKNOWN),
                 lambda: _("not a status athar knows (detained, missing, released, dead — معتقل، مفقود، مطلق "
                           "سراح، متوفى)"),
                 fields, warnings)
    _birth(values, fields, today, warnings)
    _arrest(values, fields, today, warnings)
    return fields


def _read_choice(values: dict[str, str], name: str, parse: Any, default: str, reason: Callable[[], str],
                 fields: dict[str, Any], warnings: list[ValueWarning]) -> None:
    """``reason`` is translated only for a value athar cannot read (a translation lookup on every
    row was a twentieth of an import)."""
    raw = values.get(name, "")
    code = parse(raw)
    if code is None:
        warnings.append(ValueWarning(name, raw.strip(), reason()))
    fields[name] = code or default


def _birth(values: dict[str, str], fields: dict[str, Any], today: dt.date, warnings: list[ValueWarning]) -> None:
    raw = values.get("birth_year", "")
    try:
        fields["birth_year"], fields["birth_date"] = parse_birth(raw, today)
    except ValueError as exc:
        fields["birth_year"], fields["birth_date"] = None, None
        if _an_age(raw) and not values.get("age_at_detention", "").strip():
            fields[AGE_FROM_BIRTH_COLUMN] = raw  # "عمره 27", "27 سنة", "31": read by _age, with the arrest year
            warnings.append(ValueWarning("birth_year", raw.strip(), _("an age, not a year: read as the age at arrest")))
            return
        warnings.append(ValueWarning("birth_year", raw.strip(), _("not a year or a date (%(error)s)") % {"error": exc}))


AGE_FROM_BIRTH_COLUMN = "_age_from_birth_column"  # a value of the birth-year column read as an age (not a field)


def _an_age(raw: str) -> bool:
    try:
        return read_age(raw) is not None
    except ValueError:
        return False


def _arrest(values: dict[str, str], fields: dict[str, Any], today: dt.date, warnings: list[ValueWarning]) -> None:
    raw = values.get("arrest_date", "")
    try:
        arrest = parse_partial_date(raw)
        if arrest and arrest.date > today:
            raise UserError(_("the date is in the future"))
    except ValueError as exc:
        arrest = _part_of_year(raw, today)
        reason = (_("a part of the year: read as the year") if arrest
                  else _("not a date athar can read (%(error)s)") % {"error": exc})
        warnings.append(ValueWarning("arrest_date", raw.strip(), reason))
    fields["arrest_date"] = arrest.date if arrest else None
    fields["arrest_date_precision"] = arrest.precision if arrest else "unknown"
    _age(values, fields, arrest.date.year if arrest else None, warnings)
    if fields["birth_year"] and arrest and fields["birth_year"] > arrest.date.year:
        warnings.append(ValueWarning("birth_year", values.get("birth_year", "").strip(),
                                     _("born after the arrest date: both kept as written, check them")))


def _part_of_year(raw: str, today: dt.date) -> PartialDate | None:
    """"صيف 2014", "أواخر 2012", "late 2012": the year the writer stated (precision year), the words
    kept verbatim with the warning — the linkage compares the year (``read_part_of_year``), and an age
    written beside it gives a birth year. A year to come is no arrest."""
    year = read_part_of_year(raw)
    return PartialDate(dt.date(year, 1, 1), "year") if year is not None and year <= today.year else None


def _age(values: dict[str, str], fields: dict[str, Any], arrest_year: int | None,
         warnings: list[ValueWarning]) -> None:
    """An age is kept as an age; with a year of arrest it also gives a birth year (± 1). An age written
    in the birth-year column (``_birth``) is read as the age at arrest when the age column is empty."""
    raw = values.get("age_at_detention", "") or fields.pop(AGE_FROM_BIRTH_COLUMN, "")
    try:
        age = parse_age(raw)
    except ValueError as exc:
        warnings.append(ValueWarning("age_at_detention", raw.strip(), str(exc)))
        return
    fields["age_at_detention"] = age
    if age is not None and fields["birth_year"] is None and arrest_year is not None:
        fields["birth_year"], fields["birth_year_margin"] = arrest_year - age, 1


def split_photos(value: str) -> list[str]:
    """``a.jpg; b.jpg`` → ["a.jpg", "b.jpg"]."""
    return [p.strip() for p in re.split(r"[;؛]", value or "") if p.strip()]
