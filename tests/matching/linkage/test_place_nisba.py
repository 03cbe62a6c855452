"""Issue 28, twentieth session: a family name that is the nisba of the report's own place ("بلال
محمد الإدلبي" of Idlib, "سامر البرزاوي" of Barzeh) may say where the man is from rather than his family:
against another family name it is not compared; without the very same given name and a father's or
mother's name agreeing the pair goes to review, never linked."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import pytest

from athar.matching.linkage import prepare_reports
from athar.matching.linkage.link import OTHER_TOWN_LEVEL, PLACE_FAMILY_LEVEL, PLACE_FAMILY_NOTE
from athar.matching.linkage.prepare import FAMILY_PLACE_COLUMN, TOWN_BLOCK_COLUMN

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


@pytest.mark.parametrize(("row", "key"), [
    ({"full_name": "ياسر الداراني"}, "dr"),              # no town stated: the town the nisba names (اني: an n less)
    ({"full_name": "منهل الحولاني"}, "hl"),
    ({"full_name": "حمزة الجسراوي"}, "jsr"),             # اوي falls away on the skeleton
    ({"full_name": "ياسر الداراني", "city": "حمص"}, "hms"),  # a town stated is the town
    ({"full_name": "ياسر حسن النجار"}, None),             # no nisba: no town
])
def test_the_town_a_report_names_is_its_town_else_its_nisba(row: dict, key: str | None) -> None:
    table = prepare_reports(pd.DataFrame([{"unique_id": "1", **row}]))
    value = table.iloc[0][TOWN_BLOCK_COLUMN]
    assert (None if pd.isna(value) else value) == key


def test_a_nisba_of_no_stated_town_meets_the_towns_reports_and_is_not_compared(
        link_among_background: LinkAmong) -> None:
    """field_lists seed 32: a witness's "ياسر الداراني" (no town), and Yasir Hasan al-Khawlani of
    Daraya, both born 1995: the family names are not compared (the nisba may be the town), the pair is
    offered for review, never linked on a given name and a town."""
    cluster, pairs = link_among_background([
        {"unique_id": "a", "full_name": "ياسر الداراني", "birth_year": "1995", "governorate": "ريف دمشق"},
        {"unique_id": "b", "full_name": "ياسر حسن محمد الخولاني", "birth_year": "1995", "city": "داريا",
         "governorate": "ريف دمشق", "arrest_date": "2013-05-23", "mother_name": "خديجة"}])
    assert len(pairs) == 1
    assert pairs.iloc[0]["level_family_name"] == OTHER_TOWN_LEVEL
    assert pairs.iloc[0]["status"] != "linked"
    assert cluster["a"] != cluster["b"]


def test_a_nisba_is_not_read_against_a_town_when_its_report_states_its_own(link_among_background: LinkAmong) -> None:
    """"ياسر الداراني" of Homs: his family name is no nisba of Daraya's report's town here."""
    _cluster, pairs = link_among_background([
        {"unique_id": "a", "full_name": "ياسر الداراني", "birth_year": "1995", "city": "حمص"},
        {"unique_id": "b", "full_name": "ياسر حسن محمد الخولاني", "birth_year": "1995", "city": "داريا"}])
    assert not (pairs["level_family_name"] == OTHER_TOWN_LEVEL).any()


def test_a_nisba_of_no_stated_town_shares_a_block_with_the_towns_reports() -> None:
    """"منهل الحولاني" (a witness: no town, no year) and "منهل أحمد الرفاعي" of al-Houla meet in the block
    of the given name and the town; on a table of names only that block is not used."""
    from athar.matching.linkage.incremental import block_keys
    from athar.matching.linkage.link import _populated
    from athar.matching.linkage.settings import rule_columns

    table = prepare_reports(pd.DataFrame([
        {"unique_id": "a", "full_name": "منهل الحولاني", "arrest_date": "2012-02"},
        {"unique_id": "b", "full_name": "منهل أحمد الرفاعي", "city": "الحولة", "arrest_date": "2012-01-19"}]))
    rules = rule_columns(_populated(table), len(table))
    assert ("first_blk", "town_blk") in rules
    first, second = block_keys(table, rules)
    assert first & second
    names_only = prepare_reports(pd.DataFrame([{"unique_id": "a", "full_name": "منهل الحولاني"},
                                               {"unique_id": "b", "full_name": "منهل أحمد الرفاعي"}]))
    assert ("first_blk", "town_blk") not in rule_columns(_populated(names_only), len(names_only))
