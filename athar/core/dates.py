"""Partial dates as families and archives write them: a day, a month or only a year."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache

from athar.core.errors import UserError
from athar.matching.dates import UnreadableDate, read_date
from athar.matching.digits import ARABIC_DIGITS

__all__ = ["ARABIC_DIGITS", "DateError", "PartialDate", "parse_partial_date"]


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


@lru_cache(maxsize=8192)  # a file repeats its dates (years above all); the result is immutable
def parse_partial_date(text: str) -> PartialDate | None:
    """Parse ``2012-03-14``, ``14/03/2012``, ``2012-03``, ``03/2012``, ``2012``, or a month by name
    (``آذار 2012``, ``14 آذار 2012``, ``March 2012``) — ``athar.matching.dates.read_date``, the one
    reading the linkage shares.

    Returns None for an empty value; raises ValueError with a readable reason for an impossible or
    unreadable one (the caller reports the row, it never guesses).
    """
    try:
        reading = read_date(text)
    except UnreadableDate as exc:
        params = {"text": text, **({"detail": exc.detail} if exc.detail else {})}
        raise DateError(str(exc), exc.code, **params) from exc
    return PartialDate(reading.date, reading.precision) if reading else None
