"""The one-typo lookup of the variants table (issue 28, fifth session): a letter too many is a typo
only in a longer word; in a short one it is as often the name's own letter."""

from __future__ import annotations

import pytest

from athar.matching.names import name_tokens


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("منجد", None),  # the family name Munajjid, not مجد (Majd) with a letter too many
        ("المنجد", None),
        ("Asmar", None),  # a name of its own, not Ammar with a letter too many
        ("Mohammmad", "muhammad"),  # long words: the extra letter is a typo
        ("محممد", "muhammad"),
        ("Yousssef", "yusuf"),
        ("Khaleed", "khalid"),
        ("Mohamd", "muhammad"),  # a letter missing is still a typo in a short word
    ],
)
def test_a_letter_too_many_is_a_typo_only_in_a_longer_word(written: str, canonical: str | None) -> None:
    assert name_tokens(written)[0].canonical == canonical


@pytest.mark.parametrize(
    ("written", "guessed_before"),
    [("Samia", "samira"), ("Nada", "nadia"), ("Fathia", "fatima"), ("Rawan", "ridwan"), ("Sama", "salma"),
     ("Maram", "maryam"), ("Yasmin", "yasin"), ("سامية", "samira"), ("مرام", "maryam")],
)
def test_a_name_of_its_own_is_not_read_as_its_neighbour(written: str, guessed_before: str) -> None:
    """Common Syrian given names one typo from another name (sixth session): a sister Maram and a
    sister Maryam, read both as Maryam, were "the same name"."""
    canonical = name_tokens(written)[0].canonical
    assert canonical is not None and canonical != guessed_before


@pytest.mark.parametrize(
    ("written", "not_this"),
    [("Awad", "aswad"), ("Bahir", "bashir"), ("Samman", "salman"), ("Abdul-Alim", "abd al-halim"),
     ("Abdul-Hakim", "abd al-halim"), ("هنادي", "hadi"), ("حسنين", "husayn"), ("سمية", "samira"),
     ("كنعان", "kinan"), ("بسطام", "bassam"), ("أمية", "amina"), ("Rashad", "rashid")],
)
def test_a_consonant_added_dropped_or_changed_is_another_name(written: str, not_this: str) -> None:
    """Real given names one consonant from a name of the table (sixth session: all 15 such guesses
    on an outside list of 845 Arabic given names were wrong)."""
    assert name_tokens(written)[0].canonical != not_this


@pytest.mark.parametrize(
    ("written", "canonical"),
    [("Mohamd", "muhammad"), ("Khaleed", "khalid"), ("Mohammmad", "muhammad"), ("Yousssef", "yusuf"),
     ("Khelil", "khalil"), ("Yousf", "yusuf"), ("اسماعل", "ismail"), ("محممد", "muhammad")],
)
def test_a_vowel_or_a_double_is_still_a_typo(written: str, canonical: str) -> None:
    assert name_tokens(written)[0].canonical == canonical
