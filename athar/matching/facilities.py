"""Facility names as archives and families write them: ``215``, ``Branch 215``, ``فرع 215``,
``الفرع 215 - المخابرات العسكرية`` are one facility; a name with no number is a facility by its
normalised name (``Air Force Intelligence Mezzeh``).

Plain functions on text (no table, no database): the archive's ingest and the matching scores
both read labels with them, so a label names the same facility on both sides."""

from __future__ import annotations

import re
from dataclasses import dataclass

from athar.matching.names.normalize import fold_arabic

_NUMBER = re.compile(r"(?<!\d)(\d{1,4})(?!\d)")
FILLER_WORDS = frozenset({"branch", "the", "al", "فرع", "الفرع", "facility", "of"})


@dataclass(frozen=True)
class FacilityKey:
    """What a label says about a facility: its number if any, else a normalised name."""

    number: int | None
    name_key: str

    @property
    def code(self) -> str:
        return str(self.number) if self.number is not None else self.name_key.replace(" ", "-")


def normalise_name(text: str) -> str:
    """Case-folded, Arabic folded (``fold_arabic``), punctuation dropped, spaces collapsed."""
    text = fold_arabic(text).casefold()
    text = re.sub(r"[\W_]+", " ", text)
    return " ".join(text.split())


def facility_key(label: str) -> FacilityKey:
    """Read a facility label. A number that looks like a year is not a branch number."""
    text = fold_arabic(label)
    for match in _NUMBER.finditer(text):
        number = int(match.group(1))
        if not (1900 <= number <= 2100 and len(match.group(1)) == 4) and number > 0:
            return FacilityKey(number, normalise_name(label))
    words = [w for w in normalise_name(label).split() if w not in FILLER_WORDS]
    return FacilityKey(None, " ".join(words) or normalise_name(label))


def alias_keys(names: list[str]) -> set[str]:
    """Normalised forms of a facility's names, without filler words, for matching labels."""
    keys = set()
    for name in names:
        if not name:
            continue
        keys.add(normalise_name(name))
        keys.add(" ".join(w for w in normalise_name(name).split() if w not in FILLER_WORDS))
    return {k for k in keys if k}
