"""A governorate that is no town written where the town goes (ريف دمشق, "Rif Damas") says the
governorate only (prepare._region_named_as_town): it was a town "different" from the family's سقبا."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import link_reports
from athar.matching.linkage.prepare import prepare_reports


@pytest.mark.parametrize("written", ["ريف دمشق", "Rif Dimashq", "Rif Damas", "Damascus Countryside"])
def test_rif_dimashq_in_the_town_field_is_the_governorate(written: str) -> None:
    row = prepare_reports(pd.DataFrame([{"unique_id": "1", "full_name": "خالد محمد البدوي", "city": written}])).iloc[0]
    assert row["city_key"] is None
    assert row["governorate_id"] == "rif dimashq"


@pytest.mark.parametrize("town", ["دمشق", "حلب", "سقبا"])
def test_a_town_and_a_governorate_named_after_its_capital_stay_towns(town: str) -> None:
    row = prepare_reports(pd.DataFrame([{"unique_id": "1", "full_name": "خالد محمد البدوي", "city": town}])).iloc[0]
    assert row["city_key"] is not None


def test_one_man_written_in_his_town_and_in_his_governorate_is_one_person() -> None:
    reports = pd.DataFrame([
        {"unique_id": "a", "full_name": "خالد محمد البدوي", "city": "ريف دمشق", "governorate": "ريف دمشق",
         "arrest_date": "2014-08", "sex": "M"},
        {"unique_id": "b", "full_name": "خالد محمد البدوي", "city": "سقبا", "arrest_date": "2014-08-03"},
        {"unique_id": "c", "full_name": "Khaled Mohammad Badawi", "city": "Saqba", "arrest_date": "2014-08"},
        {"unique_id": "d", "full_name": "عمر سليم الشيخ", "city": "حماة", "arrest_date": "2013-01-02"},
        {"unique_id": "e", "full_name": "Yasser Hamdan", "city": "دوما", "arrest_date": "2012-05-20"},
    ])
    result = link_reports(reports, explain=True)
    cluster = dict(zip(reports["unique_id"], result.cluster_ids(reports["unique_id"])))
    assert cluster["a"] == cluster["b"]
    pairs = result.pairs
    pair = pairs[pairs["unique_id_l"].isin(["a", "b"]) & pairs["unique_id_r"].isin(["a", "b"])]
    assert "city: different" not in pair.iloc[0]["explanation"]
