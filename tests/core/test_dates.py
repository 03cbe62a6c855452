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
