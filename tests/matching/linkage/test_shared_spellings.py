"""Issue 28: one Latin spelling can write two Arabic names (KAMEL is كامل in the Levant and as often
كمال in the Maghreb). The comparison accepts any of the names the spelling writes, and nothing else:
a brother's other own given name stays another name."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import generate_reports, link_reports, prepare_reports, template_to_linkage_input
from athar.matching.linkage.constraints import facts_of, incompatibility, names_agree, same_given_name
from athar.matching.names.tokens import tokenize_name

BASE = {"birth_year": "1982", "city": "تلكلخ", "arrest_date": "2016-08-10", "sex": "M"}


def _first_names(*names: str) -> list:
    facts = facts_of(prepare_reports(pd.DataFrame([{"unique_id": str(i), "first_name": n}
                                                   for i, n in enumerate(names)])))
    return [facts[str(i)].names[0] for i in range(len(names))]


def test_a_spelling_of_two_names_names_both() -> None:
    (kamel,) = tokenize_name("KAMEL")
    assert kamel.canonical is None and set(kamel.candidates) == {"kamal", "kamil"}
    (kamal,) = tokenize_name("كمال")
    assert kamal.candidates == ("kamal",)
    prepared = prepare_reports(pd.DataFrame([{"unique_id": "1", "first_name": "Kamel"}]))
    assert prepared.loc[0, "first_known"] == 1 and set(prepared.loc[0, "first_id"].split("|")) == {"kamal", "kamil"}


@pytest.mark.parametrize(("latin", "arabic", "agree"), [
    ("KAMEL", "كمال", True), ("KAMEL", "كامل", True), ("Kamel", "Kamal", True), ("Kamel", "Kamil", True),
    ("Salim", "سالم", True), ("Salim", "سليم", True),
    # the names it does not write stay other names (both of the variants table)
    ("KAMEL", "جميل", False), ("Kamel", "Jamil", False), ("Salim", "Salma", False), ("Salim", "سلمان", False),
])
def test_the_comparison_accepts_any_name_of_the_spelling(latin: str, arabic: str, agree: bool) -> None:
    a, b = _first_names(latin, arabic)
    assert names_agree(a, b) is agree
    assert same_given_name(a, b) is agree


def test_brothers_with_other_given_names_stay_apart() -> None:
    family = {**BASE, "father_name": "مصطفى", "family_name": "قصاب", "mother_name": "ليلى المحمد"}
    facts = facts_of(prepare_reports(pd.DataFrame([
        {**family, "unique_id": "1", "first_name": "KAMEL"},
        {**family, "unique_id": "2", "first_name": "جميل"},
        {**family, "unique_id": "3", "first_name": "كمال"},
        {**family, "unique_id": "4", "first_name": "كامل"},
    ])))
    assert incompatibility(facts["1"], facts["2"]) == "given names differ"
    assert incompatibility(facts["1"], facts["3"]) is None
    assert incompatibility(facts["3"], facts["4"]) == "given names differ"  # two Arabic names stay two


def _clusters(rows: list[dict]) -> dict[str, str]:
    background = template_to_linkage_input(generate_reports(1200, seed=1))
    result = link_reports(pd.concat([background, pd.DataFrame(rows)], ignore_index=True).fillna(""), explain=False)
    return dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))


def test_kamel_links_to_kamal_and_its_brother_stays_apart() -> None:
    """The one_slip set's KAMEL: the Latin report of مصطفى كمال قصاب / كمال عبد الكريم يعقوب."""
    mother = {"mother_name": "ليلى المحمد"}
    cluster = _clusters([
        {**BASE, **mother, "unique_id": "a", "full_name": "كمال عبد الكريم يعقوب"},
        {**BASE, "unique_id": "b", "full_name": "KAMEL ABDELKRIM YACOUB"},
        {**BASE, **mother, "unique_id": "c", "full_name": "مصطفى كمال قصاب", "city": "حمص", "birth_year": "1975"},
        {**BASE, **mother, "unique_id": "d", "full_name": "MUSTAPHA KAMEL KASSAB", "city": "حمص", "birth_year": "1975"},
        # brothers of a: the same father, mother, family, town and arrest, other own given names
        {**BASE, **mother, "unique_id": "e", "full_name": "جميل عبد الكريم يعقوب", "birth_year": "1984"},
        {**BASE, "unique_id": "f", "full_name": "JAMIL ABDELKRIM YACOUB", "birth_year": "1984"},
    ])
    assert cluster["a"] == cluster["b"] != cluster["e"]
    assert cluster["c"] == cluster["d"]
    assert cluster["e"] == cluster["f"] != cluster["b"]
