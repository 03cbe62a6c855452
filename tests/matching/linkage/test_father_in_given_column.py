"""The given-name column holding the father's name too, the father's column empty ("Mahmoud Dib",
"ABD EL KARIM MAMDOUH", "محمود ديب"): a clerk who reads "first name" as every name before the family
name (prepare.given_and_father). Found by field_lists.py, a generator written from a fresh description:
such reports were never compared with the same man's other reports."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import link_reports
from athar.matching.linkage.prepare import given_and_father, prepare_reports


def _parts(**fields: str) -> dict[str, str | None]:
    row = prepare_reports(pd.DataFrame([{"unique_id": "1", **fields}])).iloc[0]
    return {part: row[f"{part}_id"] for part in ("first", "father", "grandfather", "family")}


@pytest.mark.parametrize("first, given, father, grandfather", [
    ("Mahmoud Dib", "mahmud", "dib", None),
    ("ABD EL KARIM AHMAD", "abd al-karim", "ahmad", None),   # a compound given name stays one name
    ("محمود ديب", "mahmud", "dib", None),
    ("عبد الرحمن مصطفى", "abd al-rahman", "mustafa", None),
    ("Rana Ali Hasan", "rana", "ali", "hasan"),
    ("MOHAMED MOHAMED", "muhammad", "muhammad", None),
])
def test_the_fathers_name_in_the_given_name_column_is_read_as_the_fathers(
        first: str, given: str, father: str, grandfather: str | None) -> None:
    parts = _parts(first_name=first, family_name="Hariri")
    assert (parts["first"], parts["father"], parts["grandfather"]) == (given, father, grandfather)


def test_a_column_of_its_own_is_never_overridden() -> None:
    assert given_and_father("Mahmoud Dib", "Ahmad", "") == ("Mahmoud Dib", "Ahmad", "", False)
    assert given_and_father("Rana Ali Hasan", "", "Omar") == ("Rana Ali Hasan", "", "Omar", False)
    assert given_and_father("Hamza", "", "") == ("Hamza", "", "", False)


def test_muhammad_x_is_read_as_muhammad_son_of_x_with_the_compound_as_second_reading() -> None:
    """"Mhd. Abdo" in the given-name column: Muhammad son of Abdo (as another list writes him, in two
    columns), or the compound "Muhammad Abdo" called Abdo (readings.py decides per pair)."""
    assert given_and_father("محمد خير", "", "") == ("محمد", "خير", "", True)
    reports = pd.DataFrame([
        {"unique_id": "a", "first_name": "Mhd. Abdo", "family_name": "Alsayasneh", "mother_name": "Samira",
         "birth_year": "1974", "city": "Daraa al-Balad", "arrest_date": "13 Mar 2013"},
        {"unique_id": "b", "first_name": "Mohammad", "father_name": "Abdo", "family_name": "Al Sayasneh",
         "mother_name": "Samira", "birth_year": "1974", "city": "Daraa al-Balad", "arrest_date": "2013-03-13"},
        {"unique_id": "c", "first_name": "Abdo", "family_name": "Sayasneh", "birth_year": "1974",
         "city": "Daraa al-Balad", "arrest_date": "2013-03"},
        {"unique_id": "d", "full_name": "Yasser Hamdan", "city": "Douma", "arrest_date": "2014-05-20"},
    ])
    result = link_reports(reports)
    cluster = dict(zip(reports["unique_id"], result.cluster_ids(reports["unique_id"])))
    assert cluster["a"] == cluster["b"]  # Muhammad son of Abdo, as the other list writes him
    pair = result.pairs[(result.pairs["unique_id_l"] == "a") & (result.pairs["unique_id_r"] == "c")]
    assert len(pair) and "second reading" in str(pair["explanation"].iloc[0])  # or called Abdo: weighed


def test_a_tracing_request_with_the_father_in_the_given_name_meets_the_familys_report() -> None:
    reports = pd.DataFrame([
        {"unique_id": "a", "first_name": "Mahmoud Dib", "family_name": "Hariri", "mother_name": "Fatima Ali",
         "sex": "M", "birth_year": "1983", "governorate": "Hama", "city": "Morek", "arrest_date": "2014"},
        {"unique_id": "b", "full_name": "محمود ديب الحريري", "mother_name": "فاطمة العلي", "sex": "ذكر",
         "birth_year": "1983", "governorate": "حماة", "city": "مورك", "arrest_date": "2011-08-22"},
        {"unique_id": "c", "first_name": "Khaled Dib", "family_name": "Hariri", "mother_name": "Fatima Ali",
         "sex": "M", "birth_year": "1987", "governorate": "Hama", "city": "Morek", "arrest_date": "2014"},
    ])
    result = link_reports(reports)
    cluster = dict(zip(reports["unique_id"], result.cluster_ids(reports["unique_id"])))
    assert cluster["a"] == cluster["b"]
    assert cluster["c"] != cluster["a"]  # his brother: another given name, the same father and mother


def test_muhammad_x_and_the_fathers_name_in_the_given_name_column_has_the_compound_as_second_reading() -> None:
    """"Muhammad Said Mahmoud" in the given-name column (twenty-seventh session, field_lists.py): Muhammad
    son of Said son of Mahmoud, or the compound "Muhammad Said" son of Mahmoud — as the family's report
    writes him, "محمد سعيد" son of محمود. Read one way only, the two were kept apart as given names that
    differ."""
    assert given_and_father("Muhammad Said Mahmoud", "", "") == ("muhammad", "said", "mahmoud", True)
    assert given_and_father("Ahmad Said Mahmoud", "", "") == ("ahmad", "said", "mahmoud", False)
    reports = pd.DataFrame([
        {"unique_id": "a", "first_name": "Muhammad Said Mahmoud", "family_name": "al-Hariri", "mother_name": "Halima",
         "sex": "M", "birth_year": "1977", "birth_place": "Inkhil", "governorate": "Dara'a", "city": "Nawa"},
        {"unique_id": "b", "first_name": "محمد سعيد", "father_name": "محمود", "family_name": "الحريري",
         "mother_name": "حليمة", "sex": "ذكر", "birth_year": "1977", "governorate": "درعا", "city": "نوى",
         "arrest_date": "5-8-2014"},
    ])
    result = link_reports(reports)
    cluster = dict(zip(reports["unique_id"], result.cluster_ids(reports["unique_id"])))
    assert cluster["a"] == cluster["b"]
