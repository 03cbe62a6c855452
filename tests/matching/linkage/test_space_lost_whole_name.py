"""Issue 28, twenty-third session: a whole name typed as one word on a phone ("خالدجهماني",
"باسلبويضاني"; field_lists.py's activist lists lose the space 12 % of the time) is cut where a real
given name ends, or before an article inside it; and a name typed against the عبد of the compound
after it ("محمدعبد الرزاق") or a compound typed against the family name ("عبد الرحمنالعظم") is taken
apart. Before, such a report had one given name of ten letters and no family name, and met its
person in no block."""

from __future__ import annotations

import pytest

from athar.matching.linkage.order import written_order
from athar.matching.names import name_tokens
from athar.matching.names.tokens import whole_name_unglued


@pytest.mark.parametrize(("typed", "words"), [
    ("خالدجهماني", ["خالد", "جهماني"]),      # a given name of given_names.yaml, then a family name no list knows
    ("باسلبويضاني", ["باسل", "بويضاني"]),
    ("محمدمطر", ["محمد", "مطر"]),            # three letters after the name, in a word of seven
    ("ساملالشهابي", ["سامل", "الشهابي"]),    # a mistyped given name: cut before the article
])
def test_a_whole_name_typed_as_one_word_is_cut(typed: str, words: list[str]) -> None:
    assert whole_name_unglued([typed]) == words
    assert len(written_order(typed).tokens) == 2


@pytest.mark.parametrize("name", ["نورهان", "عبدالرحمن", "عبدالله", "محمداوي", "سعدالله", "نورالدين", "حسنين",
                                  "رنامعي", "أبوإبراهيم", "المعضماني", "خالد"])
def test_a_word_that_is_a_name_whole_or_too_short_to_tell_stays_whole(name: str) -> None:
    """A real name (نورهان), a compound (عبدالرحمن، نورالدين، سعدالله), a family name with a nisba's
    ending (محمداوي), a word of six letters with three after the name (رنامعي: رنا معي or a name?)."""
    assert whole_name_unglued([name]) == [name]


def test_only_a_whole_name_of_one_word_is_cut() -> None:
    """A name part in its own column, or a word among others, keeps the careful rule (tokens._space_lost)."""
    assert whole_name_unglued(["خالدجهماني", "الحراكي"]) == ["خالدجهماني", "الحراكي"]
    assert [t.text for t in name_tokens("خالدجهماني")] == ["خالدجهماني"]


@pytest.mark.parametrize(("typed", "words"), [
    ("محمدعبد الرزاق نعسان", ["محمد", "عبد الرزاق", "نعسان"]),
    ("عبد الرحمنالعظم", ["عبد الرحمن", "عظم"]),
])
def test_a_name_glued_to_a_compound_of_abd_is_taken_apart(typed: str, words: list[str]) -> None:
    assert [t.text for t in name_tokens(typed)] == words


def test_a_report_typed_as_one_word_links_to_its_person(link_among_background) -> None:  # type: ignore[no-untyped-def]
    """field_lists seed 32: "باسلبويضاني" of al-Midan, 19 in 2013, and باسل أحمد بويضاني of al-Midan,
    born 1994, arrested on 9 August 2013 (both dates as written)."""
    cluster, _ = link_among_background([
        {"unique_id": "a", "full_name": "باسل أحمد بويضاني", "birth_year": "1994", "city": "الميدان",
         "governorate": "دمشق", "arrest_date": "٢٠١٣/٨/٩", "arresting_agency": "الشرطة العسكرية"},
        {"unique_id": "b", "full_name": "باسلبويضاني", "birth_year": "عمره 19", "city": "الميدان",
         "arrest_date": "9/8/2013"}])
    assert cluster["a"] == cluster["b"]
