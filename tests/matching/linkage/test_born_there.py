"""A birth place that is the other report's town counts for the pair, never against it (link.born_there;
issue 28, nineteenth session). Rosters write where a man was born and no town, the families' lists his
town and no birth place: compared column by column the two had no place in common."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import link_reports
from athar.matching.linkage.constraints import ReportFacts
from athar.matching.linkage.link import BORN_THERE_BITS, BORN_THERE_NOTE, born_there, one_place

OTHERS = [{"unique_id": f"x{i}", "full_name": name, "city": "دمشق"}
          for i, name in enumerate(["خالد محمد العلي", "سامر أحمد الحسن", "رامي علي الخطيب", "عمر حسن الشامي",
                                    "ماهر يوسف الأحمد", "باسل خليل النجار", "وائل سعيد المصري", "فادي نزار الحلبي"])]


def _pair(roster_birth_place: str) -> pd.Series:
    reports = pd.DataFrame([
        {"unique_id": "roster", "full_name": "البكور حسن بن محمد", "birth_place": roster_birth_place,
         "birth_year": "1991", "mother_name": "فاطمة"},
        {"unique_id": "list", "full_name": "حسن البكور", "city": "بابا عمرو", "arrest_date": "2014-04"},
        *OTHERS,
    ])
    result = link_reports(reports, explain=True, review_band=(0.01, 0.9))
    pairs = result.pairs
    return pairs[(pairs.unique_id_l == "list") & (pairs.unique_id_r == "roster")].iloc[0]


def test_a_birth_place_that_is_the_other_reports_town_counts_for_the_pair() -> None:
    there, elsewhere = _pair("بابا عمرو"), _pair("تلبيسة")
    assert BORN_THERE_NOTE in there["explanation"]
    assert there["match_weight"] == pytest.approx(elsewhere["match_weight"] + BORN_THERE_BITS, abs=0.01)


def test_a_birth_place_elsewhere_is_no_contradiction() -> None:
    elsewhere = _pair("تلبيسة")
    assert BORN_THERE_NOTE not in elsewhere["explanation"]
    assert "different" not in elsewhere["explanation"]  # no "town: different", no "birth place: different"
    assert elsewhere["place_adjust"] == 0


def test_it_counts_once_with_the_places_that_agree() -> None:
    facts = {"a": ReportFacts((None, None, None), None, None, city="baba amr", birth_town="baba amr"),
             "b": ReportFacts((None, None, None), None, None, city="baba amr"),
             "c": ReportFacts((None, None, None), None, None, birth_town="baba amr")}
    assert born_there(pd.DataFrame({"unique_id_l": ["a", "b~c"], "unique_id_r": ["b", "c"]}), facts).tolist() \
        == [BORN_THERE_BITS, BORN_THERE_BITS]
    pairs = pd.DataFrame({"unique_id_l": ["a", "b"], "unique_id_r": ["b", "c"],
                          "mw_city_key": [6.1, float("nan")], "mw_governorate_id": [3.2, float("nan")],
                          "mw_birth_place_key": [float("nan"), float("nan")],
                          "match_weight": [10.0, 10.0], "match_probability": [0.999, 0.999]})
    out = one_place(pairs, facts)
    # a-b: the town agrees (+6.1) and counts once, the birth place adds nothing; b-c: +4 bits
    assert out["place_adjust"].tolist() == pytest.approx([-3.2, BORN_THERE_BITS])
    assert out["born_there"].tolist() == [False, True]
