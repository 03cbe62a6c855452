"""Dates as families and lists write them, read once for every part of athar: a day, a month or a
year, in digits of either script or with a month's name (Levantine, Egyptian, English, French).
``athar.core.dates`` (the registry, the archive) and the linkage (``linkage/prepare.py``) read them
here, so a date the import reads is a date the linkage compares. Plain Python: no Django."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from athar.matching.digits import ARABIC_DIGITS

MIN_YEAR, MAX_YEAR = 1900, 2100


@dataclass(frozen=True)
class DateReading:
    """A date as written, read: the first day of what it names, and its precision (day, month, year)."""

    date: dt.date
    precision: str


class UnreadableDate(ValueError):
    """A date that is not one (``code``: ``unreadable_date``, ``impossible_year``, ``impossible_date``)."""

    def __init__(self, message: str, code: str, detail: str = "") -> None:
        super().__init__(message)
        self.code, self.detail = code, detail


_PATTERNS: list[tuple[re.Pattern[str], str, tuple[str, ...]]] = [
    (re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$"), "day", ("y", "m", "d")),
    (re.compile(r"^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$"), "day", ("y", "m", "d")),
    (re.compile(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$"), "day", ("d", "m", "y")),
    (re.compile(r"^(\d{4})[-/](\d{1,2})$"), "month", ("y", "m")),
    (re.compile(r"^(\d{1,2})[/.-](\d{4})$"), "month", ("m", "y")),
    (re.compile(r"^(\d{4})$"), "year", ("y",)),
    (re.compile(r"^(?:ال)?شهر\s*(\d{1,2})\s*[/-]?\s*(\d{4})$"), "month", ("m", "y")),  # شهر 5 2012: month five
]


# Month names as families write them: Levantine (Syrian) and other Arabic names, English, French.
_MONTHS = {
    1: ("كانون الثاني", "كانون ثاني", "يناير", "january", "jan", "janvier"),
    2: ("شباط", "فبراير", "february", "feb", "fevrier", "février"),
    3: ("آذار", "اذار", "مارس", "march", "mar", "mars"),
    4: ("نيسان", "أبريل", "ابريل", "إبريل", "april", "apr", "avril"),
    5: ("أيار", "ايار", "مايو", "may", "mai"),
    6: ("حزيران", "يونيو", "يونيه", "june", "jun", "juin"),
    7: ("تموز", "يوليو", "يوليه", "july", "jul", "juillet"),
    8: ("آب", "اب", "أغسطس", "اغسطس", "august", "aug", "aout", "août"),
    9: ("أيلول", "ايلول", "سبتمبر", "september", "sep", "sept", "septembre"),
    10: ("تشرين الأول", "تشرين الاول", "تشرين أول", "تشرين اول", "أكتوبر", "اكتوبر", "october", "oct", "octobre"),
    11: ("تشرين الثاني", "تشرين ثاني", "نوفمبر", "november", "nov", "novembre"),
    12: ("كانون الأول", "كانون الاول", "كانون أول", "كانون اول", "ديسمبر", "december", "dec", "decembre", "décembre"),
}
_MONTH_OF = {name: number for number, names in _MONTHS.items() for name in names}
_NAMED = re.compile(r"^(?:(\d{1,2})\s+)?(\D+?)\s*[,،]?\s+(\d{4})$")


_NAMED_DAY_AFTER = re.compile(r"^(\D+?)\s+(\d{1,2})\s*[,،]?\s+(\d{4})$")


def _named_month(value: str, text: str) -> DateReading | None:
    """``آذار 2012``, ``14 آذار 2012``, ``March 2012``, ``mars 2012``, ``March 14, 2012`` (month names,
    not numbers)."""
    match = _NAMED.match(value)
    if match:
        name, day, year = match.group(2), match.group(1), match.group(3)
    elif after := _NAMED_DAY_AFTER.match(value):
        name, day, year = after.group(1), after.group(2), after.group(3)
    else:
        return None
    month = _MONTH_OF.get(re.sub(r"\s+", " ", name.strip().strip(".").lower()))
    if month is None:
        return None
    parts = {"y": int(year), "m": month}
    if day:
        parts["d"] = int(day)
    return _build(parts, "day" if day else "month", text)


def read_date(text: str) -> DateReading | None:
    """``2012-03-14``, ``14/03/2012``, ``2012-03``, ``03/2012``, ``2012``, ``١٤/٣/٢٠١٢``, a month by
    name (``آذار 2012``, ``14 آذار 2012``, ``March 14, 2012``) or by number after شهر (``شهر 5 2012``).
    None for an empty value; ``UnreadableDate`` for one that is not a date (nothing is guessed: a
    season or "late 2012" is no date — ``read_part_of_year`` gives its year to those who need only that)."""
    value = (text or "").strip().translate(ARABIC_DIGITS)
    if not value:
        return None
    for pattern, precision, order in _PATTERNS:
        match = pattern.match(value)
        if match:
            parts = dict(zip(order, (int(g) for g in match.groups())))
            if order == ("d", "m", "y") and parts["m"] > 12 >= parts["d"]:
                parts["d"], parts["m"] = parts["m"], parts["d"]  # 10/13/2014: month first, as written in the US
            return _build(parts, precision, text)
    named = _named_month(value, text)
    if named is not None:
        return named
    raise UnreadableDate(f"unreadable date {text!r} (use YYYY-MM-DD, YYYY-MM or YYYY)", "unreadable_date")


def _build(parts: dict[str, int], precision: str, text: str) -> DateReading:
    year = parts["y"]
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise UnreadableDate(f"impossible year in date {text!r}", "impossible_year")
    try:
        date = dt.date(year, parts.get("m", 1), parts.get("d", 1))
    except ValueError as exc:
        raise UnreadableDate(f"impossible date {text!r}: {exc}", "impossible_date", str(exc)) from exc
    return DateReading(date, precision)


MAX_AGE = 120
_AGE = re.compile(r"(?:(?:عمره|عمرها|العمر|عمر|age|aged)\s*:?\s*)?(\d{1,3})(?:\.0+)?\s*"
                  r"(?:years?(?: old)?|yrs?|ans|سنة|عام|عاما|سنوات|سنه)?", re.IGNORECASE)


def read_age(text: str) -> int | None:
    """Whole years as written: ``35``, ``٣٥``, ``35 سنة``, ``عمره 35``, ``age 35``, ``35 years old``.
    None for an empty value; ValueError for one that is not an age (``حوالي 45``, "in his twenties":
    an age nobody stated is not guessed)."""
    value = (text or "").strip().translate(ARABIC_DIGITS)
    if not value:
        return None
    match = _AGE.fullmatch(value)
    if not match or int(match.group(1)) > MAX_AGE:
        raise ValueError(f"not a whole number of years (0–{MAX_AGE})")
    return int(match.group(1))


# A part of a year written in words before the year: a season, its beginning, middle or end, or the
# weeks after Ramadan ("صيف 2014", "أواخر 2012", "بعد رمضان 2011", "late 2012", "fin 2012"). The year is
# stated, only the month is not; "حوالي 2013" (about 2013) states no year and is not read.
_PARTS_OF_YEAR = (
    "ربيع", "صيف", "خريف", "شتاء", "أواخر", "اواخر", "أوائل", "اوائل", "أواسط", "اواسط", "منتصف", "بداية", "بدايه",
    "بدايات", "مطلع", "نهاية", "نهايه", "أول", "اول", "آخر", "اخر", "بعد رمضان", "قبل رمضان", "في رمضان",
    "رمضان", "بعد عيد الفطر", "بعد عيد الأضحى", "بعد عيد الاضحى",
    "spring", "summer", "autumn", "fall", "winter", "early", "mid", "late", "end of", "beginning of",
    "printemps", "été", "ete", "automne", "hiver", "début", "debut", "fin", "mi",
)
_PART_OF_YEAR = re.compile(
    r"^(?:" + "|".join(sorted((re.escape(p) for p in _PARTS_OF_YEAR), key=len, reverse=True))
    + r")(?:\s+(?:عام|سنة|سنه|of))?[\s-]+(\d{4})$", re.IGNORECASE)


def read_part_of_year(text: str) -> int | None:
    """The year of a date written as a part of it ("صيف 2014", "أواخر 2012", "late 2012"), else None.
    Not a date (``read_date`` does not read it: a report keeps it as written): the linkage compares
    its year, which the writer stated."""
    value = re.sub(r"\s+", " ", (text or "").strip().translate(ARABIC_DIGITS))
    match = _PART_OF_YEAR.match(value)
    if not match:
        return None
    year = int(match.group(1))
    return year if MIN_YEAR <= year <= MAX_YEAR else None
