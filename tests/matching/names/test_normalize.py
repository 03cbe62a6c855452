"""Normalisation: real Arabic strings and properties on random Unicode."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from athar.matching.names import normalize_arabic, normalize_latin, normalize_name


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("مُحَمَّد", "محمد"),  # harakat and shadda
        ("عبـــدالرحمن", "عبدالرحمن"),  # tatweel
        ("أحمد", "احمد"),
        ("إبراهيم", "ابراهيم"),
        ("آمنة", "امنه"),  # alef madda, taa marbuta
        ("ٱلسالم", "السالم"),  # alef wasla
        ("مصطفى", "مصطفي"),  # alef maqsura
        ("مؤيد", "مويد"),  # hamza on waw
        ("وائل", "وايل"),  # hamza on yaa
        ("علاء", "علا"),  # standalone hamza
        ("کریم", "كريم"),  # Persian kaf and yaa
        ("پ گ چ ژ", "ب ك ج ز"),
        ("١٩٨٥ ۱۹۸۵", "1985 1985"),
        ("محمد\u200c احمد\u200f", "محمد احمد"),  # zero-width non-joiner, RTL mark
        ("ﻣﺤﻤﺪ", "محمد"),  # presentation forms (NFKC)
    ],
)
def test_normalize_arabic(raw: str, expected: str) -> None:
    assert normalize_arabic(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Mahmoud AL-SALEM", "mahmoud al-salem"),
        ("Ḥusayn ʿAbd al-Raḥmān", "husayn 'abd al-rahman"),
        ("  Khaled   Al  Hasan ", "khaled al hasan"),
        ("Mohammad (Abu Ali)", "mohammad abu ali"),
    ],
)
def test_normalize_latin(raw: str, expected: str) -> None:
    assert normalize_latin(raw) == expected


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_normalize_name_is_idempotent_and_total(text: str) -> None:
    once = normalize_name(text)
    assert isinstance(once, str)
    assert normalize_name(once) == once


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0x0600, max_codepoint=0x06FF)))
def test_normalize_arabic_idempotent_on_arabic_block(text: str) -> None:
    once = normalize_arabic(text)
    assert normalize_arabic(once) == once
    assert "\u0640" not in once and "ة" not in once and "أ" not in once


@pytest.mark.parametrize("text", ["\u06c2", "ۂGG", "\u0623\u0654", "آ", "ؤ", "ئ", "\u06c1\u0654", "ﻷ"])
def test_normalising_twice_changes_nothing(text: str) -> None:
    """A letter with a mark is mapped as its base letter (found by fuzz/fuzz_names.py: ۂ gave ہ,
    and a second pass ه)."""
    once = normalize_name(text)
    assert normalize_name(once) == once
