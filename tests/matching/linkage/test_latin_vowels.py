"""Issue 28, twentieth session: two given names in Latin letters that differ only by their vowels
(Samir / Samer: سمير and سامر are two names, but a Latin vowel is the writer's) of reports born the
very same year are offered for review, never linked; born in other years they stay apart, out of the
queue, as brothers are."""

from __future__ import annotations

import pandas as pd

from athar.matching.linkage import generate_reports, link_reports, template_to_linkage_input
from athar.matching.linkage.link import LATIN_VOWELS_NOTE


def _pair(one: dict, other: dict) -> tuple[pd.Series | None, set[frozenset[str]]]:
    background = template_to_linkage_input(generate_reports(1200, seed=1))
    rows = pd.DataFrame([{"unique_id": "a", **one}, {"unique_id": "b", **other}])
    result = link_reports(pd.concat([background, rows], ignore_index=True).fillna(""))
    pairs = result.pairs[result.pairs.unique_id_l.isin(["a", "b"]) & result.pairs.unique_id_r.isin(["a", "b"])]
    review = {frozenset(p) for p in zip(result.review.unique_id_l, result.review.unique_id_r)}
    return (pairs.iloc[0] if len(pairs) else None), review


def test_samir_and_samer_of_one_family_born_the_same_year_are_reviewed() -> None:
    pair, review = _pair({"full_name": "Samir Foz", "birth_year": "1973", "birth_place": "Latakia"},
                         {"full_name": "Samer Foz", "birth_year": "1973", "birth_place": "Latakia"})
    assert pair is not None and pair["guard"] == LATIN_VOWELS_NOTE and pair["status"] != "linked"
    assert frozenset({"a", "b"}) in review


def test_born_in_other_years_they_are_brothers_out_of_the_queue() -> None:
    pair, review = _pair({"full_name": "Samir Foz", "birth_year": "1973", "birth_place": "Latakia"},
                         {"full_name": "Samer Foz", "birth_year": "1974", "birth_place": "Latakia"})
    assert pair is None or pair["guard"] == "first names differ (siblings or namesakes?)"
    assert frozenset({"a", "b"}) not in review


def test_arabic_letters_write_the_vowels() -> None:
    pair, review = _pair({"full_name": "سمير فوز", "birth_year": "1973", "birth_place": "اللاذقية"},
                         {"full_name": "سامر فوز", "birth_year": "1973", "birth_place": "اللاذقية"})
    assert pair is not None and pair["guard"] == "first names differ (siblings or namesakes?)" and frozenset({"a", "b"}) not in review
