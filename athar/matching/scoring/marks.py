"""Distinguishing marks from free text in Arabic or English: kind, body location, side, content.

``parse_marks("tattoo of a map of Palestine on the left forearm; scar above the right eyebrow")``
gives two :class:`Mark` records. The vocabulary is data (``data/marks.yaml``). A mark's side is
``""`` when the text does not say; an unknown side is compatible with either side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from athar.matching.scoring.text import BOUNDARY, forms, phrase, words

OPPOSITE = {"left": "right", "right": "left"}


@dataclass(frozen=True)
class Mark:
    """One mark: its kind (``tattoo``), location (``forearm``), region (``arm``), side, contents."""

    kind: str
    location: str = ""
    region: str = ""
    side: str = ""
    contents: frozenset[str] = field(default_factory=frozenset)

    def describe(self) -> str:
        """Plain English, for reasons: 'tattoo (map of palestine), left forearm'."""
        text = self.kind.replace("_", " ")
        if self.contents:
            text += " (" + ", ".join(sorted(c.replace("_", " ") for c in self.contents)) + ")"
        where = " ".join(p for p in (self.side, self.location.replace("_", " ")) if p)
        return f"{text}, {where}" if where else text


@dataclass(frozen=True)
class Vocabulary:
    kinds: list[tuple[str, list[tuple[str, ...]], list[set[tuple[str, ...]]]]]
    locations: dict[tuple[str, ...], tuple[str, str]]
    sides: dict[tuple[str, ...], str]
    contents: dict[tuple[str, ...], str]
    by_first_word: dict[str, list[tuple[str, ...]]]


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    """The shipped vocabulary, normalised once, with every phrase indexed by its first word."""
    raw: dict[str, Any] = yaml.safe_load(
        resources.files("athar.matching.scoring").joinpath("data/marks.yaml").read_text(encoding="utf-8"))
    kinds = [(name, [phrase(w) for w in spec.get("words", [])],
              [{phrase(w) for w in group} for group in spec.get("all_of", [])])
             for name, spec in raw["kinds"].items()]
    locations = {phrase(w): (name, spec["region"]) for name, spec in raw["locations"].items() for w in spec["words"]}
    sides = {phrase(w): name for name, ws in raw["sides"].items() for w in ws}
    contents = {phrase(w): name for name, ws in raw["contents"].items() for w in ws}
    phrases = {e for _, entries, groups in kinds for e in [*entries, *(x for g in groups for x in g)]}
    phrases |= set(locations) | set(sides) | set(contents)
    index: dict[str, list[tuple[str, ...]]] = {}
    for entry in sorted((p for p in phrases if p), key=lambda e: -len(e)):
        index.setdefault(entry[0], []).append(entry)
    return Vocabulary(kinds, locations, sides, contents, index)


def _present(tokens: list[frozenset[str]]) -> list[tuple[tuple[str, ...], int]]:
    """Every vocabulary phrase in a clause with its position, longest phrases first."""
    index, hits = vocabulary().by_first_word, []
    for i, forms_i in enumerate(tokens):
        for form in forms_i:
            for entry in index.get(form, ()):
                if len(entry) <= len(tokens) - i and all(entry[j] in tokens[i + j] for j in range(1, len(entry))):
                    hits.append((entry, i))
    return sorted(set(hits), key=lambda h: (-len(h[0]), h[1]))


def _kind(found: set[tuple[str, ...]]) -> str:
    for name, entries, groups in vocabulary().kinds:
        if any(e in found for e in entries):
            return name
        if groups and all(any(e in found for e in group) for group in groups):
            return name
    return ""


@lru_cache(maxsize=1)
def _kind_starts() -> frozenset[str]:
    starts = {entry[0] for _, entries, _ in vocabulary().kinds for entry in entries if entry}
    starts |= {entry[0] for _, _, groups in vocabulary().kinds for group in groups for entry in group if entry}
    return frozenset(starts)


def _clauses(text: str) -> list[list[frozenset[str]]]:
    """Clauses split at punctuation, "and"/"و", and a و-prefixed mark word (وندبة: "and a scar")."""
    out: list[list[frozenset[str]]] = [[]]
    for word in words(text):
        if word == BOUNDARY:
            out.append([])
            continue
        if word.startswith("و") and out[-1] and forms(word[1:]) & _kind_starts():
            out.append([])
        out[-1].append(forms(word))
    return [c for c in out if c]


def parse_marks(text: str) -> list[Mark]:
    """The marks a text describes. A clause without a kind adds to the mark before it."""
    return list(_parse_cached(text or ""))


@lru_cache(maxsize=65536)
def _parse_cached(text: str) -> tuple[Mark, ...]:
    vocab, marks = vocabulary(), []
    pending: dict[str, Any] | None = None
    for clause in _clauses(text):
        hits = _present(clause)
        kind = _kind({e for e, _ in hits})
        locations = [vocab.locations[e] for e, _ in hits if e in vocab.locations]
        sides = {vocab.sides[e] for e, _ in hits if e in vocab.sides}
        contents = {vocab.contents[e] for e, _ in hits if e in vocab.contents}
        if kind or pending is None:
            if pending is not None:
                marks.append(_mark(pending))
            pending = {"kind": kind or "mark", "locations": [], "sides": set(), "contents": set()}
        pending["locations"] += locations
        pending["sides"] |= sides
        pending["contents"] |= contents
    if pending is not None:
        marks.append(_mark(pending))
    return tuple(m for m in marks if m.kind != "mark" or m.location or m.contents)


def _mark(parts: dict[str, Any]) -> Mark:
    kind = parts["kind"]
    locations = [loc for loc in parts["locations"] if not (kind != "missing_teeth" and loc[1] == "teeth")]
    if kind in ("missing_teeth", "gold_tooth"):
        locations = [loc for loc in parts["locations"] if loc[1] == "teeth"] or [("teeth", "teeth")]
    location, region = _most_specific(locations)
    side = next(iter(parts["sides"])) if len(parts["sides"]) == 1 else ""
    return Mark(kind, location, region, side, frozenset(parts["contents"]))


def _most_specific(locations: list[tuple[str, str]]) -> tuple[str, str]:
    """'left forearm' names forearm; a bare region word (arm, face) loses to a precise one."""
    if not locations:
        return "", ""
    precise = [loc for loc in locations if loc[0] != loc[1]]
    return (precise or locations)[0]


def mark_tokens(marks: list[Mark]) -> set[str]:
    """Comparison tokens of a set of marks (see features.marks_feature)."""
    tokens = set()
    for m in marks:
        tokens.add(f"K:{m.kind}")
        if m.region:
            tokens.add(f"R:{m.kind}:{m.region}")
        if m.location:
            tokens.add(f"L:{m.kind}:{m.location}")
            if m.side:
                tokens.add(f"S:{m.kind}:{m.location}:{m.side}")
        for content in m.contents:
            tokens.add(f"C:{content}")
    return tokens
