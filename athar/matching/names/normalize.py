"""Step 1 of the name pipeline: Unicode and script normalisation (see docs/names.md).

``fold_arabic`` is athar's one Arabic fold: every part of the codebase that compares Arabic text
(names, facility labels, free text about marks and places) calls it, so one letter is folded the
same way everywhere (data/arabic_letters.yaml). ``normalize_arabic`` and ``normalize_latin`` are
idempotent and never raise on any ``str``. They keep the text readable: keys are made later
(phonetic.py).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from athar.matching.digits import ARABIC_DIGITS
from athar.matching.names.resources import load_table

_ARABIC_LETTER = re.compile(r"[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]")
_LATIN_LETTER = re.compile(r"[A-Za-z\u00C0-\u024F]")
_SPACES = re.compile(r"\s+")
# separators inside a name: keep hyphen/apostrophe handling to the tokenizer
_NON_NAME = re.compile(r"[^\w\s'\-]", re.UNICODE)


@lru_cache(maxsize=1)
def _arabic_translation() -> dict[int, str]:
    table = load_table("arabic_letters")
    mapping: dict[int, str] = {k: chr(v) for k, v in ARABIC_DIGITS.items()}
    for group in ("unify", "punctuation"):
        mapping.update({ord(k): v for k, v in table[group].items()})
    mapping.update({ord(ch): "" for ch in table["delete"]})
    return mapping


def mixes_scripts(text: str) -> bool:
    """Does the text hold both Arabic and Latin letters?"""
    return bool(_ARABIC_LETTER.search(text)) and bool(_LATIN_LETTER.search(text))


def detect_script(text: str) -> str:
    """'ar' when the text holds more Arabic letters than Latin ones, 'latin' otherwise."""
    arabic = len(_ARABIC_LETTER.findall(text))
    latin = len(_LATIN_LETTER.findall(text))
    if arabic == 0 and latin == 0:
        return "none"
    return "ar" if arabic >= latin else "latin"


class _ControlChars(dict[int, int | None]):
    """Control, format, private-use and surrogate code points (all planes) → deleted; any other
    code point → itself. Filled as characters are met (``str.translate`` asks ``__missing__``
    once per new code point): a table of all 1.1 million code points took a quarter of a second,
    paid by every ``athar`` command that loaded the registry's columns."""

    DROP = frozenset({"Cc", "Cf", "Co", "Cs"})

    def __missing__(self, cp: int) -> int | None:
        char = chr(cp)
        value = None if unicodedata.category(char) in self.DROP and char not in "\t\n\r" else cp
        self[cp] = value
        return value


_CONTROL_CHARS = _ControlChars()


def normalize_unicode(text: str) -> str:
    """NFKC (folds presentation forms and ligatures), then strip controls, collapse spaces."""
    text = unicodedata.normalize("NFKC", text)
    if not text.isascii() or not text.isprintable():
        text = text.translate(_CONTROL_CHARS)
    return _SPACES.sub(" ", text).strip()


def fold_arabic(text: str) -> str:
    """The Arabic fold, letter by letter: harakat, tatweel and zero-width marks dropped; alef,
    hamza-carrier, taa marbuta and alef maqsura forms unified; Persian/Urdu letters (ی ک گ پ …)
    as Arabic ones; Arabic-Indic digits as ASCII; standalone hamza dropped. Spaces and line breaks
    are left as they are, and Latin letters keep their case (callers fold case as they need).

    Decomposed first (NFKD), so a letter carrying a mark is mapped as its base letter once the
    mark is deleted (ۂ = ہ + hamza → ه): with NFKC the base was left for a second pass to map,
    and normalising twice gave another name (found by fuzz/fuzz_names.py)."""
    text = unicodedata.normalize("NFKD", text)
    text = text.translate(_arabic_translation())
    text = text.replace(load_table("arabic_letters")["standalone_hamza"], "")
    return unicodedata.normalize("NFKC", text)


def normalize_arabic(text: str) -> str:
    """Arabic-script normalisation of a name: the fold, controls removed, spaces collapsed."""
    return unicodedata.normalize("NFC", normalize_unicode(fold_arabic(text)))


# Latin letters that carry no accent to take off (NFKD leaves them whole): Turkish dotless ı above
# all — "Hacı", "Rıza", "Tarık" in a Turkish document, where "HACI" upper case already read i; a
# name key dropped the letter ("Rıza" → rz) — and the ħ of ISO romanisations of ح.
_UNACCENTED = str.maketrans({"ı": "i", "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ə": "e",
                             "ß": "ss", "æ": "ae", "œ": "oe"})


# Letters that write ش with a mark NFKD would take off, leaving s: the Turkish and Romanian s with a
# cedilla or comma ("Hişam", "Ayşe", "Alşami" in a Turkish document: read "hisam", "ayse", and
# "Alşami" became the given name Sami) and the s with a caron of Czech and of the DIN/ISO Arabic
# romanisations ("Hišām"). ṣ (ص) keeps its reading s.
_SHIN = str.maketrans({"ş": "sh", "Ş": "Sh", "ș": "sh", "Ș": "Sh", "š": "sh", "Š": "Sh"})


def fold_latin(text: str) -> str:
    """Lower case, accents removed (é → e, ā → a, ı → i, ş → sh), ʿayn/hamza marks → apostrophe."""
    if text.isascii():
        return text.replace("`", "'").lower()
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFC", text).translate(_SHIN))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[ʿʾ‘’`´ʼ]", "'", text)
    return text.lower().translate(_UNACCENTED)


# The chat alphabet (Arabizi) writes with digits, inside a word, the Arabic letters Latin has none for:
# 7 ح, 5 and 7' خ, 3 ع, 2 ء, 6 ط, 8 and 3' غ, 9 ق ("Mo7ammad", "5aled", "Sa3eed", "MER3I", "6ariq").
# A digit only counts so inside a word that has letters: "1985" stays a year.
_ARABIZI_WORD = re.compile(r"[\w']+")  # whole words: a digit run's last digit is no letter
_ASCII_LETTER = re.compile(r"[a-z]")
_ARABIZI_PAIRS = (("3'", "gh"), ("7'", "kh"), ("2", "'"), ("3", "'"), ("5", "kh"), ("6", "t"), ("7", "h"),
                  ("8", "gh"), ("9", "q"))


def _arabizi(match: re.Match[str]) -> str:
    word = match.group(0)
    if not _ASCII_LETTER.search(word) or not any(ch in "2356789" for ch in word):
        return word
    if sum(ch.isdigit() for ch in word) * 2 > sum(ch.isalpha() for ch in word):
        return word  # a code, not a name: "B215", "A7"
    for digits, letters in _ARABIZI_PAIRS:
        word = word.replace(digits, letters)
    return word


def normalize_latin(text: str) -> str:
    """Latin-script normalisation: NFKC, accent folding, lower case, chat-alphabet digits inside a word
    as letters, punctuation to spaces."""
    text = fold_latin(normalize_unicode(text))
    text = _NON_NAME.sub(" ", text).replace("_", " ")  # first: a chat-alphabet word is a word once cut
    if any(ch in "2356789" for ch in text):
        text = _ARABIZI_WORD.sub(_arabizi, text)
    return _SPACES.sub(" ", text).strip()


@lru_cache(maxsize=100_000)
def normalize_name(text: str | None) -> str:
    """Normalise a name in either script (mixed text gets both treatments)."""
    if not text:
        return ""
    text = str(text)
    if not text.isascii():  # plain ASCII holds no Arabic to normalise
        text = normalize_arabic(text)
    return normalize_latin(text)
