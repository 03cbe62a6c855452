"""Issue 28, twentieth session: a family name that is the nisba of the report's own place ("بلال
محمد الإدلبي" of Idlib, "سامر البرزاوي" of Barzeh) may say where the man is from rather than his family:
against another family name it is not compared; without the very same given name and a father's or
mother's name agreeing the pair goes to review, never linked."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import pytest

from athar.matching.linkage import prepare_reports
from athar.matching.linkage.link import PLACE_FAMILY_LEVEL, PLACE_FAMILY_NOTE
from athar.matching.linkage.prepare import FAMILY_PLACE_COLUMN

LinkAmong = Callable[[list[dict]], tuple[dict[str, str], pd.DataFrame]]  # conftest.link_among_background


@pytest.mark.parametrize(("row", "nisba"), [
    ({"full_name": "بلال محمد الإدلبي", "governorate": "إدلب"}, True),
    ({"full_name": "سامر البرزاوي", "city": "برزة"}, True),
    ({"full_name": "سامر الداراني", "city": "داريا"}, True),  # اني adds an n
    ({"full_name": "سامر الديري", "city": "دير الزور"}, True),  # the place's first word
    ({"full_name": "حسن عبدالله القابوني", "birth_place": "القابون"}, True),
    ({"full_name": "AHMAD MUHAMMAD ALRSTNAOUI", "city": "الرستن"}, True),
    ({"full_name": "سامر العلي", "city": "حمص"}, False),
    ({"full_name": "سامر الحموي"}, False),  # no place of its own to be the nisba of
    ({"full_name": "سامر البرزاوي", "city": "حمص"}, False),
])
def test_a_family_name_that_is_the_nisba_of_the_reports_own_place(row: dict, nisba: bool) -> None:
    table = prepare_reports(pd.DataFrame([{"unique_id": "1", **row}]))
    assert bool(table.iloc[0][FAMILY_PLACE_COLUMN]) is nisba


def test_the_nisba_against_the_family_name_links_when_given_father_and_mother_agree(link_among_background: LinkAmong) -> None:
    """field_lists: "Bilal Mohammad Jumaa" (tracing) and "بلال محمد الإدلبي" (a roster), one mother."""
    base = {"birth_year": "1994", "governorate": "إدلب", "mother_name": "حياة", "sex": "M"}
    cluster, pairs = link_among_background([{**base, "unique_id": "a", "full_name": "بلال محمد جمعة"},
                            {**base, "unique_id": "b", "full_name": "بلال محمد الإدلبي"}])
    assert cluster["a"] == cluster["b"]
    assert (pairs["level_family_name"] == PLACE_FAMILY_LEVEL).all()


def test_a_given_name_and_a_town_nisba_alone_go_to_review(link_among_background: LinkAmong) -> None:
    """A witness's "سامر البرزاوي" of Barzeh against Samer al-Sayyid of Barzeh: which Samer of Barzeh?"""
    cluster, pairs = link_among_background([
        {"unique_id": "a", "full_name": "سامر مصطفى السيد", "city": "برزة", "arrest_date": "2011-05-18",
         "birth_year": "1966", "sex": "M"},
        {"unique_id": "b", "full_name": "سامر البرزاوي", "city": "برزة", "arrest_date": "2011-05"}])
    assert cluster["a"] != cluster["b"]
    if len(pairs):
        assert pairs.iloc[0]["status"] != "linked"
        assert pairs.iloc[0]["guard"] in (PLACE_FAMILY_NOTE, "")


def test_a_real_family_name_of_the_town_is_not_a_reason_to_link(link_among_background: LinkAmong) -> None:
    """عمر محمد الحمصي of Homs and AAMER MOHAMED OMAR BADAWI of Homs (fresh_syrian seed 22): the given
    names only share consonants across scripts — not linked."""
    base = {"city": "حمص", "governorate": "حمص", "arrest_date": "2013-05"}
    cluster, _ = link_among_background([{**base, "unique_id": "a", "full_name": "عمر محمد الحمصي", "birth_year": "1976"},
                        {**base, "unique_id": "b", "full_name": "AAMER MOHAMED OMAR BADAWI",
                         "arrest_date": "2013-05-02"}])
    assert cluster["a"] != cluster["b"]
