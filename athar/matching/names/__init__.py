"""Arabic and Latin personal names: normalise, tokenise, key, parse and compare.

The pipeline (docs/names.md):

0. ``read_written_name``   titles, kunyas, notes, nicknames and a glued place set apart;
                           family-name-first order and abbreviations read (written.py).
1. ``normalize_name``      Unicode NFKC, harakat/tatweel/zero-width removed, alef/hamza/
                           taa marbuta/alef maqsura unified, Persian letters and digits.
2. ``tokenize_name``       name tokens: compounds joined (عبد الرحمن, Nour Eddine), the
                           article stripped and remembered, patronymic markers flagged.
3. keys on each token      ``canonical`` (known-variants table), ``key`` (Latin spelling
                           key), ``skeleton`` / ``block_key`` (cross-script consonants).
4. ``compare_names``       aligned token comparison with a readable explanation.
5. ``parse_full_name``     first / father / grandfather / family.
"""

from athar.matching.names.compare import (
    NameComparison,
    TokenAlignment,
    compare_names,
    compare_tokens,
    level_of,
)
from athar.matching.names.keys import NameKeys, name_keys
from athar.matching.names.normalize import (
    detect_script,
    normalize_arabic,
    normalize_latin,
    normalize_name,
)
from athar.matching.names.parse import NameParts, parse_full_name
from athar.matching.names.phonetic import latin_key, skeleton, transliterate
from athar.matching.names.tokens import NameToken, name_tokens, tokenize_name
from athar.matching.names.written import WrittenName, read_written_name, written_extras

__all__ = [
    "NameComparison",
    "NameKeys",
    "NameParts",
    "NameToken",
    "TokenAlignment",
    "WrittenName",
    "compare_names",
    "compare_tokens",
    "detect_script",
    "latin_key",
    "level_of",
    "name_keys",
    "name_tokens",
    "normalize_arabic",
    "normalize_latin",
    "normalize_name",
    "parse_full_name",
    "read_written_name",
    "skeleton",
    "tokenize_name",
    "transliterate",
    "written_extras",
]
