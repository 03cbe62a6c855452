"""Marks as families and examiners write them, in Arabic and English (table-driven)."""

from __future__ import annotations

import pytest

from athar.matching.scoring.marks import parse_marks

CASES = [
    ("tattoo of a map of Palestine on the left forearm", ["tattoo (map of palestine), left forearm"]),
    ("وشم خريطة فلسطين على ساعده الأيسر", ["tattoo (map of palestine), left forearm"]),
    ("scar above the right eyebrow", ["scar, right eyebrow"]),
    ("ندبة فوق الحاجب الأيمن", ["scar, right eyebrow"]),
    ("أثر جرح في الرأس", ["scar, head"]),
    ("burn scar on the chest", ["burn, chest"]),
    ("أثر حرق على الصدر", ["burn, chest"]),
    ("missing front tooth", ["missing teeth, front teeth"]),
    ("سن أمامي مفقود", ["missing teeth, front teeth"]),
    ("بتر في إصبع اليد اليمنى", ["amputation, right finger"]),
    ("a mark on his arm", ["mark, arm"]),
    ("tattoo of a heart and a name on his right arm", ["tattoo (heart, name), right arm"]),
    ("وشم خريطة فلسطين على ساعده الأيسر وندبة فوق الحاجب الأيمن",
     ["tattoo (map of palestine), left forearm", "scar, right eyebrow"]),
    ("ندبة فوق الحاجب الأيمن وسن مفقود", ["scar, right eyebrow", "missing teeth, teeth"]),
    ("", []),
    ("nothing special", []),
]


@pytest.mark.parametrize("text,expected", CASES)
def test_parse_marks(text: str, expected: list[str]) -> None:
    assert [m.describe() for m in parse_marks(text)] == expected


def test_side_unknown_when_text_says_none() -> None:
    (mark,) = parse_marks("وشم طائر على الذراع")
    assert (mark.kind, mark.region, mark.side, set(mark.contents)) == ("tattoo", "arm", "", {"bird"})
