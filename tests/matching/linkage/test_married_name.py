"""Issue 28, twenty-third session: a woman is written under her father's family and, in some lists,
her husband's (OFAC: "AL-ASSAD, Asma" and "AKHRAS, Asma", born 1975 in Acton). Two reports of one
woman's given name, born the very same year in one town, whose family names differ: the family names
are not compared and the rest decides. Not for men, not without the year and the town, not for two
given names (sisters)."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import pytest

from athar.matching.linkage import prepare_reports
from athar.matching.linkage.constraints import facts_of, womans_name
from athar.matching.linkage.link import MARRIED_NAME_LEVEL, _one_woman

LinkAmong = Callable[[list[dict]], tuple[dict[str, str], pd.DataFrame]]  # conftest.link_among_background


def _facts(*rows: dict) -> list:
    table = prepare_reports(pd.DataFrame([{"unique_id": str(i), **r} for i, r in enumerate(rows)]))
    facts = facts_of(table)
    return [facts[str(i)] for i in range(len(rows))]


@pytest.mark.parametrize(("name", "woman"), [("Asma", True), ("أسماء", True), ("فاطمة", True), ("Fatima", True),
                                              ("Ahmad", False), ("محمد", False),
                                              # twenty-fourth session: a Latin spelling the variants table
                                              # does not know, by the consonants of a woman's name of the
                                              # list that no man's name has
                                              ("Manal", True), ("منال", True),
                                              ("Latif", False),   # لطيفة's letters are the man's Latif's
                                              ("Saher", False),   # ساهر, a man's name (سحر's letters too)
                                              ("Wasel", False)])
def test_a_womans_given_name_is_read_in_either_script(name: str, woman: bool) -> None:
    (facts,) = _facts({"first_name": name})
    assert womans_name(facts.names[0]) is woman


@pytest.mark.parametrize(("a", "b", "one"), [
    ({"full_name": "AL-ASSAD, Asma", "birth_year": "1975", "birth_place": "Acton"},
     {"full_name": "AKHRAS, Asma", "birth_year": "1975", "birth_place": "Acton"}, True),
    ({"full_name": "AL-ASSAD, Asma", "birth_year": "1975", "birth_place": "Acton"},
     {"full_name": "AKHRAS, Asma", "birth_year": "1976", "birth_place": "Acton"}, False),   # another year
    ({"full_name": "AL-ASSAD, Asma", "birth_year": "1975"},
     {"full_name": "AKHRAS, Asma", "birth_year": "1975"}, False),                          # no town
    ({"full_name": "AL-ASSAD, Ahmad", "birth_year": "1975", "birth_place": "Acton"},
     {"full_name": "AKHRAS, Ahmad", "birth_year": "1975", "birth_place": "Acton"}, False),  # a man's name
    ({"full_name": "AL-ASSAD, Asma", "birth_year": "1975", "birth_place": "Acton", "sex": "M"},
     {"full_name": "AKHRAS, Asma", "birth_year": "1975", "birth_place": "Acton"}, False),  # said to be a man
])
def test_one_woman_needs_her_name_year_and_town(a: dict, b: dict, one: bool) -> None:
    left, right = _facts(a, b)
    assert _one_woman(left, right) is one


def test_manal_under_two_family_names_is_one_woman() -> None:
    """OFAC lists "AL-ASSAD, Manal" and "AL-AHMAD, Manal", born 1970 in Damascus."""
    left, right = _facts({"full_name": "AL-ASSAD, Manal", "birth_year": "1970", "birth_place": "Damascus"},
                         {"full_name": "AL-AHMAD, Manal", "birth_year": "1970", "birth_place": "Damascus"})
    assert _one_woman(left, right)


def test_a_womans_two_family_names_are_not_compared(link_among_background: LinkAmong) -> None:
    cluster, pairs = link_among_background([
        {"unique_id": "a", "full_name": "AL-ASSAD, Asma", "birth_year": "1975", "birth_place": "Acton"},
        {"unique_id": "b", "full_name": "AKHRAS, Asma", "birth_year": "1975", "birth_place": "Acton"}])
    assert len(pairs) == 1 and pairs.iloc[0]["level_family_name"] == MARRIED_NAME_LEVEL
    assert cluster["a"] == cluster["b"]


def test_two_sisters_stay_two(link_among_background: LinkAmong) -> None:
    """Sisters share the family name and have two given names: the rule is not theirs to use."""
    base = {"birth_year": "1975", "city": "دوما", "father_name": "محمد", "family_name": "الخطيب", "sex": "F"}
    cluster, _ = link_among_background([{**base, "unique_id": "a", "first_name": "أسماء"},
                                        {**base, "unique_id": "b", "first_name": "منال"}])
    assert cluster["a"] != cluster["b"]
