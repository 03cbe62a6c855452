"""Normalising free text about a person for comparison: a fixed, documented pipeline.

1. athar's one Arabic fold (``athar.matching.names.normalize.fold_arabic``: letter forms unified,
   أ إ آ ٱ → ا, ة → ه, ى → ي, ؤ → و, ئ → ي, Persian ی ک → ي ك, diacritics and tatweel dropped,
   Arabic-Indic digits to ASCII), then lower case; line breaks are kept (they end a clause).
2. Split into words at anything that is not a letter or digit; punctuation that separates clauses
   (, ; . : newline and the words "and"/"و") is kept as a boundary marker ``|``.
3. Each word gets its *forms*: itself, and for Arabic words the word without the article and
   the prefixes و ب ل ف ك, and without a final pronoun ه / ها ("his forearm" ساعده → ساعد).
   English words also give their form without a plural "s".
"""

from __future__ import annotations

import re

from athar.matching.names.normalize import fold_arabic

_TOKEN = re.compile(r"[^\W_]+|[,;.:\n،؛]")
BOUNDARY = "|"
_PREFIXES = ("وال", "بال", "فال", "كال", "لل", "ال", "و", "ب", "ل", "ف", "ك")
_ARABIC = re.compile(r"[\u0600-\u06FF]")


def normalise(text: str) -> str:
    """Step 1: one comparable string (never raises)."""
    return fold_arabic(text or "").casefold()


def words(text: str) -> list[str]:
    """Step 2: words, with ``|`` where a clause ends."""
    out = []
    for token in _TOKEN.findall(normalise(text)):
        out.append(BOUNDARY if not token[0].isalnum() or token in ("and", "و") else token)
    return out


def forms(word: str) -> frozenset[str]:
    """Step 3: the forms a word may take in the vocabulary."""
    found = {word}
    if _ARABIC.match(word):
        for prefix in _PREFIXES:
            if word.startswith(prefix) and len(word) - len(prefix) >= 2:
                found.add(word[len(prefix):])
        for base in list(found):
            for suffix in ("ها", "ه"):
                if base.endswith(suffix) and len(base) - len(suffix) >= 2:
                    found.add(base[: -len(suffix)])
    elif word.endswith("s") and len(word) > 3:
        found.add(word[:-1])
    return frozenset(found)


def phrase(text: str) -> tuple[str, ...]:
    """A vocabulary entry as normalised words (its own article dropped: الأيسر → ايسر)."""
    out = []
    for word in words(text):
        if word == BOUNDARY:
            continue
        out.append(word[2:] if _ARABIC.match(word) and word.startswith("ال") and len(word) > 3 else word)
    return tuple(out)


def digits_key(text: str) -> str:
    """A detainee or report number for comparison: its digits, leading zeros dropped."""
    digits = re.sub(r"\D", "", normalise(text))
    return digits.lstrip("0") or ("0" if digits else "")
