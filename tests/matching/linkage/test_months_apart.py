"""Issue 28, thirteenth session: two arrest dates of one year whose months are both given and three
or more apart are weighed as their own level (link.weigh_months_apart), not as a year given alone."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import link_reports
from athar.matching.linkage.constraints import facts_of
from athar.matching.linkage.link import MONTHS_APART, MONTHS_APART_BITS, weigh_months_apart
from athar.matching.linkage.prepare import prepare_reports
from tests.matching.linkage.test_readings import default_background


def _facts(*dates: str) -> dict:
    return facts_of(prepare_reports(pd.DataFrame([{"unique_id": str(i), "full_name": "ياسر العظم", "arrest_date": d}
                                                  for i, d in enumerate(dates)])))


def _pairs(n: int) -> pd.DataFrame:
    return pd.DataFrame({"unique_id_l": ["0"] * n, "unique_id_r": [str(i + 1) for i in range(n)],
                         "level_arrest_date": ["same year"] * n, "mw_arrest_date": [1.5] * n,
                         "match_weight": [5.0] * n, "match_probability": [1 / (1 + 2 ** -5.0)] * n})


@pytest.mark.parametrize(("other", "apart"), [
    ("2012-09", True),  # three months before December
    ("2012-10", False),  # two months: the model's own "within two months" level (here: left as it is)
    ("2012", False),  # a year given alone
])
def test_which_dates_of_one_year_weigh_as_months_apart(other: str, apart: bool) -> None:
    out = weigh_months_apart(_pairs(1), _facts("2012-12-06", other))
    assert (out.at[0, "level_arrest_date"] == MONTHS_APART) is apart
    assert out.at[0, "match_weight"] == pytest.approx(5.0 + (MONTHS_APART_BITS if apart else 0.0))
    assert out.at[0, "mw_arrest_date"] == pytest.approx(1.5 + (MONTHS_APART_BITS if apart else 0.0))


def test_namesakes_of_one_town_arrested_a_season_apart_are_offered_for_review_not_linked() -> None:
    """Issue 28's fresh set: "ياسر شادي العظم", born 1990, arrested 6 December 2012 in Hama, and "ياسر
    العظم", born 1987, arrested in September 2012 in Hama — two men — were one person at 0.94; a
    short report with the year alone is still linked."""
    reports = pd.DataFrame([
        {"unique_id": "shadi", "first_name": "ياسر", "father_name": "شادي", "family_name": "العظم", "city": "حماة",
         "arrest_date": "2012-12-06", "birth_year": "1990", "sex": "M"},
        {"unique_id": "other", "full_name": "ياسر العظم", "city": "حماة", "arrest_date": "2012-09", "birth_year": "1987",
         "sex": "M"},
        {"unique_id": "year", "full_name": "ياسر العظم", "city": "حماة", "arrest_date": "2012", "sex": "M"}])
    df = pd.concat([pd.DataFrame(default_background()), reports], ignore_index=True).fillna("")
    pairs = link_reports(df, explain=True).pairs.set_index(["unique_id_l", "unique_id_r"])
    apart = pairs.loc[("other", "shadi")]
    assert f"arrest date: {MONTHS_APART} (" in apart["explanation"]
    assert apart["status"] != "linked"
    assert "arrest date: same year (" in pairs.loc[("shadi", "year")]["explanation"]
