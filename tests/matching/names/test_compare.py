"""Table-driven name comparisons (fixtures/name_pairs.csv: domain experts can edit it)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from athar.matching.names import compare_names, level_of, name_tokens, parse_full_name

FIXTURE = Path(__file__).parent / "fixtures" / "name_pairs.csv"
ROWS = list(csv.DictReader(FIXTURE.open(encoding="utf-8")))
LEVEL_ORDER = ["different", "weak", "probable", "strong", "exact"]


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['a']}|{r['b']}" for r in ROWS])
def test_name_pairs(row: dict[str, str]) -> None:
    result = compare_names(row["a"], row["b"])
    assert result.explanation  # every comparison says why
    if row["expect"] == "match":
        assert LEVEL_ORDER.index(result.level) >= LEVEL_ORDER.index(row["min_level"]), (row["note"], result)
    else:
        assert result.level in ("different", "weak"), (row["note"], result)


def test_comparison_is_symmetric_enough() -> None:
    for row in ROWS:
        ab, ba = compare_names(row["a"], row["b"]), compare_names(row["b"], row["a"])
        assert abs(ab.score - ba.score) < 0.15, row


def test_explanation_names_the_reason() -> None:
    result = compare_names("محمد", "محمود")
    assert "different names" in result.explanation
    result = compare_names("Mahmoud Ahmad al-Salem", "محمود احمد سالم")
    assert "mahmud" in result.explanation and result.token_alignments[0].left == "mahmoud"


def test_missing_name() -> None:
    assert compare_names("", "Ahmad").level == "missing"


@pytest.mark.parametrize(
    ("name", "first", "father", "grandfather", "family"),
    [
        ("محمود أحمد السالم", "محمود", "احمد", None, "السالم"),
        ("Mahmoud Ahmad Khaled al-Salem", "mahmoud", "ahmad", "khaled", "al-salem"),
        ("عبد الرحمن خالد الحسن", "عبد الرحمن", "خالد", None, "الحسن"),
        ("Mohammad bin Salman", "mohammad", "salman", None, None),
        ("Abdulrahman", "abdulrahman", None, None, None),
        ("Nour Eddine Hasan", "nour eddine", None, None, "hasan"),
    ],
)
def test_parse_full_name(name: str, first: str, father: str | None, grandfather: str | None, family: str | None) -> None:
    parts = parse_full_name(name).as_text()
    assert (parts["first"], parts["father"], parts["grandfather"], parts["family"]) == (first, father, grandfather, family)


def test_parse_family_first() -> None:
    parts = parse_full_name("al-Salem Mahmoud Ahmad", family_first=True).as_text()
    assert parts["first"] == "mahmoud" and parts["family"] == "al-salem"


def test_tokens_article_and_compounds() -> None:
    tokens = name_tokens("Abd El Rahman Al Hasan")
    assert len(tokens) == 2 and tokens[0].canonical == "abd al-rahman" and tokens[1].article
    assert name_tokens("عبدالرحمن")[0].canonical == name_tokens("Abdel-Rahman")[0].canonical


def test_dhu_joins_the_next_name() -> None:
    """ذو الفقار (Dhu al-Fiqar, Zu al-Fiqar) is one given name, not Dhu son of al-Fiqar."""
    for written in ("ذو الفقار علي حسن", "Zu al-Fiqar Ali Hasan", "Dhu al-Fiqar Ali Hasan"):
        parts = parse_full_name(written).as_text()
        assert parts["father"].lower() in ("علي", "ali") and parts["family"].lower() in ("حسن", "hasan"), parts


def test_level_bounds() -> None:
    assert level_of(1.0) == "exact" and level_of(0.0) == "different"


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40), st.text(max_size=40))
def test_compare_never_crashes(a: str, b: str) -> None:
    result = compare_names(a, b)
    assert 0.0 <= result.score <= 1.0
