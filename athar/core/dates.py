"""Partial dates as families and archives write them: a day, a month or only a year."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache

from athar.core.errors import UserError
from athar.matching.digits import ARABIC_DIGITS

MIN_YEAR, MAX_YEAR = 1900, 2100


class DateError(UserError):
    """An impossible or unreadable date; ``code`` and ``params`` say which, for messages in the
    reader's language (``unreadable_date``, ``impossible_year``, ``impossible_date``)."""

    def __init__(self, message: str, code: str, **params: str) -> None:
        super().__init__(message)
        self.code, self.params = code, params


@dataclass(frozen=True)
class PartialDate:
    """A date with its precision: ``day``, ``month`` or ``year`` (the date is the first day)."""

    date: dt.date
    precision: str

    def iso(self) -> str:
        if self.precision == "year":
            return f"{self.date.year:04d}"
        if self.precision == "month":
            return f"{self.date.year:04d}-{self.date.month:02d}"
        return self.date.isoformat()


_PATTERNS: list[tuple[re.Pattern[str], str, tuple[str, ...]]] = [
    (re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$"), "day", ("y", "m", "d")),
    (re.compile(r"^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$"), "day", ("y", "m", "d")),
    (re.compile(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$"), "day", ("d", "m", "y")),
    (re.compile(r"^(\d{4})[-/](\d{1,2})$"), "month", ("y", "m")),
    (re.compile(r"^(\d{1,2})[/.-](\d{4})$"), "month", ("m", "y")),
    (re.compile(r"^(\d{4})$"), "year", ("y",)),
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


def _named_month(value: str, text: str) -> PartialDate | None:
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


@lru_cache(maxsize=8192)  # a file repeats its dates (years above all); the result is immutable
def parse_partial_date(text: str) -> PartialDate | None:
    """Parse ``2012-03-14``, ``14/03/2012``, ``2012-03``, ``03/2012``, ``2012``, or a month by name
    (``آذار 2012``, ``14 آذار 2012``, ``March 2012``).

    Returns None for an empty value; raises ValueError with a readable reason for an impossible or
    unreadable one (the caller reports the row, it never guesses).
    """
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
    raise DateError(f"unreadable date {text!r} (use YYYY-MM-DD, YYYY-MM or YYYY)", "unreadable_date", text=text)


def _build(parts: dict[str, int], precision: str, text: str) -> PartialDate:
    year = parts["y"]
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise DateError(f"impossible year in date {text!r}", "impossible_year", text=text)
    try:
        date = dt.date(year, parts.get("m", 1), parts.get("d", 1))
    except ValueError as exc:
        raise DateError(f"impossible date {text!r}: {exc}", "impossible_date", text=text, detail=str(exc)) from exc
    return PartialDate(date, precision)
