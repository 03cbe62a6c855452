"""Issue 28, fifth session: a second reading of "Muhammad X" names, dotted twins across scripts,
feminine forms of one given name, and fuzzy name levels never above agreement."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import default_model, link_reports, prepare_reports
from athar.matching.linkage.constraints import Constraints, facts_of, incompatibility
from athar.matching.linkage.model import CROSS_SCRIPT_SHARE, effective_parameters
from athar.matching.linkage.readings import (
    READING_BITS,
    READING_NOTE,
    SHADOW,
    TWO_READINGS_CAP,
    TWO_READINGS_NOTE,
    penalise,
    with_readings,
)
from athar.matching.linkage.settings import SAME_CONSONANTS


def _table(*names: str, **facts: str) -> pd.DataFrame:
    return prepare_reports(pd.DataFrame([{"unique_id": str(i), "full_name": n, **facts} for i, n in enumerate(names)]))


def _why(one: dict, other: dict) -> str | None:
    facts = facts_of(prepare_reports(pd.DataFrame([{"unique_id": "1", **one}, {"unique_id": "2", **other}])))
    return incompatibility(facts["1"], facts["2"])


@pytest.mark.parametrize(
    ("name", "compound"),
    [
        ("محمد عمار الساعاتي", 1),  # Muhammad son of Ammar, or Ammar called by his compound name
        ("SAATI, Mohammad Ammar", 1),  # the family name first, with a comma
        ("Mhd Amer Alchwiki", 1),  # the abbreviation of Muhammad
        ("محمد الساعاتي", 0),  # no second given name
        ("عمار محمد الساعاتي", 0),  # Muhammad is the father
    ],
)
def test_which_names_get_a_second_reading(name: str, compound: int) -> None:
    assert _table(name)["second_reading"].tolist() == [compound]


def test_a_name_in_its_own_columns_gets_no_second_reading() -> None:
    table = prepare_reports(
        pd.DataFrame([{"unique_id": "1", "first_name": "محمد", "father_name": "عمار", "family_name": "الساعاتي"}])
    )
    assert table["second_reading"].tolist() == [0]
    assert len(with_readings(table)) == 1


def test_the_second_reading_shifts_the_given_names() -> None:
    table = with_readings(_table("محمد عمار خالد الساعاتي"))
    shadow = table[table["unique_id"] == "0" + SHADOW].iloc[0]
    assert (shadow["first_id"], shadow["father_id"], shadow["grandfather_id"]) == ("ammar", "khalid", None)
    assert shadow["family_id"] == table.iloc[0]["family_id"]


def test_muhammad_x_is_linked_to_x_with_the_reading_explained() -> None:
    facts = {"birth_year": "1967", "city": "دمشق"}
    df = pd.DataFrame(
        [
            {"unique_id": "a", "full_name": "محمد عمار الساعاتي", **facts},
            {"unique_id": "b", "full_name": "Ammar Saati", **facts},
        ]
    )
    result = link_reports(df, explain=True)
    assert len(set(result.cluster_ids(["a", "b"]))) == 1
    pair = result.pairs.iloc[0]
    assert (pair["unique_id_l"], pair["unique_id_r"]) == ("a", "b")
    assert READING_NOTE in pair["explanation"]


def test_brothers_and_a_father_stay_apart_under_either_reading() -> None:
    df = pd.DataFrame(
        [
            {"unique_id": "son", "full_name": "محمد عمار الساعاتي", "birth_year": "1990", "city": "دمشق"},
            {"unique_id": "brother", "full_name": "خالد عمار الساعاتي", "birth_year": "1992", "city": "دمشق"},
            {"unique_id": "father", "full_name": "عمار حسن الساعاتي", "birth_year": "1960", "city": "دمشق"},
        ]
    )
    result = link_reports(df, explain=False)
    assert len(set(result.cluster_ids(["son", "brother", "father"]))) == 3


def test_constraints_accept_a_pair_when_one_reading_of_each_agrees() -> None:
    constraints = Constraints(with_readings(_table("محمد عمار الساعاتي", "عمار الساعاتي", "خالد الساعاتي")))
    assert constraints.conflict(["0"], ["1"]) is None
    assert constraints.conflict(["0"], ["2"]) is not None


@pytest.mark.parametrize(
    ("one", "other", "apart"),
    [
        ("دلال خويلد الطويل", "Sali Khaled Tawil", True),  # د and س: no dotted twins
        ("قهد حسن الخطيب", "Fahd Hasan Khatib", False),  # ق misread for ف, against its Latin spelling
        ("Dalal Hasan Tawil", "Sali Hasan Tawil", True),  # two Latin spellings: no dot to misread
    ],
)
def test_dotted_twins_across_scripts(one: str, other: str, apart: bool) -> None:
    assert (_why({"full_name": one}, {"full_name": other}) is not None) is apart


@pytest.mark.parametrize(
    ("one", "other", "apart"),
    [
        ("خيري رضا الصالح", "خيرية رضا الصالح", True),  # a brother and a sister: one id, "khiri"
        ("جميل سامي الحلبي", "جميلة سامي الحلبي", True),
        ("خيري رضا الصالح", "خيري رضا الصالح", False),
    ],
)
def test_a_feminine_form_is_another_given_name(one: str, other: str, apart: bool) -> None:
    assert (_why({"full_name": one}, {"full_name": other}) is not None) is apart


def test_a_fuzzy_name_level_never_weighs_more_than_agreement() -> None:
    model = default_model()
    params = {c: {lab: dict(v) for lab, v in levels.items()} for c, levels in model.parameters.items()}
    levels = params["first_name"]
    levels["one consonant apart"]["u"] = _num(levels["one consonant apart"]["u"]) / 1000  # rare among strangers
    changed = type(model)(
        model.algorithm,
        model.version,
        model.probability_two_random_records_match,
        params,
        model.trained_on,
        model.splink_version,
        model.trained_rows,
    )
    effective = effective_parameters(changed)["first_name"]
    agree = _num(effective[SAME_CONSONANTS]["m"]) / _num(effective[SAME_CONSONANTS]["u"])
    for label in CROSS_SCRIPT_SHARE:
        if effective.get(label) and effective[label]["m"] and effective[label]["u"]:
            assert _num(effective[label]["m"]) / _num(effective[label]["u"]) <= agree * (1 + 1e-6)


def _num(value: float | None) -> float:
    assert value is not None
    return value


def test_a_dropped_final_letter_is_a_slip_not_a_masculine_form() -> None:
    assert _why({"full_name": "فاطمة سامي الحلبي"}, {"full_name": "فاطم سامي الحلبي"}) is None


@pytest.mark.parametrize(
    ("one", "other", "apart"),
    [
        ("Borhane Saleh Darwish", "Barhom Saleh Darwish", True),  # brhn / brhm: a consonant changed
        ("Khaled Saleh Kattan", "Khaled Saleh Qatan", False),  # q / k: one letter written two ways
        ("Yasser Saleh Darwish", "Yaser Saleh Darwich", False),
    ],
)
def test_a_consonant_changed_between_latin_spellings_is_another_name(one: str, other: str, apart: bool) -> None:
    assert (_why({"full_name": one}, {"full_name": other}) is not None) is apart


def _yaqub_table() -> pd.DataFrame:
    """Reports where يعقوب is both a given name and a family name, and عبد الحميد a given name."""
    facts = {"birth_year": "1975", "city": "القصير", "mother_name": "نادية النجار"}
    others = [
        "أحمد عبد الحميد الخطيب",
        "سامر عبد الحميد الحلبي",
        "عبد الحميد محمد النجار",
        "عبد الحميد علي السالم",
        "يعقوب حسن الحلبي",
        "خالد عبد الحميد العلي",
    ]
    rows = [
        {"unique_id": "a", "full_name": "يعقوب عبد الحميد يعقوب", **facts},
        {"unique_id": "b", "full_name": "يعقوب يعقوب عبد الحميد", **facts},
    ]
    rows += [{"unique_id": f"o{i}", "full_name": n, "birth_year": str(1960 + i)} for i, n in enumerate(others)]
    return pd.DataFrame(rows)


def test_a_family_name_that_is_also_a_given_name_written_first_gets_the_other_order() -> None:
    table = prepare_reports(_yaqub_table())
    assert table.set_index("unique_id").loc["b", "second_reading"] > 1
    shadow = with_readings(table).set_index("unique_id").loc["b" + SHADOW]
    assert (shadow["first_id"], shadow["father_id"], shadow["family_id"]) == ("yaqub", "abd al-hamid", "yaqub")
    result = link_reports(_yaqub_table(), explain=True)
    assert len(set(result.cluster_ids(["a", "b"]))) == 1
    pair = result.pairs[(result.pairs["unique_id_l"] == "a") & (result.pairs["unique_id_r"] == "b")].iloc[0]
    assert READING_NOTE in pair["explanation"]


def test_a_name_whose_first_word_is_no_family_name_gets_no_other_order() -> None:
    table = prepare_reports(_yaqub_table())
    assert table.set_index("unique_id").loc["o0", "second_reading"] == 0


def test_a_muhammad_compound_in_the_given_name_column_is_keyed_as_the_name_he_is_called_by() -> None:
    """(eleventh session) The family's form writes "محمد خير" in the given-name column, a list writes
    "محمد خير عرنوس" as one full name: the column was keyed "muhammad khayr", the full name read as
    Muhammad son of Khayr, or (second reading) as خير; the two never met."""
    table = prepare_reports(pd.DataFrame([
        {"unique_id": "form", "first_name": "محمد خير", "father_name": "عبد الناصر", "family_name": "عرنوس"},
        {"unique_id": "latin", "first_name": "Mhd Kheir", "family_name": "Arnous"},
        {"unique_id": "plain", "first_name": "خير", "family_name": "عرنوس"},
        {"unique_id": "muhammad", "first_name": "محمد", "family_name": "عرنوس"}]))
    first = dict(zip(table["unique_id"], table["first_blk"]))
    assert first["form"] == first["plain"] != first["muhammad"]
    # (eighteenth session) "Mhd Kheir" with the father's column empty is Muhammad son of Kheir as
    # written, and the compound called Kheir as its second reading (prepare.given_and_father)
    latin = with_readings(table).set_index("unique_id")
    assert latin.loc["latin", "first_blk"] == first["muhammad"]
    assert latin.loc["latin" + SHADOW, "first_blk"] == first["form"]
    background = pd.DataFrame(default_background())
    reports = pd.DataFrame([
        {"unique_id": "form", "first_name": "محمد خير", "father_name": "عبد الناصر", "family_name": "عرنوس",
         "city": "حماة", "birth_year": "1991", "arrest_date": "2013-03-13", "sex": "M"},
        {"unique_id": "list", "full_name": "محمد خير عرنوس", "city": "حماة", "birth_year": "1991",
         "arrest_date": "2013-03"}])
    result = link_reports(pd.concat([background, reports], ignore_index=True).fillna(""), explain=False)
    cluster = dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))
    assert cluster["form"] == cluster["list"]


def default_background() -> list[dict]:
    from athar.matching.linkage import generate_reports, template_to_linkage_input

    return template_to_linkage_input(generate_reports(600, seed=3)).to_dict("records")


def test_a_pair_met_only_by_reading_both_reports_otherwise_is_offered_for_review_not_linked() -> None:
    """(thirteenth session, fresh set seed 22) The brothers محمد رامي الأحمد (Muhammad son of Rami)
    and AHMAD RAMI AHMED (Ahmad son of Rami) met as "Rami al-Ahmad" twice — the first read "Muhammad
    Rami called Rami", the second read family name first — and were one person at 0.999. Two
    assumptions, one per report: 6 bits, and a reviewer decides."""
    reports = pd.DataFrame([
        {"unique_id": "muhammad", "full_name": "محمد رامي الأحمد", "city": "كفرنبل", "arrest_date": "2012-12",
         "sex": "M"},
        {"unique_id": "ahmad", "full_name": "AHMAD RAMI AHMED", "city": "Kafr Nabl", "arrest_date": "2012-12",
         "sex": "M", "mother_name": "Fatmeh Shehadeh"}])
    df = pd.concat([pd.DataFrame(default_background()), reports], ignore_index=True).fillna("")
    result = link_reports(df, explain=True)
    cluster = dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))
    assert cluster["muhammad"] != cluster["ahmad"]
    pairs = result.pairs
    pair = pairs[pairs["unique_id_l"].isin(["muhammad", "ahmad"]) & pairs["unique_id_r"].isin(["muhammad", "ahmad"])]
    assert len(pair) == 1
    assert pair.iloc[0]["match_probability"] == pytest.approx(TWO_READINGS_CAP)
    assert TWO_READINGS_NOTE in pair.iloc[0]["explanation"]


def test_each_shadow_side_of_a_pair_costs_its_reading() -> None:
    pairs = pd.DataFrame({"unique_id_l": ["a", "a" + SHADOW, "a" + SHADOW], "unique_id_r": ["b", "b", "b" + SHADOW],
                          "match_weight": [20.0, 20.0, 20.0], "match_probability": [1.0, 1.0, 1.0]})
    out = penalise(pairs)
    assert out["reading"].tolist() == ["", "second", "two"]
    assert out["match_weight"].tolist() == [20.0, 20.0 - READING_BITS, 20.0 - 2 * READING_BITS]
    assert out["match_probability"].iloc[1] > 0.99
    assert out["match_probability"].iloc[2] == TWO_READINGS_CAP


def test_a_two_word_name_whose_first_word_is_also_a_family_name_gets_the_other_order() -> None:
    """(thirteenth session, fresh set) "عثمان حسام" is Husam of the Uthman family as often as Uthman
    son of Husam: عثمان is both a given and a family name in the table, حسام a given name."""
    table = prepare_reports(pd.DataFrame([
        {"unique_id": "a", "full_name": "عثمان حسام"},
        {"unique_id": "b", "first_name": "حسام", "father_name": "حسن", "family_name": "عثمان"},
        {"unique_id": "c", "first_name": "عثمان", "father_name": "علي", "family_name": "الحلبي"},
        *({"unique_id": f"d{i}", "first_name": "حسام", "father_name": father, "family_name": "النجار"}
          for i, father in enumerate(["خالد", "سامر", "علي", "عمر", "ماهر", "وائل"]))]))
    assert table.set_index("unique_id").loc["a", "second_reading"] > 1
    shadow = with_readings(table).set_index("unique_id").loc["a" + SHADOW]
    assert (shadow["first_id"], shadow["family_id"]) == ("husam", "uthman")


def test_a_last_word_that_leans_to_a_given_name_is_enough_for_the_other_order() -> None:
    """(thirteenth session, fresh set) "دروبي ابراهيم" is Ibrahim of the Droubi family: دروبي is a
    family name in the table's other reports, ابراهيم more often a given name than a family name
    (الإبراهيم) — but not three times as often, the margin the order's first reading asks."""
    rows = [{"unique_id": "a", "full_name": "دروبي ابراهيم"},
            *({"unique_id": f"d{i}", "first_name": g, "father_name": "عمران", "family_name": "الدروبي"}
              for i, g in enumerate(["ابراهيم", "أديب", "فراس"])),
            {"unique_id": "g", "first_name": "دروبي", "father_name": "علي", "family_name": "الحسن"},
            *({"unique_id": f"i{i}", "first_name": "ابراهيم", "father_name": f, "family_name": "النجار"}
              for i, f in enumerate(["خالد", "سامر", "علي", "عمر", "ماهر"])),
            *({"unique_id": f"f{i}", "first_name": g, "father_name": "علي", "family_name": "الإبراهيم"}
              for i, g in enumerate(["خالد", "سامر"]))]
    table = prepare_reports(pd.DataFrame(rows)).set_index("unique_id")
    assert table.loc["a", "second_reading"] > 1
    shadow = with_readings(table.reset_index()).set_index("unique_id").loc["a" + SHADOW]
    assert (shadow["first_id"], shadow["family_id"]) == ("ibrahim", "drubi")


def test_a_last_word_less_a_family_name_than_the_first_is_enough_for_the_other_order() -> None:
    """(sixteenth session, fresh set) "Rahhal Ali Hassan" is Ali son of Hassan of the Rahhal family:
    Rahhal is a family name in the table's other reports (and a given name of one), Hassan a family
    name (al-Hassan) a little more often than a given name, so that neither order was sure and the
    name got no second reading; its last word is less a family name than its first, which is enough
    for the other order."""
    rows = [{"unique_id": "a", "full_name": "Rahhal Ali Hassan"},
            *({"unique_id": f"r{i}", "first_name": g, "father_name": "Mahmoud", "family_name": "Al-Rahhal"}
              for i, g in enumerate(["Ahmad", "Omar", "Khaled", "Samer"])),
            {"unique_id": "g", "first_name": "Rahhal", "father_name": "Yasser", "family_name": "Najjar"},
            *({"unique_id": f"h{i}", "first_name": "Hassan", "father_name": f, "family_name": "Khatib"}
              for i, f in enumerate(["Khaled", "Samer"])),
            *({"unique_id": f"f{i}", "first_name": g, "father_name": "Maher", "family_name": "Al-Hassan"}
              for i, g in enumerate(["Khaled", "Samer", "Fadi"]))]
    table = prepare_reports(pd.DataFrame(rows)).set_index("unique_id")
    assert table.loc["a", "first_id"] == "rahal"  # read as written first: the order is in doubt
    assert table.loc["a", "second_reading"] > 1
    shadow = with_readings(table.reset_index()).set_index("unique_id").loc["a" + SHADOW]
    assert (shadow["first_id"], shadow["father_id"], shadow["family_id"]) == ("ali", "hasan", "rahal")
