"""Arabic-Indic (٠١٢…) and Persian (۰۱۲…) digits as ASCII digits: the one table every part of athar
uses (dates, phones, codes, detainee numbers, names, facility labels)."""

from __future__ import annotations

ARABIC_INDIC = "٠١٢٣٤٥٦٧٨٩"
PERSIAN = "۰۱۲۳۴۵۶۷۸۹"
ARABIC_DIGITS: dict[int, int] = str.maketrans(ARABIC_INDIC + PERSIAN, "0123456789" * 2)


def ascii_digits(text: str) -> str:
    """The text with every Arabic-Indic and Persian digit written as an ASCII digit."""
    return text.translate(ARABIC_DIGITS)


WESTERN_TO_ARABIC_INDIC: dict[int, int] = str.maketrans("0123456789", ARABIC_INDIC)


def arabic_indic_digits(text: str) -> str:
    """The text with every ASCII digit written as an Arabic-Indic digit (a code read aloud in Arabic)."""
    return text.translate(WESTERN_TO_ARABIC_INDIC)
