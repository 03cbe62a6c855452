"""Partial dates as families and archives write them: a day, a month or only a year."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

ARABIC_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "01234567890123456789")
MIN_YEAR, MAX_YEAR = 1900, 2100


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
    (re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})$"), "day", ("y", "m", "d")),
    (re.compile(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$"), "day", ("d", "m", "y")),
    (re.compile(r"^(\d{4})[-/](\d{1,2})$"), "month", ("y", "m")),
    (re.compile(r"^(\d{1,2})[/.-](\d{4})$"), "month", ("m", "y")),
    (re.compile(r"^(\d{4})$"), "year", ("y",)),
]


def parse_partial_date(text: str) -> PartialDate | None:
    """Parse ``2012-03-14``, ``14/03/2012``, ``2012-03``, ``03/2012`` or ``2012``.

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
            return _build(parts, precision, text)
    raise ValueError(f"unreadable date {text!r} (use YYYY-MM-DD, YYYY-MM or YYYY)")


def _build(parts: dict[str, int], precision: str, text: str) -> PartialDate:
    year = parts["y"]
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise ValueError(f"impossible year in date {text!r}")
    try:
        date = dt.date(year, parts.get("m", 1), parts.get("d", 1))
    except ValueError as exc:
        raise ValueError(f"impossible date {text!r}: {exc}") from exc
    return PartialDate(date, precision)
