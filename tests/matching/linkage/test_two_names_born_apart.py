"""Two given names that are two names of the lists yet close in letters (عمار / عامر: two neighbours
swapped; هشام / هاشم; AMMAR / عامر across scripts) pass the spelling rules, since a copy of one name
slips that way too. On reports that both state a birth year, not the same one, such a pair is offered
for review and never linked (link.real_names_apart; issue 28, thirtieth session): the brothers Ammar
(1980) and Amer (1982) Hussein al-Masri of Darayya, arrested the same day, were one person on the
hand-written set written_kinds_3."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import link_reports
from athar.matching.linkage.constraints import NameKey, two_names_of_the_lists
from athar.matching.linkage.link import REAL_NAMES_NOTE
from athar.matching.linkage.prepare import prepare_reports


def _given(name: str) -> NameKey:
    row = prepare_reports(pd.DataFrame([{"unique_id": "1", "first_name": name, "family_name": "x"}])).iloc[0]
    return NameKey(row["first_id"], row["first_blk"] or "", row["first_cblk"] or "", row["first_skel"] or "",
                   bool(row["first_known"]), row.get("first_rasm") or "")


@pytest.mark.parametrize(("a", "b"), [("عمار", "عامر"), ("هشام", "هاشم"), ("عمر", "عامر"), ("AMMAR", "عامر"),
                                      ("عامر", "Ammar")])
def test_two_names_of_the_lists(a: str, b: str) -> None:
    assert two_names_of_the_lists(_given(a), _given(b))


# one name (the same id, or a Latin spelling the table lists for the Arabic name), a garbled copy (not a
# name of the lists), two Latin spellings (a Latin vowel is the writer's), a Latin name the table does
# not know: none is read as two names
@pytest.mark.parametrize(("a", "b"), [("عمار", "عمار"), ("Rashid", "رشيد"), ("RASHID", "رشيد"), ("Ammar", "عمار"),
                                      ("ممد", "محمد"), ("Amir", "Amer"), ("Samir", "Samer"), ("AMER", "عمار")])
def test_not_two_names_of_the_lists(a: str, b: str) -> None:
    assert not two_names_of_the_lists(_given(a), _given(b))


def _brothers(first: str, second: str, born: tuple[str, str]) -> pd.DataFrame:
    common = {"father_name": "حسين", "family_name": "المصري", "sex": "ذكر", "city": "داريا", "arrest_date": "2012-08-26"}
    return pd.DataFrame([{"unique_id": "a", "first_name": first, "birth_year": born[0], **common},
                         {"unique_id": "b", "first_name": second, "birth_year": born[1], **common}])


def _pair(reports: pd.DataFrame) -> tuple[pd.Series, set[frozenset[str]]]:
    result = link_reports(reports)
    pairs = result.pairs[result.pairs.unique_id_l.isin(["a", "b"]) & result.pairs.unique_id_r.isin(["a", "b"])]
    review = {frozenset(p) for p in zip(result.review.unique_id_l.astype(str), result.review.unique_id_r.astype(str))}
    return pairs.iloc[0], review


@pytest.mark.parametrize(("first", "second"), [("عمار", "عامر"), ("هشام", "هاشم"), ("عامر", "AMMAR")])
def test_brothers_born_in_other_years_are_reviewed_not_linked(first: str, second: str) -> None:
    pair, review = _pair(_brothers(first, second, ("1980", "1982")))
    assert pair["guard"] == REAL_NAMES_NOTE
    assert pair["status"] == "review" and frozenset({"a", "b"}) in review
    assert pair["model_probability"] > 0.99  # what the names, father, family, town and arrest said


def test_born_the_same_year_a_slip_of_one_name_is_the_models_to_weigh() -> None:
    pair, _ = _pair(_brothers("عمار", "عامر", ("1980", "1980")))
    assert pair["guard"] != REAL_NAMES_NOTE and pair["status"] == "linked"


def test_a_year_stated_by_one_report_only_is_not_a_difference() -> None:
    pair, _ = _pair(_brothers("عمار", "عامر", ("1980", "")))
    assert pair["guard"] != REAL_NAMES_NOTE


def test_one_name_in_two_scripts_born_a_year_apart_is_linked() -> None:
    pair, _ = _pair(_brothers("رشيد", "Rashid", ("1969", "1970")))
    assert pair["guard"] != REAL_NAMES_NOTE and pair["status"] == "linked"


def test_two_names_the_rules_hold_apart_are_the_constraints_to_keep_apart() -> None:
    """وسيم / باسم (one consonant apart) are two names to the constraints: the pair is kept apart by
    them (split, with their reason), not by this guard."""
    pair, _ = _pair(_brothers("وسيم", "باسم", ("1989", "1991")))
    assert pair["guard"] != REAL_NAMES_NOTE
    assert pair["status"] == "split"
