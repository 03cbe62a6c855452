"""One Arabic fold and one digit table for all of athar, and a matching core that stands alone.

Names, facility labels and free text about marks used to fold Arabic three ways: two of them left
Persian ی and ک (typed on Persian keyboards, common in the diaspora) unfolded, so "فرع فلسطین"
was not "فرع فلسطين" for a facility, while it was for a name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import athar
from athar.core.dates import parse_partial_date
from athar.matching.digits import ARABIC_DIGITS, ascii_digits
from athar.matching.facilities import alias_keys, facility_key, normalise_name
from athar.matching.names import normalize_arabic
from athar.matching.names.normalize import fold_arabic
from athar.matching.scoring.text import normalise, words

# (as typed, as another family or archive typed it) — the same words
SAME_WORDS = [
    ("فرع فلسطین", "فرع فلسطين"),  # Persian yaa
    ("الشرطة العسکرية", "الشرطة العسكرية"),  # Persian kaf
    ("المخابرات الجوّيّة", "المخابرات الجوية"),  # shadda
    ("مشفى تشرين العسكري", "مشفي تشرين العسكري"),  # alef maqsura
    ("إدارة المخابرات العامة", "ادارة المخابرات العامه"),  # hamza on alef, taa marbuta
    ("سجن صيدنايا\u200f", "سجن صيدنايا"),  # right-to-left mark
    ("فـــرع الخطيب", "فرع الخطيب"),  # tatweel
    ("هيئة", "هييه"),  # hamza on yaa
    ("السويداء", "السويدا"),  # standalone hamza
]


@pytest.mark.parametrize(("one", "other"), SAME_WORDS)
def test_names_facilities_and_free_text_fold_arabic_alike(one: str, other: str) -> None:
    assert normalize_arabic(one) == normalize_arabic(other)
    assert normalise_name(one) == normalise_name(other)
    assert normalise(one) == normalise(other)
    assert words(one) == words(other)


@pytest.mark.parametrize(("one", "other"), SAME_WORDS)
def test_the_three_folds_give_the_same_letters(one: str, other: str) -> None:
    folded = fold_arabic(one)
    assert normalize_arabic(one) == " ".join(folded.split())
    assert normalise(one) == folded.casefold()
    assert normalise_name(one) == " ".join(re.sub(r"[\W_]+", " ", folded.casefold()).split())


def test_a_persian_spelling_names_the_same_facility() -> None:
    keys = alias_keys(["فرع فلسطين", "Palestine Branch"])
    assert facility_key("فرع فلسطین").name_key in keys
    assert facility_key("الفرع ۲۱۵ - المخابرات العسکرية").number == 215


def test_the_fold_keeps_line_breaks_for_clauses() -> None:
    assert fold_arabic("وشم على ساعده\nندبة") == "وشم علي ساعده\nندبه"
    assert words("وشم على ساعده\nندبة")[3] == "|"


@pytest.mark.parametrize(("raw", "ascii"), [("١٩٨٥", "1985"), ("۱۹۸۵", "1985"), ("٠٩٤٤ ٣٢١", "0944 321")])
def test_one_digit_table(raw: str, ascii: str) -> None:
    assert raw.translate(ARABIC_DIGITS) == ascii_digits(raw) == ascii
    assert fold_arabic(raw) == ascii
    assert parse_partial_date("١٥/٠٣/٢٠١٢" if raw == "١٩٨٥" else "2012-03-15").iso() == "2012-03-15"


ROOT = Path(athar.__file__).parent


def _python_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def test_arabic_digits_are_defined_once() -> None:
    """A digit table written out again would drift (two of the four copies missed Persian digits)."""
    digits = re.compile(r"[٠۰][١۱][٢۲][٣۳]")
    copies = [p.relative_to(ROOT) for p in _python_files(ROOT) if digits.search(p.read_text(encoding="utf-8"))]
    assert copies == [Path("matching/digits.py")]


# The synthetic-data generators write the spelling variants families make (a dropped hamza):
# they make variants, they do not compare text.
GENERATORS = {Path("matching/linkage/synthetic.py"), Path("matching/linkage/devset.py"),
              Path("matching/linkage/slips.py")}  # dev sets make the variants the normaliser must fold


def test_one_arabic_fold() -> None:
    """No module outside the names normaliser maps أ → ا by a table of its own."""
    own_fold = re.compile(r"""["']أ["']\s*:\s*["']ا["']""")
    folds = [p.relative_to(ROOT) for p in _python_files(ROOT) if own_fold.search(p.read_text(encoding="utf-8"))]
    assert set(folds) <= GENERATORS


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


@given(st.text())
@settings(max_examples=300, deadline=None)
def test_the_fold_is_idempotent_and_total(text: str) -> None:
    once = fold_arabic(text)
    assert fold_arabic(once) == once
    assert normalise(once) == normalise(text) and normalise_name(once) == normalise_name(text)
