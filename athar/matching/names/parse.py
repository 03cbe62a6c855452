"""Split a full name into parts: first, father, grandfather, family.

Syrian order is ``first father [grandfather] family``; "بن/ابن/bin/ibn" mark the next
name as the father's. Lists sometimes put the family name first: pass
``family_first=True`` when the source is known to do so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from athar.matching.names.tokens import NameToken, tokenize_name


@dataclass(frozen=True)
class NameParts:
    """Parts of a personal name; ``None`` when the name does not say."""

    first: NameToken | None = None
    father: NameToken | None = None
    grandfather: NameToken | None = None
    family: NameToken | None = None
    extra: tuple[NameToken, ...] = field(default_factory=tuple)  # further ancestors
    had_marker: bool = False

    def as_text(self) -> dict[str, str | None]:
        """Display text of each part."""
        return {k: (getattr(self, k).display() if getattr(self, k) else None) for k in ("first", "father", "grandfather", "family")}


def parse_full_name(name: str | None, *, family_first: bool = False) -> NameParts:
    """Parse a full name (either script). With a marker ("X bin Y Z") the names after it
    are ancestors and the last one is the family name only when it carries an article
    or more than two ancestors follow."""
    return parse_tokens(tokenize_name(name), family_first=family_first)


def parse_tokens(raw: Sequence[NameToken], *, family_first: bool = False) -> NameParts:
    """``parse_full_name`` of a name already tokenised (``tokenize_name``, markers included): the
    linkage keeps each distinct name's tokens rather than tokenising it a second time."""
    had_marker = any(t.marker for t in raw)
    tokens = [t for t in raw if not t.marker]
    if not tokens:
        return NameParts()
    if family_first and len(tokens) > 1:
        tokens = tokens[1:] + tokens[:1]
    if len(tokens) == 1:
        return NameParts(first=tokens[0], had_marker=had_marker)
    if len(tokens) == 2:
        if had_marker:  # "Ahmad bin Salem": Salem is the father
            return NameParts(first=tokens[0], father=tokens[1], had_marker=True)
        return NameParts(first=tokens[0], family=tokens[1])
    if len(tokens) == 3:
        return NameParts(first=tokens[0], father=tokens[1], family=tokens[2], had_marker=had_marker)
    return NameParts(
        first=tokens[0], father=tokens[1], grandfather=tokens[2], family=tokens[-1],
        extra=tuple(tokens[3:-1]), had_marker=had_marker,
    )
