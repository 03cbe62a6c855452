"""A gap that field_lists.py (a generator written from a fresh description) showed as a false link
(issue 28, nineteenth session): "Abdulah" (Allah written with one l, as clerks and French spellings
do: Abdoulah, Abdelah) lost the l of Allah with the article's and was the unknown name "abda" — whose
two-letter coarse key met فادي (a brother Fadi and a brother Abdullah were one person)."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import prepare_reports
from athar.matching.linkage.constraints import facts_of, names_agree
from athar.matching.names import name_tokens


@pytest.mark.parametrize("written", ["Abdulah", "Abdoulah", "Abdelah", "Abdullah", "Abdalla", "عبد الله"])
def test_allah_written_with_one_l_is_abdullah(written: str) -> None:
    (token,) = name_tokens(written)
    assert token.canonical == "abd allah"


@pytest.mark.parametrize("written", ["Abdul Latif", "Abdul Rahman", "Abdulrahman"])
def test_the_article_after_abd_still_goes(written: str) -> None:
    (token,) = name_tokens(written)
    assert token.canonical in ("abd al-latif", "abd al-rahman")


def _given(*names: str) -> list:
    facts = facts_of(prepare_reports(pd.DataFrame([{"unique_id": str(i), "first_name": n}
                                                   for i, n in enumerate(names)])))
    return [facts[str(i)].names[0] for i in range(len(names))]


@pytest.mark.parametrize(("one", "other", "agree"), [
    ("Abdulah", "فادي", False), ("Abdulah", "عبد الله", True), ("Abdoulah", "Abdallah", True),
])
def test_abdullah_with_one_l_is_no_other_name(one: str, other: str, agree: bool) -> None:
    a, b = _given(one, other)
    assert names_agree(a, b) is agree
