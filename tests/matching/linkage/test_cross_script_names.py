"""Cross-script, names-only reports: one person written once in Arabic script and once in Latin
letters, nothing but the full name, must link at the default threshold; brothers must not."""

from __future__ import annotations

import pandas as pd

from athar.matching.linkage import generate_reports, link_reports, prepare_reports, template_to_linkage_input

# Real Arabic/Latin word pairs of the Google transliteration corpus (Wikipedia, Apache-2.0;
# the eval split), composed into three-part names as benchmarks/linkage/bench_cross_script.py does.
PAIRS = [  # pairs the model before 2026-11-29 evening left unlinked at 0.9 in a 4,000-report store
    ("لمنور فولكرز الدجاني", "Lamnawar Wolkers Dajani"),
    ("بارينتوس براونينغ أليكساندرو", "Barrientos Browning Alexsandro"),
    ("نيولي ركان ستيفين", "Newley Rakan Steven"),
    ("وبستر بقاتي بلترانيخا", "Webster Bakkati Beltraneja"),
    ("مسارو بيكام سافادوري", "Massaro Beckham Savadori"),
    ("كيلز كايلي ليندنشتراوس", "Kills Kylie Lindenstrauss"),
    ("لوكاتلي باريلز رازفان", "Locatelli Bareilles Razvan"),
    ("بنز مينديز ماتيوس", "Benz Mendes Mateos"),
    ("الهلالي إدمون أغوستيني", "Hilali Edmond Agostini"),
    ("أمسدن ركاد أرتشولينا", "Amsden Rakad Archuleta"),
    ("كامورانيزي غوشة باولا", "Camoranesi Ghawshah Paula"),
    ("بينالبا شاريت كرتشيل", "Penalba Sharett Krcil"),
]
# Brothers: same father and family name, different first names, each once per script.
BROTHERS = [("b1", "محمد أحمد الحلبي"), ("b2", "Mahmoud Ahmad al-Halabi"),
            ("b3", "Khaled Ahmad al-Halabi"), ("b4", "محمود أحمد الحلبي")]


def _names_only() -> pd.DataFrame:
    rows = [{"unique_id": f"x{i}{side}", "full_name": name}
            for i, pair in enumerate(PAIRS) for side, name in zip("al", pair)]
    rows += [{"unique_id": uid, "full_name": name} for uid, name in BROTHERS]
    return pd.DataFrame(rows)


def _check(result, common_name_may_wait: bool = False) -> None:  # type: ignore[no-untyped-def]
    cluster = dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))
    missed = [pair for i, pair in enumerate(PAIRS) if cluster[f"x{i}a"] != cluster[f"x{i}l"]]
    assert not missed, f"not linked at the default threshold: {missed}"
    # b1 (Muhammad) and b2/b3 (Mahmoud, Khaled) are different people; b2 and b4 are one (Mahmoud)
    assert cluster["b1"] != cluster["b2"] and cluster["b1"] != cluster["b3"] and cluster["b3"] != cluster["b4"]
    if cluster["b2"] != cluster["b4"] and common_name_may_wait:
        # In a store holding twenty al-Halabis and eighty Mahmouds, "Mahmoud Ahmad al-Halabi" and
        # nothing else is a common name: a reviewer's question (review band), never a split.
        pair = result.pairs[result.pairs.unique_id_l.isin(["b2", "b4"]) & result.pairs.unique_id_r.isin(["b2", "b4"])]
        assert list(pair["status"]) == ["review"], pair.to_dict("records")
        return
    assert cluster["b2"] == cluster["b4"]


def test_cross_script_names_only_pairs_link_in_a_small_batch() -> None:
    _check(link_reports(_names_only()))


def test_cross_script_names_only_pairs_link_in_a_store_with_term_frequencies() -> None:
    # over 1,000 reports term-frequency adjustments are on (the product's usual case)
    store = template_to_linkage_input(generate_reports(1200, seed=4))
    table = pd.concat([store, _names_only()], ignore_index=True)
    _check(link_reports(table, explain=False), common_name_may_wait=True)


# Four- and five-part names whose grandfather's name is written in a spelling the variants table
# does not know (real_cross_parts, issue 28): أزهر / Azhar (azhr / azhar), رضا / Reza (rd / rz).
GRANDFATHERS = [("هدى بسام أزهر الحمود", "Houda Bassam Azhar Humood"),
                ("جواد عدنان رضا حسين العمر", "Jawad Adnene Reza Hocine Amor"),
                ("مؤيد تركي أزهر عدنان الحمصي", "Mo'ayyad Torky Azhar Adnene Homsi")]


def _grandfather_level(explanation: str) -> str:
    return next(part for part in explanation.split("; ") if part.startswith("grandfather's name")).split(": ")[1]


def test_a_grandfathers_name_in_another_spelling_is_not_a_different_name() -> None:
    # The grandfather's comparison has the fuzzy levels of the father's (settings.name_comparison,
    # model.BORROWED_LEVELS): before, "Azhar" against أزهر was "different" (−4.3 bits), and in a store
    # of 1,200 reports Houda Bassam Azhar Humood waited for review at 0.90 against her Arabic report.
    rows = [{"unique_id": f"g{i}{side}", "full_name": name}
            for i, pair in enumerate(GRANDFATHERS) for side, name in zip("al", pair)]
    # two known grandfathers' names stay different (cousins: حسن / حسين)
    rows += [{"unique_id": "c1", "full_name": "Ahmad Khaled Hasan al-Halabi"},
             {"unique_id": "c2", "full_name": "أحمد خالد حسين الحلبي"}]
    store = template_to_linkage_input(generate_reports(1200, seed=4))
    result = link_reports(pd.concat([store, pd.DataFrame(rows)], ignore_index=True), explain=True)
    pairs = result.pairs.set_index(["unique_id_l", "unique_id_r"])
    for i in range(len(GRANDFATHERS)):
        row = pairs.loc[(f"g{i}a", f"g{i}l")]
        assert _grandfather_level(row["explanation"]).split(" (")[0] != "different", row["explanation"]
        assert row["status"] == "linked", row.to_dict()
    cousins = pairs.loc[("c1", "c2")] if ("c1", "c2") in pairs.index else pairs.loc[("c2", "c1")]
    assert _grandfather_level(cousins["explanation"]).startswith("different"), cousins["explanation"]


def test_names_spelled_apart_past_one_letter_are_compared() -> None:
    # google_cross (issue 28): no two of the three names agreed on a blocking key, so these pairs were
    # never compared; one name agreeing on its coarse key and the two others beginning with the same
    # coarse consonant now makes a block (settings.NAMES_ONLY_RULES)
    pairs = [("طلبة إنغلز باريلز", "Tolba Ingles Bareilles"),
             ("جوبز ترياس أندروز", "Jobs Trias Andrews"),
             ("بريندا ريدناب مينديز", "Brenda Redknapp Mendes"),
             ("وردي مارتشيزي جيفريز", "Wardi Marchese Jefferies")]
    rows = [{"unique_id": f"w{i}{side}", "full_name": name} for i, pair in enumerate(pairs) for side, name in zip("al", pair)]
    result = link_reports(pd.DataFrame(rows))
    compared = {frozenset(p) for p in zip(result.pairs["unique_id_l"], result.pairs["unique_id_r"])}
    assert all(frozenset((f"w{i}a", f"w{i}l")) in compared for i in range(len(pairs))), compared


# (eleventh session) Five-part names across scripts compare their fourth name too (the great-grandfather's:
# settings.comparisons, prepare._name_columns, model.BORROWED_LEVELS). One part of a long name in a
# spelling that is another name (علي / Sofu in real_cross_parts) left four agreeing parts of five at
# p ≈ 0.59, waiting for review; the fourth name agreeing is the evidence that was not counted.
LINEAGES = [("فهد خويلد علي زايد الأسعد", "Fahad Khuwaylid Sofu Zayid Asaad"),
            ("أحمد مسعود علي نعمان العمر", "Ahmed Messaoud Sofu Naaman Amor")]


def _level(explanation: str, comparison: str) -> str:
    return next(part for part in explanation.split("; ") if part.startswith(comparison + ":")).split(": ")[1]


def test_the_fourth_name_of_a_lineage_is_compared() -> None:
    table = prepare_reports(pd.DataFrame([
        {"unique_id": "five", "full_name": "فهد خويلد علي زايد الأسعد"},
        {"unique_id": "four", "full_name": "فهد خويلد علي الأسعد"},
        {"unique_id": "parts", "first_name": "فهد", "father_name": "خويلد", "family_name": "الأسعد"}]))
    ancestor = dict(zip(table["unique_id"], table["ancestor_id"]))
    assert ancestor["five"] is not None and ancestor["four"] is None and ancestor["parts"] is None


def test_a_long_name_with_one_part_written_as_another_name_links_on_its_fourth_name() -> None:
    rows = [{"unique_id": f"n{i}{side}", "full_name": name}
            for i, pair in enumerate(LINEAGES) for side, name in zip("al", pair)]
    # the same three first names and family, another great-grandfather: that name counts against
    rows += [{"unique_id": "c1", "full_name": "Fahad Khuwaylid Ali Hamid al-Asaad"},
             {"unique_id": "c2", "full_name": "فهد خويلد علي زايد الأسعد"}]
    # names only, in a table under TF_MIN_ROWS (the model's u): without the fourth name, review at 0.65
    store = template_to_linkage_input(generate_reports(600, seed=4))[["unique_id", "full_name"]]
    result = link_reports(pd.concat([store, pd.DataFrame(rows)], ignore_index=True), explain=True)
    pairs = result.pairs.set_index(["unique_id_l", "unique_id_r"])
    for i in range(len(LINEAGES)):
        row = pairs.loc[(f"n{i}a", f"n{i}l")]
        assert _level(row["explanation"], "great-grandfather's name").startswith("same"), row["explanation"]
        assert row["status"] == "linked", row.to_dict()
    key = ("c1", "c2") if ("c1", "c2") in pairs.index else ("c2", "c1")
    assert _level(pairs.loc[key, "explanation"], "great-grandfather's name").startswith("different")
    assert float(pairs.loc[key, "mw_ancestor_name"]) < 0
