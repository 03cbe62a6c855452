"""Issue 28, twentieth session: an age with no arrest year to count it from still says roughly when
the man was born; two reports whose ages (or an age and a birth year) say births further apart than
the birth-year gap plus the age's slack are two people."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import prepare_reports
from athar.matching.linkage.constraints import facts_of, incompatibility
from athar.matching.linkage.prepare import AGE_REFERENCE_YEAR, birth_year_from_age


def _why(one: dict, other: dict) -> str | None:
    facts = facts_of(prepare_reports(pd.DataFrame([{"unique_id": "1", **one}, {"unique_id": "2", **other}])))
    return incompatibility(facts["1"], facts["2"])


def test_an_age_without_a_year_gives_a_birth_year_about() -> None:
    assert birth_year_from_age("عمره 27") == AGE_REFERENCE_YEAR - 27
    assert birth_year_from_age("1985") is None and birth_year_from_age("") is None


@pytest.mark.parametrize(("one", "other", "apart"), [
    # field_lists: two women of one name and town, a list without dates
    ({"full_name": "فاطمه البيطار", "birth_year": "العمر 25", "city": "يبرود"},
     {"full_name": "فاطمه البيطار", "birth_year": "عمره 38", "city": "يبرود"}, True),
    ({"full_name": "محمد ابراهيم", "birth_year": "عمره 35", "city": "طفس"},
     {"full_name": "محمد أحمد إبراهيم", "birth_year": "1997", "city": "طفس", "arrest_date": "2011-10-19"}, True),
    # within the slack: not a contradiction (the age may be counted from another year)
    ({"full_name": "محمود العمر", "birth_year": "33", "city": "ادلب"},
     {"full_name": "محمود محمد العمر", "birth_year": "1986", "city": "إدلب"}, False),
    # an age with an arrest year is a birth year, as before
    ({"full_name": "فاطمه البيطار", "birth_year": "العمر 25", "arrest_date": "2013"},
     {"full_name": "فاطمه البيطار", "birth_year": "1988"}, False),
])
def test_ages_that_say_births_far_apart(one: dict, other: dict, apart: bool) -> None:
    why = _why(one, other)
    assert (why is not None and "apart" in why) is apart
