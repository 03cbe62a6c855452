"""Keys of one name (part or full name) for blocking and for SQL comparisons."""

from __future__ import annotations

from dataclasses import dataclass

from athar.matching.names.tokens import name_tokens


@dataclass(frozen=True)
class NameKeys:
    """Keys of a name: all strings, empty when the name is empty.

    ``name_id``   '=canonical' for known names, else the Latin spelling key (exact level)
    ``block``     cross-script skeleton of the canonical name or of the spelling (blocking)
    ``skeleton``  cross-script skeleton of the spelling itself
    ``script``    'ar' or 'latin'
    """

    name_id: str = ""
    block: str = ""
    skeleton: str = ""
    script: str = ""
    text: str = ""


def name_keys(name: str | None) -> NameKeys:
    """Keys of a name part (all its tokens joined: "Abd al-Rahman" is one token anyway)."""
    tokens = name_tokens(name)
    if not tokens:
        return NameKeys()
    return NameKeys(
        name_id=" ".join(t.name_id for t in tokens),
        block="".join(t.block_key for t in tokens),
        skeleton="".join(t.skeleton for t in tokens),
        script=tokens[0].script,
        text=" ".join(t.display() for t in tokens),
    )
