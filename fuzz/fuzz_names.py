"""atheris harness: the Arabic/Latin name normaliser, tokeniser, keys, parser and comparison.

Input: two names (UTF-8, separated by 0x1F). Contract, from ``athar.matching.names``' docstrings:
nothing raises on any ``str``; ``normalize_arabic`` / ``normalize_latin`` / ``normalize_name``
are idempotent; a normalised name holds no control or format characters and no doubled or
outer spaces; ``compare_names`` gives a score in [0, 1] with a known level, and a name compared
with itself scores 1 (or "missing" when it has no name token). Any exception is a finding.

    .venv/bin/python fuzz/fuzz_names.py -runs=20000 fuzz/corpus/names
"""

from __future__ import annotations

import sys
import unicodedata

import atheris

from common import UNIT_SEP, text_of

with atheris.instrument_imports(include=["athar"]):
    from athar.matching.names import (
        compare_names,
        detect_script,
        latin_key,
        name_keys,
        normalize_arabic,
        normalize_latin,
        normalize_name,
        parse_full_name,
        skeleton,
        tokenize_name,
        transliterate,
    )
    from athar.matching.names.compare import LEVELS

LEVEL_NAMES = {name for _bound, name in LEVELS} | {"missing"}
BAD_CATEGORIES = {"Cc", "Cf", "Co", "Cs"}


def check_normalised(text: str) -> None:
    for normalise in (normalize_arabic, normalize_latin, normalize_name):
        once = normalise(text)
        assert isinstance(once, str)
        assert normalise(once) == once, f"{normalise.__name__} is not idempotent: {text!r} → {once!r} → {normalise(once)!r}"
    name = normalize_name(text)
    assert name == name.strip() and "  " not in name, repr(name)
    assert not any(unicodedata.category(ch) in BAD_CATEGORIES for ch in name), repr(name)


def check_one(text: str) -> None:
    check_normalised(text)
    assert detect_script(text) in ("ar", "latin", "none")
    tokens = tokenize_name(text)
    for token in tokens:
        assert token.text and token.script in ("ar", "latin"), token
        keys = (token.core, token.key, token.index_key, token.skeleton, token.block_key, token.name_id)
        assert all(isinstance(k, str) for k in keys)
        token.display()
        transliterate(token.text)
        latin_key(token.text)
        skeleton(token.text, token.script)
    name_keys(text)
    for family_first in (False, True):
        parse_full_name(text, family_first=family_first).as_text()
    self_match = compare_names(text, text)
    if self_match.level != "missing":
        assert self_match.score == 1.0, (text, self_match)


def TestOneInput(data: bytes) -> None:
    left, _sep, right = text_of(data).partition(UNIT_SEP)
    check_one(left)
    check_one(right)
    result = compare_names(left, right)
    assert 0.0 <= result.score <= 1.0 and result.level in LEVEL_NAMES, result
    assert isinstance(result.explanation, str) and result.explanation


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
