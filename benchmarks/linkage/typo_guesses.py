"""How often the variants table's one-typo lookup reads a real given name as another name.

    ATHAR_SHARED_DATA=../shared/data nice .venv/bin/python -m benchmarks.linkage.typo_guesses [--json]

Reads the outside lists of Arabic given names in ``names/akhateeb_arabic_names`` (male, female and
popular first names, one word each; MIT; never copied into the repository) and prints every name
the table has no spelling for that the lookup nevertheless resolves to a name of the table (a
guess: ``tokens._token_keys`` falls back on ``alternate_canonical`` and ``near_canonical``). Each
guess is a real name read as a neighbour: a brother's or a sister's name would count as the same.
"""

from __future__ import annotations

import json
import sys

from athar.config import shared_data_dir
from athar.matching.names.tokens import tokenize_name
from athar.matching.names.variants import variant_index

LISTS = ("female-first-names-in-arabic.txt", "male-first--names-in-arabic.txt", "Most-Popular-Arabic-FirstNames.txt")


def guesses() -> tuple[int, list[tuple[str, str]]]:
    folder = shared_data_dir() / "names" / "akhateeb_arabic_names"
    words: set[str] = set()
    for name in LISTS:
        for line in (folder / name).read_text(encoding="utf-8-sig").splitlines():
            if line.strip() and " " not in line.strip():
                words.add(line.strip())
    index = variant_index()
    out = []
    for word in sorted(words):
        tokens = tokenize_name(word)
        if len(tokens) != 1:
            continue
        token = tokens[0]
        if token.index_key in index.exact or token.index_key in index.ambiguous:
            continue  # the table lists this spelling: not a guess
        if token.canonical:
            out.append((word, token.canonical))
    return len(words), out


def main() -> None:
    total, found = guesses()
    if "--json" in sys.argv:
        print(json.dumps({"names": total, "guessed": len(found), "guesses": found}, ensure_ascii=False))
        return
    for word, canonical in found:
        print(f"{word} -> {canonical}")
    print(f"{len(found)} of {total} names read as another name of the table")


if __name__ == "__main__":
    main()
