"""A date written as a part of a year ("شتاء 2015", "أواخر 2012") gives the linkage its year
(prepare.parse_date, dates.read_part_of_year; issue 28, nineteenth session): an age written beside
it then gives a birth year, and two namesakes of one town are told apart by it (field_lists.py, a
generator written from a fresh description: "رنا الشيخ علي, عمره 53, شتاء 2015" was one person with
"رنا الشيخ علي, 1977")."""

from __future__ import annotations

import pandas as pd

from athar.matching.linkage import link_reports
from athar.matching.linkage.prepare import prepare_reports

OTHERS = [{"unique_id": f"x{i}", "full_name": name, "city": "دمشق", "birth_year": str(1960 + i)}
          for i, name in enumerate(["خالد محمد العلي", "سامر أحمد الحسن", "رامي علي الخطيب", "عمر حسن الشامي",
                                    "ماهر يوسف الأحمد", "باسل خليل النجار"])]


def _reports(arrest: str) -> pd.DataFrame:
    return pd.DataFrame([
        {"unique_id": "a", "full_name": "رنا الشيخ علي", "birth_year": "عمره 53", "city": "سراقب", "arrest_date": arrest},
        {"unique_id": "b", "full_name": "رنا الشيخ علي", "birth_year": "1977", "city": "سراقب"},
        *OTHERS,
    ])


def test_an_age_beside_a_season_gives_a_birth_year() -> None:
    prepared = prepare_reports(_reports("شتاء 2015")).set_index("unique_id")
    assert prepared.loc["a", "birth_year"] == 1962 and prepared.loc["a", "arrest_year"] == 2015
    assert pd.isna(prepared.loc["a", "arrest_ym"])


def test_namesakes_fifteen_years_apart_are_not_one_person() -> None:
    reports = _reports("شتاء 2015")
    result = link_reports(reports)
    clusters = dict(zip(reports["unique_id"], result.cluster_ids(reports["unique_id"])))
    assert clusters["a"] != clusters["b"]


def test_a_witness_season_is_no_arrest_year_held_against_a_person() -> None:
    """Two testimonies "late 2014" (when the witness saw him) against two family reports of an arrest
    in October 2013: the model weighs the years, the constraints do not part the man on them."""
    reports = pd.DataFrame([
        {"unique_id": "w1", "full_name": "فادي خليل البكور", "city": "القصير", "arrest_date": "أواخر 2014"},
        {"unique_id": "w2", "full_name": "فادي خليل البكور", "city": "القصير", "arrest_date": "بعد رمضان 2014"},
        {"unique_id": "f1", "full_name": "فادي خليل البكور", "city": "القصير", "arrest_date": "2013-10-07",
         "birth_year": "1976", "mother_name": "فاطمة"},
        {"unique_id": "f2", "full_name": "Fadi Khalil Al-Bakour", "city": "al-Qusayr", "arrest_date": "10/2013",
         "birth_year": "1976"},
        *OTHERS,
    ])
    result = link_reports(reports)
    clusters = dict(zip(reports["unique_id"], result.cluster_ids(reports["unique_id"])))
    assert clusters["w1"] == clusters["w2"] == clusters["f1"] == clusters["f2"]
