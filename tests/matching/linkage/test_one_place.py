"""A pair's places (town, governorate, birth place) count once each way (issue 28, eighth session)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from athar.matching.linkage import link_reports
from athar.matching.linkage.link import PLACE_NOTE, one_place


def test_the_places_most_negative_and_most_positive_weights_count() -> None:
    pairs = pd.DataFrame({"unique_id_l": ["a", "b"], "unique_id_r": ["c", "d"],
                          "mw_city_key": [-5.1, 5.0], "mw_tf_adj_city_key": [0.0, 1.0],
                          "mw_governorate_id": [-5.5, 3.2], "mw_birth_place_key": [float("nan"), -5.6],
                          "match_weight": [10.0, 10.0], "match_probability": [0.999, 0.999]})
    out = one_place(pairs.copy())
    # a: two disagreements, the stronger stays (−5.5): +5.1; b: one of each, the agreements (6.0 and
    # 3.2) count once: −3.2, the disagreement stays
    assert out["place_adjust"].tolist() == pytest.approx([5.1, -3.2])
    assert out["match_weight"].tolist() == pytest.approx([15.1, 6.8])
    assert out["match_probability"].tolist() == pytest.approx([1 / (1 + 2 ** -15.1), 1 / (1 + 2 ** -6.8)])


def test_a_displaced_man_is_not_counted_twice_against_his_name_and_arrest_date() -> None:
    reports = pd.DataFrame([
        {"unique_id": "1", "full_name": "يوسف غازي الحموي", "city": "تلبيسة", "governorate": "حمص",
         "arrest_date": "2015-12-09", "sex": "M"},
        {"unique_id": "2", "full_name": "يوسف غازي الحموي", "city": "ادلب", "governorate": "إدلب",
         "arrest_date": "2015-12-09", "sex": "M"},
        *({"unique_id": f"x{i}", "full_name": name, "city": "دمشق", "governorate": "دمشق"}
          for i, name in enumerate(["خالد محمد العلي", "سامر أحمد الحسن", "رامي علي الخطيب", "عمر حسن الشامي",
                                    "ماهر يوسف الأحمد", "باسل خليل النجار"])),
    ])
    result = link_reports(reports, explain=True)
    pair = result.pairs[(result.pairs.unique_id_l == "1") & (result.pairs.unique_id_r == "2")].iloc[0]
    assert pair["place_adjust"] > 0 and PLACE_NOTE in pair["explanation"]
    cities = [float(pair[f"mw_{c}"]) for c in ("city_key", "governorate_id")]
    assert all(w < 0 for w in cities)
    assert pair["place_adjust"] == pytest.approx(-max(cities), abs=1e-9)
    assert math.isfinite(pair["match_probability"])
