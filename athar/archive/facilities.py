"""Facility names as archives and families write them: ``215``, ``Branch 215``, ``فرع 215``,
``الفرع 215 - المخابرات العسكرية`` are one facility; a name with no number is a facility by its
normalised name (``Air Force Intelligence Mezzeh``)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from athar.core.dates import ARABIC_DIGITS

_NUMBER = re.compile(r"(?<!\d)(\d{1,4})(?!\d)")
_ARABIC_FOLD = str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ة": "ه", "ى": "ي", "ـ": None})
_DIACRITICS = re.compile(r"[\u064B-\u0652\u0670]")
_FILLER_WORDS = {"branch", "the", "al", "فرع", "الفرع", "facility", "of"}


@dataclass(frozen=True)
class FacilityKey:
    """What a label says about a facility: its number if any, else a normalised name."""

    number: int | None
    name_key: str

    @property
    def code(self) -> str:
        return str(self.number) if self.number is not None else self.name_key.replace(" ", "-")


def normalise_name(text: str) -> str:
    """Case-folded, Arabic letter forms unified, punctuation dropped, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text).translate(ARABIC_DIGITS)
    text = _DIACRITICS.sub("", text).translate(_ARABIC_FOLD).casefold()
    text = re.sub(r"[\W_]+", " ", text)
    return " ".join(text.split())


def facility_key(label: str) -> FacilityKey:
    """Read a facility label. A number that looks like a year is not a branch number."""
    text = unicodedata.normalize("NFKC", label).translate(ARABIC_DIGITS)
    for match in _NUMBER.finditer(text):
        number = int(match.group(1))
        if not (1900 <= number <= 2100 and len(match.group(1)) == 4) and number > 0:
            return FacilityKey(number, normalise_name(label))
    words = [w for w in normalise_name(label).split() if w not in _FILLER_WORDS]
    return FacilityKey(None, " ".join(words) or normalise_name(label))


@lru_cache(maxsize=1)
def starting_table() -> dict[str, Any]:
    """The shipped table of agencies and facilities (as publicly reported; editable data)."""
    text = resources.files("athar.archive").joinpath("data/facilities.yaml").read_text(encoding="utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return data


def alias_keys(names: list[str]) -> set[str]:
    """Normalised forms of a facility's names, without filler words, for matching labels."""
    keys = set()
    for name in names:
        if not name:
            continue
        keys.add(normalise_name(name))
        keys.add(" ".join(w for w in normalise_name(name).split() if w not in _FILLER_WORDS))
    return {k for k in keys if k}
