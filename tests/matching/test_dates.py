"""One reading of dates for the import and the linkage (athar.matching.dates): before, the linkage read
only dates that begin with the year, so "13/9/2013", "١٥/٣/٢٠١٢" or "نيسان 2015" in a file the import
read well were no arrest date at all for the linkage (field_lists.py, a generator written from a fresh
description: the rights database writes day first, activists write months by name)."""

from __future__ import annotations

import pytest

from athar.core.dates import DateError, parse_partial_date
from athar.matching.dates import read_date, read_part_of_year
from athar.matching.linkage.prepare import PART_OF_YEAR, parse_date

WRITTEN = ["13/9/2013", "06.05.2013", "2014/3/4", "١٥/٣/٢٠١٢", "نيسان 2015", "كانون الثاني 2013", "15 Feb 2012",
           "August 2013", "08/13/2013", "2012-03", "03/2012", "2013", "شهر 8 2012", "2012-03-14"]


@pytest.mark.parametrize("written", WRITTEN)
def test_the_linkage_reads_every_date_the_import_reads(written: str) -> None:
    imported = parse_partial_date(written)
    assert imported is not None
    month = imported.date.month if imported.precision != "year" else None
    assert parse_date(written) == (imported.date.year, month, imported.precision)


def test_a_month_by_number_after_the_word_month() -> None:
    reading = read_date("شهر 5 2012")
    assert reading is not None and (reading.date.year, reading.date.month, reading.precision) == (2012, 5, "month")


@pytest.mark.parametrize("written", ["10/3", "31/2/2012", "حوالي 2013", "صيف", "about 2012"])
def test_what_is_not_a_date_is_not_guessed(written: str) -> None:
    with pytest.raises(DateError):
        parse_partial_date(written)
    assert parse_date(written) == (None, None, None)


@pytest.mark.parametrize(("written", "year"), [
    ("ربيع 2014", 2014), ("أواخر ٢٠١٢", 2012), ("بعد رمضان 2011", 2011), ("منتصف 2014", 2014),
    ("شتاء عام 2015", 2015), ("late 2012", 2012), ("Summer of 2014", 2014), ("fin 2012", 2012), ("mi-2013", 2013),
])
def test_a_part_of_a_year_gives_its_year_to_the_linkage_not_a_date(written: str, year: int) -> None:
    """A witness or an activist writes "صيف 2014", "أواخر 2012": the year is stated, the month is not.
    No date (the report keeps the words), but the linkage compares the year (field_lists.py: a man
    "عمره 53" arrested "شتاء 2015" had no birth year, and joined a namesake born in 1977)."""
    with pytest.raises(DateError):
        parse_partial_date(written)
    assert read_part_of_year(written) == year
    assert parse_date(written) == (year, None, PART_OF_YEAR)


@pytest.mark.parametrize(("written", "arrest", "year"), [
    ("1985", 2013, 1985), ("1/1/1985", None, 1985), ("عمره 27", 2013, 1986), ("27 سنة", 2012, 1985),
    ("٣١", 2013, 1982), ("age 40", 2011, 1971), ("عمره 27", None, None), ("بالعشرينات", 2013, None),
    ("حوالي 45", 2013, None),
])
def test_the_linkage_reads_an_age_in_the_birth_year_column_as_the_import_does(
        written: str, arrest: int | None, year: int | None) -> None:
    from athar.matching.linkage.prepare import birth_year

    assert birth_year(written, arrest) == year
