"""Facts in the reader's language: dates read as Syrian families write them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation
from django.utils.formats import date_format

from athar.core.labels import partial_date

LEVANTINE = ["كانون الثاني", "شباط", "آذار", "نيسان", "أيار", "حزيران", "تموز", "آب", "أيلول",
             "تشرين الأول", "تشرين الثاني", "كانون الأول"]


@pytest.mark.parametrize("month", range(1, 13))
def test_arabic_pages_name_months_the_syrian_way(month):
    day = dt.date(2012, month, 14)
    with translation.override("ar"):
        assert partial_date(day, "month") == f"{LEVANTINE[month - 1]} 2012"
        assert partial_date(day) == f"14 {LEVANTINE[month - 1]} 2012"
        assert date_format(day, "M Y") == f"{LEVANTINE[month - 1]} 2012"  # the statistics page


def test_march_and_august_are_not_the_egyptian_names():
    with translation.override("ar"):
        text = partial_date(dt.date(2012, 3, 1), "month") + partial_date(dt.date(2013, 8, 1), "month")
    assert "مارس" not in text and "أغسطس" not in text


def test_english_pages_keep_english_months():
    with translation.override("en"):
        assert partial_date(dt.date(2012, 3, 4)) == "4 March 2012"
