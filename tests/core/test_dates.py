import datetime as dt

import pytest

from athar.core.dates import parse_partial_date


@pytest.mark.parametrize("text,iso,precision", [
    ("2012-03-14", "2012-03-14", "day"),
    ("14/03/2012", "2012-03-14", "day"),
    ("٢٠١٢-٠٣", "2012-03", "month"),
    ("03/2012", "2012-03", "month"),
    ("2012", "2012", "year"),
])
def test_partial_dates(text, iso, precision):
    parsed = parse_partial_date(text)
    assert parsed is not None and parsed.iso() == iso and parsed.precision == precision


def test_empty_is_none():
    assert parse_partial_date("  ") is None


@pytest.mark.parametrize("bad", ["2013-02-30", "1812", "spring 2012", "32/01/2012"])
def test_impossible_dates_raise_with_reason(bad):
    with pytest.raises(ValueError):
        parse_partial_date(bad)


def test_first_day_of_month():
    assert parse_partial_date("2012-05").date == dt.date(2012, 5, 1)


@pytest.mark.parametrize(("text", "iso", "precision"), [
    ("آذار 2012", "2012-03", "month"), ("14 آذار 2012", "2012-03-14", "day"), ("اذار 2012", "2012-03", "month"),
    ("تشرين الأول ٢٠١٣", "2013-10", "month"), ("كانون الثاني 2014", "2014-01", "month"),
    ("أيار، 2011", "2011-05", "month"), ("March 2012", "2012-03", "month"), ("5 mars 2013", "2013-03-05", "day"),
    ("Sept. 2014", "2014-09", "month"), ("مارس 2012", "2012-03", "month"),
])
def test_months_by_name(text: str, iso: str, precision: str) -> None:
    date = parse_partial_date(text)
    assert date is not None and (date.iso(), date.precision) == (iso, precision)


@pytest.mark.parametrize("text", ["ربيع 2012", "spring 2012", "31 شباط 2012"])
def test_what_is_not_a_date_by_name(text: str) -> None:
    with pytest.raises(ValueError):
        parse_partial_date(text)


@pytest.mark.parametrize(("text", "iso"), [
    ("October 13, 2014", "2014-10-13"), ("Oct 13 2014", "2014-10-13"), ("2014.10.13", "2014-10-13"),
    ("10/13/2014", "2014-10-13"),  # month first (US): the second number cannot be a month
    ("13/10/2014", "2014-10-13"), ("10/11/2014", "2014-11-10"),  # day first when both could be months
])
def test_more_ways_of_writing_one_day(text: str, iso: str) -> None:
    date = parse_partial_date(text)
    assert date is not None and (date.iso(), date.precision) == (iso, "day")
