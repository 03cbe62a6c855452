"""The linkage model's reasons for a pair, read in the reader's language.

A run stores each pair's reasons as one English line (``athar.matching.linkage.explain_pairs``:
"first name: same name (+7.2); father's name: slipped copy (cut short or mistyped): not counted
(+0.0); fathers' names differ (namesakes?)"), because logs, ``--json`` and the CLI read English and
the matching core knows no gettext. Reviewers read them here: each part split into the comparison,
its level and its weight, each word translated from the fixed vocabulary below. A part this module
does not know (a newer model's label) is shown as written, never dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext, gettext_noop

# The comparisons of athar.matching.linkage.link.COMPARISON_NAMES and the level labels of
# athar.matching.linkage.settings (and the slip level of link.py), marked for translation.
VOCABULARY = (
    gettext_noop("first name"), gettext_noop("father's name"), gettext_noop("grandfather's name"),
    gettext_noop("great-grandfather's name"), gettext_noop("family name"), gettext_noop("mother's first name"),
    gettext_noop("mother's family name"),
    gettext_noop("birth year"), gettext_noop("sex"), gettext_noop("governorate"), gettext_noop("city"),
    gettext_noop("birth place"), gettext_noop("arrest date"), gettext_noop("arresting agency"),
    gettext_noop("same name"), gettext_noop("same consonants (other script or spelling)"),
    gettext_noop("similar spelling"), gettext_noop("one consonant apart"),
    gettext_noop("similar consonants (g/j/k, d/t/z, h dropped)"),
    gettext_noop("two consonants apart (names not in the variants table)"), gettext_noop("different"),
    gettext_noop("same year"), gettext_noop("one year apart"), gettext_noop("two years apart"),
    gettext_noop("more than two years apart"), gettext_noop("same month"), gettext_noop("within two months"),
    gettext_noop("further apart"), gettext_noop("same year, months apart"), gettext_noop("same"),
    gettext_noop("slipped copy (cut short or mistyped): not counted"),
    gettext_noop("first names differ (siblings or namesakes?)"), gettext_noop("fathers' names differ (namesakes?)"),
    gettext_noop("given names differ"), gettext_noop("fathers' names differ"), gettext_noop("mothers' names differ"),
    gettext_noop("sexes differ"), gettext_noop("decided by a reviewer"),
    gettext_noop("places"), gettext_noop("counted once (town, governorate, birth place)"),
    gettext_noop("second reading of the name"), gettext_noop("Muhammad X called X, or the family name written first"),
    gettext_noop("second readings of both names"), gettext_noop("each report read otherwise, to review"),
    gettext_noop("names agree and each report is the other's only candidate in the table: linked"),
    # (eighteenth and nineteenth sessions) link.SIBLING_NOTE, TOWNSFOLK_NOTE, BORN_THERE_NOTE, KUNYA_LEVEL, KUNYA_NOTE
    gettext_noop("own given names only alike, father and mother the same (siblings?): to review"),
    gettext_noop("given and family name and a place only, the man's own facts apart (namesakes of one town?): to review"),
    gettext_noop("one report's birth place is the other's town"),
    gettext_noop("a kunya against a given name: not compared"),
    gettext_noop("a kunya and a family name, no given name (which son of the family?): to review"),
    # (twentieth session) link.SKIPPED_LEVEL, LATIN_VOWELS_NOTE, PLACE_FAMILY_LEVEL, PLACE_FAMILY_NOTE
    gettext_noop("a generation left out (one report's father is the other's grandfather): not compared"),
    gettext_noop("given names in Latin letters differ by their vowels only, born the same year: to review"),
    gettext_noop("ages say births more than 8 years apart"),  # constraints._ages_apart
    gettext_noop("the family name is the nisba of the report's own place: not compared"),
    gettext_noop("a family name that may be the place's nisba, and not the same given and father's or mother's name: to review"),
    # (twenty-first session) clustering.AMBIGUOUS_REASON
    gettext_noop("a given and a family name only, and a namesake as strongly linked (which of the two?): to review"),
    # (twenty-second session) link.FATHER_AS_FAMILY_LEVEL
    gettext_noop("one report's family name is the other's father's name (a given and a father's name): not compared"),
    # (twenty-third session) link.OTHER_TOWN_LEVEL, MARRIED_NAME_LEVEL
    gettext_noop("the family name of a report naming no town is the nisba of the other's town: not compared"),
    gettext_noop("a woman's family names (her father's and her husband's may both be written), one given name, year and town: not compared"),
    # (thirtieth session) link.REAL_NAMES_NOTE
    gettext_noop("given names of two different names close in letters, born in different years (brothers?): to review"),
)
KNOWN = frozenset(VOCABULARY)
_PART = re.compile(r"^(?P<name>[^:]+): (?P<level>.+) \((?P<weight>[+-]\d+(?:\.\d+)?)\)$")
_YEARS = re.compile(r"^birth years (?P<a>\d+) and (?P<b>\d+) are more than (?P<gap>\d+) years apart$")
_AGREED = re.compile(r"^(?P<what>birth years|arrest months|arrest years) differ, each stated by two reports of its side "
                     r"\((?P<a>[\d-]+) / (?P<b>[\d-]+)\)$")
# constraints.corroborated_conflict's reasons, one sentence per fact
AGREED_REASONS = {
    "birth years": gettext_noop("birth years differ, each stated by two reports of its side (%(a)s / %(b)s)"),
    "arrest months": gettext_noop("arrest months differ, each stated by two reports of its side (%(a)s / %(b)s)"),
    "arrest years": gettext_noop("arrest years differ, each stated by two reports of its side (%(a)s / %(b)s)"),
}
_AGREED_BY_MANY = re.compile(r"^(?P<what>birth years|arrest months|arrest years) differ, (?P<n>\d+) or more reports of one "
                             r"side agree \((?P<a>[\d-]+) / (?P<b>[\d-]+)\)$")
AGREED_BY_MANY_REASONS = {
    "birth years": gettext_noop("birth years differ, %(n)s or more reports of one side agree (%(a)s / %(b)s)"),
    "arrest months": gettext_noop("arrest months differ, %(n)s or more reports of one side agree (%(a)s / %(b)s)"),
    "arrest years": gettext_noop("arrest years differ, %(n)s or more reports of one side agree (%(a)s / %(b)s)"),
}
_KEPT_APART = re.compile(r"^kept apart: (?P<reason>.+?)(?: \(reports (?P<a>\d+) and (?P<b>\d+)\))?$")


@dataclass(frozen=True)
class LinkReason:
    """One part of a pair's reasons: ``text`` in the active language; ``weight`` in bits as written (evidence
    for the same person when positive), or ""; ``known`` False when shown as the model wrote it."""

    text: str
    weight: str = ""  # as the model wrote it ("+7.2"), shown left to right
    known: bool = True


def _word(english: str) -> tuple[str, bool]:
    return (gettext(english), True) if english in KNOWN else (english, False)


def _reason(part: str) -> LinkReason:
    match = _PART.match(part)
    if match:
        name, known_name = _word(match["name"])
        level, known_level = _word(match["level"])
        return LinkReason(f"{name}: {level}", match["weight"], known_name and known_level)
    kept = _KEPT_APART.match(part)
    if kept:
        why, known = _word(kept["reason"])
        years = _YEARS.match(kept["reason"])
        if years:
            why, known = gettext("birth years %(a)s and %(b)s are more than %(gap)s years apart") % years.groupdict(), True
        for pattern, reasons in ((_AGREED, AGREED_REASONS), (_AGREED_BY_MANY, AGREED_BY_MANY_REASONS)):
            agreed = pattern.match(kept["reason"])
            if agreed:
                why, known = gettext(reasons[agreed["what"]]) % agreed.groupdict(), True
        return LinkReason(gettext("kept apart: %(reason)s") % {"reason": why}, "", known)
    text, known = _word(part)
    return LinkReason(text, "", known)


def readable(explanation: object) -> list[LinkReason]:
    """The reasons of a stored explanation (``{"why": "a; b"}`` or a list), in the active language."""
    why = explanation.get("why") if isinstance(explanation, dict) else explanation
    if isinstance(why, (list, tuple)):
        parts = [str(w).strip() for w in why]
    elif isinstance(why, str):
        parts = [p.strip() for p in why.split(";")]
    else:
        parts = []
    return [_reason(p) for p in parts if p]
