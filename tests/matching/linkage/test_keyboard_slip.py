"""Issue 28, twentieth session: a Latin name typed with one consonant's neighbour on the keyboard
("Aki" for Ali, "Khaked" for Khaled: an English-speaking clerk's slip) is a slip of the name, not
another name — only when the slip is no name of the table, and only to make two names one."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import prepare_reports
from athar.matching.linkage.constraints import facts_of, garbled_name, incompatibility, latin_slip_readings, names_agree
from athar.matching.names.phonetic import latin_key


def _facts(one: dict, other: dict):  # type: ignore[no-untyped-def]
    facts = facts_of(prepare_reports(pd.DataFrame([{"unique_id": "1", **one}, {"unique_id": "2", **other}])))
    return facts["1"], facts["2"]


@pytest.mark.parametrize(("typed", "name"), [("Aki", "ali"), ("Khaked", "khalid"), ("Nabik", "nabil")])
def test_a_neighbouring_key_reads_the_name(typed: str, name: str) -> None:
    assert name in latin_slip_readings(latin_key(typed), keyboard=True)
    assert name not in latin_slip_readings(latin_key(typed))  # not a dropped or swapped consonant


def test_a_fathers_name_typed_with_a_neighbouring_key_is_no_contradiction() -> None:
    """field_lists: "Hasan Ali Al-Halabi" and "Hasan Aki Alhalabi", born 1987, arrested 23 September
    2015 in Suwayda, were kept apart as "fathers' names differ"."""
    base = {"birth_year": "1987", "city": "Suwayda", "arrest_date": "2015-09-23"}
    a, b = _facts({"first_name": "Hasan", "father_name": "Ali", "family_name": "Al-Halabi", **base},
                  {"first_name": "Hasan", "father_name": "Aki", "family_name": "Alhalabi", **base})
    assert incompatibility(a, b) is None


def test_two_names_of_the_table_a_key_apart_stay_two() -> None:
    """Nader / Naser (d and s are neighbours): two names of the table, two brothers."""
    a, b = _facts({"first_name": "Nader", "family_name": "Haddad"}, {"first_name": "Naser", "family_name": "Haddad"})
    assert not garbled_name(a.names[0], b.names[0])


def test_the_keyboard_never_makes_two_names_of_one() -> None:
    """An unknown Latin spelling a key away from some name is not therefore another name than the one
    it is compared with ("Mouhamad" against Muhammad stays one name)."""
    a, b = _facts({"first_name": "Mouhamad"}, {"first_name": "Muhammad"})
    assert names_agree(a.names[0], b.names[0])
