"""A given and a family name and a town are what namesakes of one town share (link._townsfolk_apart):
a short report ("سعيد عكاري" of دير بعلبة, no father's or mother's name) against another whose own
facts are apart (arrests years apart) is offered for review, not linked; with an arrest in the same
month, or no fact against it, it is linked as before. field_lists.py (written from a fresh
description) linked such namesakes."""

from __future__ import annotations

import pandas as pd

from athar.matching.linkage import link_reports
from athar.matching.linkage.link import TOWNSFOLK_NOTE


def _result(second_arrest: str) -> tuple[bool, str, bool]:
    reports = pd.DataFrame([
        {"unique_id": "a", "full_name": "سعيد عكاري", "city": "دير بعلبة", "arrest_date": "2014-08",
         "arresting_agency": "فرع 261"},
        {"unique_id": "b", "full_name": "سعيد عكاري", "city": "دير بعلبة", "arrest_date": second_arrest,
         "arresting_agency": "فرع 261"},
        {"unique_id": "c", "full_name": "محمود ديب الحريري", "city": "مورك", "arrest_date": "2012-03-01"},
        {"unique_id": "d", "full_name": "Yasser Hamdan", "city": "دوما", "arrest_date": "2013-05-20"},
    ])
    result = link_reports(reports)
    cluster = dict(zip(reports["unique_id"], result.cluster_ids(reports["unique_id"])))
    pair = result.pairs[(result.pairs["unique_id_l"] == "a") & (result.pairs["unique_id_r"] == "b")]
    guard = str(pair["guard"].iloc[0]) if len(pair) else ""
    in_review = bool(((result.review["unique_id_l"] == "a") & (result.review["unique_id_r"] == "b")).any())
    return cluster["a"] == cluster["b"], guard, in_review


def test_a_short_name_of_one_town_with_arrests_years_apart_goes_to_review() -> None:
    linked, guard, in_review = _result("2012")
    assert not linked
    assert guard == TOWNSFOLK_NOTE
    assert in_review


def test_the_same_short_name_arrested_the_same_month_is_linked() -> None:
    linked, guard, _ = _result("2014-08-20")
    assert linked
    assert guard == ""


def test_arrests_of_one_year_months_apart_are_apart_too() -> None:
    linked, guard, in_review = _result("2014-02-10")
    assert not linked and guard == TOWNSFOLK_NOTE and in_review
