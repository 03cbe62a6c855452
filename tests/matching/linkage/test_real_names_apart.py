"""Two real given names in Arabic letters are two names (constraints._two_real_names_in_letters; issue
28, twenty-ninth session). The cross-script key drops ح's h, ع and the vowels, so سامي and سامح are
both "sm" and علاء and علي both "l", and the letters without dots make ربا and رنا one: brothers (or
sisters) arrested together, with one father, one mother and one town, were one person (6 of 29 pairs
of common Syrian men's names before the rule). A long vowel added or dropped, or two neighbours
swapped (عمر / عامر, هشام / هاشم), is also how a copy of one name slips, so those pairs are left to
the slip rules; so is a copy whose letters are none of the table's spellings."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import link_reports
from athar.matching.linkage.constraints import NameKey, names_agree
from athar.matching.linkage.prepare import prepare_reports

BROTHERS = [("سامي", "سامح"), ("علاء", "علي"), ("نائل", "وائل"), ("حسان", "حسين"), ("باسل", "باسم"),
            ("حاتم", "حازم"), ("زاهر", "طاهر"), ("رائد", "راشد"), ("ناصر", "نادر"), ("مهدي", "مجدي"),
            ("علاء", "لؤي"), ("ضياء", "عدي"), ("فؤاد", "فواز"), ("حسام", "حسان"),
            # one letter's dots apart, or a dot and a vowel: the letters without dots are one (تامر / ثامر)
            ("تامر", "ثامر"), ("فيصل", "فضل"), ("بدر", "نادر")]
SISTERS = [("ربا", "رنا"), ("بشرى", "يسرى")]


def _given(name: str) -> NameKey:
    row = prepare_reports(pd.DataFrame([{"unique_id": "1", "first_name": name, "family_name": "x"}])).iloc[0]
    return NameKey(row["first_id"], row["first_blk"] or "", row["first_cblk"] or "", row["first_skel"] or "",
                   bool(row["first_known"]), row.get("first_rasm") or "")


@pytest.mark.parametrize(("a", "b"), BROTHERS)
def test_two_real_names_do_not_agree(a: str, b: str) -> None:
    assert not names_agree(_given(a), _given(b))


@pytest.mark.parametrize(("a", "b"), SISTERS)
def test_two_real_womens_names_do_not_agree(a: str, b: str) -> None:
    assert not names_agree(_given(a), _given(b))


# a copy whose letters are none of the table's spellings though its id is a name's is a slip: اسمة (for
# أسامة) has أسماء's id, ناضر (ناصر with a dot) نادر's
@pytest.mark.parametrize(("a", "b"), [("عمر", "عامر"), ("هشام", "هاشم"), ("أنس", "أنيس"), ("محمد", "محمد"),
                                      ("اسمة", "أسامة"), ("ناضر", "ناصر")])
def test_a_vowel_or_a_swap_is_left_to_the_slip_rules(a: str, b: str) -> None:
    assert names_agree(_given(a), _given(b))


def test_brothers_arrested_together_stay_two_people() -> None:
    rows = []
    for k, (x, y) in enumerate(BROTHERS):
        for j, name in enumerate((x, y)):
            rows.append({"unique_id": f"{k}-{j}", "first_name": name, "father_name": ["محمد", "أحمد", "خالد"][k % 3],
                         "family_name": ["الحلبي", "النجار", "الخطيب", "العلي", "الشامي"][k % 5],
                         "mother_name": ["فاطمة", "خديجة", "سعاد"][k % 3], "sex": "ذكر",
                         "birth_year": str(1980 + 2 * j + k % 7), "city": ["دوما", "حمص", "داريا"][k % 3],
                         "arrest_date": f"2012-0{1 + k % 9}-1{k % 10}"})
    # and each brother's own second report, a slip in his father's name: still linked to him
    rows.append({**rows[0], "unique_id": "0-0b", "father_name": "ممد"})
    reports = pd.DataFrame(rows)
    clusters = dict(zip(reports["unique_id"], link_reports(reports).cluster_ids(reports["unique_id"])))
    merged = [pair for k, pair in enumerate(BROTHERS) if clusters[f"{k}-0"] == clusters[f"{k}-1"]]
    assert merged == []
    assert clusters["0-0"] == clusters["0-0b"]


def test_across_scripts_a_brothers_name_is_not_his_brothers() -> None:
    """Sameh / سامي, Alaa / علي, Diaa / عدي: one key ("sm", "l", "d") once the table knows neither
    name; the table now holds سامح, علاء, ضياء, عدي, قصي, نائل, معن, بهاء with their Latin spellings."""
    brothers = [("Sameh", "سامي"), ("Alaa", "علي"), ("Diaa", "عدي"), ("Oday", "ضياء"), ("Nael", "وائل")]
    same = [("Sameh", "سامح"), ("Alaa", "علاء"), ("Qusai", "قصي"), ("Maan", "معن"), ("Bahaa", "بهاء")]
    rows = []
    for tag, pairs in (("b", brothers), ("s", same)):
        for k, (latin, arabic) in enumerate(pairs):
            year = 1980 + k
            rows.append({"unique_id": f"{tag}{k}-0", "first_name": latin, "father_name": "Mohammad",
                         "family_name": "Najjar", "sex": "M", "birth_year": str(year), "city": "Douma",
                         "arrest_date": f"2012-0{k + 1}-11"})
            rows.append({"unique_id": f"{tag}{k}-1", "first_name": arabic, "father_name": "محمد",
                         "family_name": "النجار", "sex": "ذكر", "birth_year": str(year + (2 if tag == "b" else 0)),
                         "city": "دوما", "arrest_date": f"2012-0{k + 1}-11"})
    reports = pd.DataFrame(rows)
    clusters = dict(zip(reports["unique_id"], link_reports(reports).cluster_ids(reports["unique_id"])))
    assert [p for k, p in enumerate(brothers) if clusters[f"b{k}-0"] == clusters[f"b{k}-1"]] == []
    assert [p for k, p in enumerate(same) if clusters[f"s{k}-0"] != clusters[f"s{k}-1"]] == []
