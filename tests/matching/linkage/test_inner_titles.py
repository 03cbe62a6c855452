"""الحاج / شيخ inside a name: the first word of a family name (الحاج علي) or the father's title, never
a name of its own (prepare.without_inner_titles). Real strings: Syrian family names Hajj Ali, Hajj
Hussein, Sheikh Mousa, written in both scripts, with and without the father's name."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import link_reports
from athar.matching.linkage.prepare import prepare_reports


def _parts(**fields: str) -> dict[str, str | None]:
    row = prepare_reports(pd.DataFrame([{"unique_id": "1", **fields}])).iloc[0]
    return {part: row[f"{part}_id"] for part in ("first", "father", "grandfather", "family")}


@pytest.mark.parametrize("full, father, family", [
    ("محمد الحاج علي", None, "ali"),               # the family Hajj Ali, no father written
    ("محمد أحمد الحاج علي", "ahmad", "ali"),
    ("محمد احمد حاج علي", "ahmad", "ali"),
    ("Mohammad Ahmad Al-Hajj Ali", "ahmad", "ali"),
    ("Mohammad Alhaj Ali", None, "ali"),
    ("Mohamed El Hadj Ali", None, "ali"),
    ("محمد شيخ موسى", None, "musa"),
    ("Mohammad Ahmad Cheikh Moussa", "ahmad", "musa"),
    ("محمد الحاج أحمد الخطيب", "ahmad", "khatib"),    # son of Hajj Ahmad, of the family al-Khatib
])
def test_hajj_or_sheikh_before_a_name_is_not_the_fathers_name(full: str, father: str | None, family: str) -> None:
    parts = _parts(full_name=full)
    assert parts["first"] == "muhammad"
    assert parts["father"] == father
    assert parts["family"] == family


def test_hajj_typed_short_is_hajj() -> None:
    """حج for حاج ("حج حسين", a family name a roster writes first: field lists, twenty-third session)."""
    assert _parts(full_name="عبد الرزاق احمد حج حسين") == {"first": "abd al-razzaq", "father": "ahmad",
                                                          "grandfather": None, "family": "husayn"}


def test_the_family_al_hajj_itself_stays_a_name() -> None:
    assert _parts(full_name="محمد أحمد الحاج")["family"] == "hajj"
    assert _parts(family_name="الحاج", first_name="محمد")["family"] == "hajj"


def test_a_family_field_written_with_hajj_meets_the_full_name() -> None:
    assert _parts(first_name="محمد", father_name="أحمد", family_name="الحاج علي")["family"] == "ali"
    assert _parts(first_name="محمد", father_name="الحاج أحمد", family_name="الخطيب")["father"] == "ahmad"


def test_one_man_written_with_and_without_his_fathers_name_is_one_person_and_his_brother_another() -> None:
    common = {"city": "معرة النعمان", "governorate": "إدلب", "arrest_date": "2012-08-14"}
    reports = pd.DataFrame([
        {"unique_id": "a", "full_name": "محمد الحاج علي", **common},
        {"unique_id": "b", "full_name": "محمد أحمد الحاج علي", "birth_year": "1984", **common},
        {"unique_id": "c", "full_name": "Mohammad Ahmad Al-Hajj Ali", "birth_year": "1984", **common},
        {"unique_id": "d", "full_name": "خالد أحمد الحاج علي", "birth_year": "1988", **common},
        {"unique_id": "e", "full_name": "عمر سليم الشيخ", "city": "حماة", "arrest_date": "2013-01-02"},
        {"unique_id": "f", "full_name": "Yasser Hamdan", "city": "دوما", "arrest_date": "2014-05-20"},
    ])
    result = link_reports(reports)
    cluster = dict(zip(reports["unique_id"], result.cluster_ids(reports["unique_id"])))
    assert cluster["a"] == cluster["b"] == cluster["c"]
    assert cluster["d"] != cluster["b"]


def test_hajj_ali_written_first_gets_the_family_name_first_reading() -> None:
    """"حاج علي باسل محمد" (a list writing the family name Hajj Ali first, without the article the
    written-forms rules take off as a title) is read without حاج, its order's votes and second
    reading included: the family-name-first reading finds Basil son of Muhammad of the family Ali,
    as the family's own report writes him."""
    from athar.matching.linkage.readings import SHADOW, with_readings

    rows = [{"unique_id": "a", "full_name": "حاج علي باسل محمد"},
            *({"unique_id": f"h{i}", "first_name": g, "father_name": "محمد", "family_name": "الحاج علي"}
              for i, g in enumerate(["باسل", "خالد", "عمر"])),
            *({"unique_id": f"g{i}", "first_name": "علي", "father_name": f, "family_name": "النجار"}
              for i, f in enumerate(["سامر", "ماهر"]))]
    table = prepare_reports(pd.DataFrame(rows))
    readings = with_readings(table).set_index("unique_id")
    read = {(readings.loc[key, "first_id"], readings.loc[key, "father_id"], readings.loc[key, "family_id"])
            for key in ("a", "a" + SHADOW) if key in readings.index}
    assert ("basil", "muhammad", "ali") in read
    assert not any("hajj" in str(part) for reading in read for part in reading)
