"""Derive the normalised and keyed columns the linkage model compares.

Input columns (all optional except ``unique_id``): first_name, father_name,
grandfather_name, family_name, mother_name, full_name (either script), full_name_latin
(a second script, optional), sex, birth_year, birth_place, governorate, city,
arrest_date (ISO: YYYY, YYYY-MM or YYYY-MM-DD), arresting_agency.

Name parts missing from their own columns are taken from the parsed full name.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any

import pandas as pd
import yaml

from athar.matching.dates import read_age, read_date, read_part_of_year
from athar.matching.facilities import facility_key
from athar.matching.linkage.order import OrderVotes, WrittenOrder, name_vote_keys, without_inner_titles, written_order
from athar.matching.names import name_keys, name_tokens, normalize_name
from athar.matching.names.parse import parse_tokens
from athar.matching.names.phonetic import arabic_rasm, coarse_skeleton, dotless
from athar.matching.names.tokens import NameToken
from athar.matching.names.written import read_written_name, sex_of_titles, without_brackets

READING_COLUMN = "second_reading"  # which second reading a report gets, 0 for none (readings.py)
NAME_PARTS = ("first", "father", "grandfather", "family", "mother", "mother_family", "ancestor")
INPUT_COLUMNS = [
    "unique_id", "first_name", "father_name", "grandfather_name", "family_name", "mother_name",
    "full_name", "sex", "birth_year", "birth_place", "governorate", "city", "arrest_date",
    "arresting_agency",
]
_SEX = {"m": "M", "male": "M", "man": "M", "ذكر": "M", "f": "F", "female": "F", "woman": "F", "انثي": "F", "انثى": "F"}


def _table(name: str) -> Any:
    text = resources.files("athar.matching.linkage").joinpath("data").joinpath(name).read_text("utf-8")
    return yaml.safe_load(text)


@lru_cache(maxsize=1)
def _governorates() -> dict[str, str]:
    out: dict[str, str] = {}
    for latin, entry in _table("syrian_names.yaml")["governorates"].items():
        gid = latin.lower()
        for form in (latin, entry["ar"], *_other_spellings().get(entry["ar"], [])):
            out[normalize_name(form)] = gid
            out[name_keys(form).block] = gid
    return out


@lru_cache(maxsize=1)
def _other_spellings() -> dict[str, list[str]]:
    """data/place_spellings.yaml: a place's Arabic name → its exonyms and short forms ("Damas",
    "Alep", "الشام", "Bosra"), which share no consonant skeleton with it."""
    table: dict[str, list[str]] = _table("place_spellings.yaml")
    return {arabic: [str(form) for form in forms] for arabic, forms in table.items()}


@lru_cache(maxsize=1)
def _agencies() -> dict[str, str]:
    return {normalize_name(form): aid for aid, forms in _table("agencies.yaml").items() for form in forms}


def _blank(value: Any) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    text = str(value).strip()
    return "" if text.lower() in ("nan", "none", "null", "<na>") else text


@lru_cache(maxsize=10_000)
def governorate_id(value: str) -> str | None:
    """Canonical id of a governorate name in either script (None when empty)."""
    if not value:
        return None
    return _listed_governorate(value) or name_keys(value).block or None


def _listed_governorate(value: str) -> str | None:
    """The id of a governorate of the table (either script, or its block key), None for other text."""
    table = _governorates()
    return table.get(normalize_name(value)) or table.get(name_keys(value).block)


# Governorates whose name names no town: "ريف دمشق" (Rif Dimashq, the countryside around Damascus)
# written where the town goes says the governorate only. The other governorates are named after
# their capital (حلب is a town too).
_NO_TOWN = frozenset({"rif dimashq"})


@lru_cache(maxsize=10_000)
def _region_named_as_town(value: str) -> str | None:
    """The governorate id when a town field holds the name of a governorate that is no town: such a
    report says nothing of the town, and "town: different" (−5 bits) beside the town a family's
    report names (سقبا، دوما) split one man in two (the fresh set's ``town_as_gov`` slip)."""
    gid = _listed_governorate(value) if value else None
    return gid if gid in _NO_TOWN else None


@lru_cache(maxsize=1)
def _places() -> dict[str, str]:
    """The places of data/syrian_names.yaml (governorates and their cities) and the other spellings
    of data/place_spellings.yaml, in either script → the key of their Arabic name: "Aleppo" and
    حلب, "Damas" and دمشق, "Palmyre" and تدمر share no consonants, and a town written in the other
    script or language was "a different city" (−5 bits)."""
    out: dict[str, str] = {}
    for latin, entry in _table("syrian_names.yaml")["governorates"].items():
        for arabic, other in [(entry["ar"], latin), *entry.get("cities", [])]:
            key = _place_skeleton(arabic)
            for form in (arabic, other):
                out[normalize_name(form)] = key
    for arabic, forms in _other_spellings().items():
        key = out.get(normalize_name(arabic)) or _place_skeleton(arabic)
        for form in (arabic, *forms):
            out.setdefault(normalize_name(form), key)
    return out


# A camp is named by its place: "مخيم اليرموك", "اليرموك", "Yarmouk Camp", "Camp de Yarmouk" (the
# Palestinian camps of Syria: Yarmouk, Khan al-Shih, Neirab, Handarat …) were three towns.
_CAMP = re.compile(r"^(?:مخيم|camp(?: de| of)?)\s+|\s+camp$")


def _birth_town(value: str) -> str | None:
    """The place key of a birth place that names a town (not a governorate that is no town)."""
    return None if not value or _region_named_as_town(value) else place_key(value)


@lru_cache(maxsize=50_000)
def place_key(value: str) -> str | None:
    """Cross-script key of a place name: the key of its Arabic name when the places table knows it,
    else its consonant skeleton (article stripped); a camp by the name of its place."""
    if not value:
        return None
    text = normalize_name(value)
    if "مخيم" in text or "camp" in text:
        value = text = _CAMP.sub("", text) or text
    return _places().get(text) or _place_skeleton(value) or None


_CONSTRUCT_TAA = re.compile(r"[ةه](?=\s+\S)")  # ه: the ة a typist wrote so


def _place_skeleton(text: str) -> str:
    """The consonant skeleton of a place's name, with a ة that ends a word before another said as
    the t it is there (the construct state: دارة عزة is Darat Izza, معرة النعمان Maarat al-Numan,
    قلعة المضيق Qalaat al-Madiq), as every romanisation writes it; a final ة stays silent (حماة, Hama)."""
    return name_keys(_CONSTRUCT_TAA.sub("ت", text)).skeleton


@lru_cache(maxsize=10_000)
def agency_id(value: str) -> str | None:
    """Id of an arresting agency from data/agencies.yaml, else its normalised text.

    The same branch is worded many ways (issue 28: "a different wording of the same branch" sent
    pairs at 0.99995 to review): its three-digit number anywhere names it ("Raids Branch 215", "فرع
    المداهمة 215", "235"); words every agency name may carry are dropped ("فرع", "سجن", "prison");
    and a known name inside a longer wording names its agency ("فرع المخابرات الجوية بالمزة")."""
    if not value:
        return None
    norm = normalize_name(value)
    table = _agencies()
    if norm in table:
        return table[norm]
    number = facility_key(value).number  # the archive's reading of a label's number (years aside)
    if number is not None and BRANCH_NUMBERS[0] <= number <= BRANCH_NUMBERS[1]:
        return f"branch_{number}"
    core = " ".join(w for w in norm.split() if w not in AGENCY_FILLER_WORDS)
    if core in table:
        return table[core]
    for form, aid in _agency_forms_longest_first():
        if form in norm:
            return aid
    return norm or None


BRANCH_NUMBERS = (100, 999)  # branches are numbered with three digits (215, 235, 251)
# Words an agency's name may carry or not; "فرع"/"الفرع" stay in the forms of agencies.yaml.
AGENCY_FILLER_WORDS = frozenset({"فرع", "الفرع", "سجن", "السجن", "branch", "prison", "the", "jail", "العسكري",
                                 "military"})
MIN_CONTAINED_FORM = 6  # shorter known forms ("الجويه") are not looked for inside a longer text


@lru_cache(maxsize=1)
def _agency_forms_longest_first() -> list[tuple[str, str]]:
    forms = [(form, aid) for form, aid in _agencies().items() if len(form) >= MIN_CONTAINED_FORM]
    return sorted(forms, key=lambda item: -len(item[0]))


# The precision of a year written as a part of it ("أواخر 2014"): compared by the model as a year, and
# an age beside it gives a birth year, but no arrest year the constraints hold against a side
# (constraints.facts_of): a witness's "late 2014" is when he saw the man, often after the arrest
# (field_lists.py's testimonies: two of them parted a man from his family's reports, "2013").
PART_OF_YEAR = "part of year"


@lru_cache(maxsize=8192)  # a table repeats its dates; the result is immutable
def parse_date(value: str) -> tuple[int | None, int | None, str | None]:
    """(year, month, precision) of a date as the import reads it (``athar.matching.dates.read_date``:
    14/03/2012, آذار 2012, March 2012 …; precision 'day', 'month' or 'year'); else the year of a part of
    a year ("صيف 2014", "أواخر 2012": ``read_part_of_year``, as the import reads it); else of an ISO-like
    beginning ("2012-03-14 10:00", "2012-03 approx."); else none."""
    try:
        reading = read_date(value) if value else None
    except ValueError:
        reading = None
    if reading is not None:
        return reading.date.year, reading.date.month if reading.precision != "year" else None, reading.precision
    part = read_part_of_year(value) if value else None
    if part is not None:
        return part, None, PART_OF_YEAR
    m = re.match(r"^\s*(\d{4})(?:[-/.](\d{1,2}))?(?:[-/.](\d{1,2}))?", normalize_name(value) if value else "")
    if not m:
        return None, None, None
    year, month, day = int(m.group(1)), m.group(2), m.group(3)
    if month and 1 <= int(month) <= 12:
        return year, int(month), "day" if day else "month"
    return year, None, "year"


_SLASHED = re.compile(r"^\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*$")


@lru_cache(maxsize=8192)
def swapped_month(value: str) -> int | None:
    """The other month a date written with slashes may mean: "11/09/2014" is 11 September as the
    import reads it (day first), or 9 November as an English-speaking clerk writes it (month first;
    field_lists.py's tracing requests: "Mazen an-Nayef, 11/09/2014" and "MAZEN EL NAYEF, 09/11/2014"
    were kept apart as "arrest months differ"). Only when both numbers can be a month and differ;
    as a month count (year × 12 + month − 1), like ``arrest_ym``. Dots (15.02.2012) and dashes are
    written day first, ISO dates year first: never swapped (twentieth session)."""
    m = _SLASHED.match(value) if value else None
    if not m:
        return None
    first, second, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if not (1 <= first <= 12 and 1 <= second <= 12) or first == second:
        return None
    return year * 12 + first - 1  # read day first, the month is the second number; swapped, the first


def _year(value: str) -> int | None:
    m = re.search(r"\d{4}", normalize_name(value)) if value else None
    return int(m.group(0)) if m else None


def birth_year(value: str, arrest_year: int | None) -> int | None:
    """The year in the birth-year column; else, when it holds an age ("عمره 27", "27 سنة", "31": a
    list that writes ages there, as the import reads it: ``registry.rows``) and the arrest year is
    known, the arrest year less the age."""
    year = _year(value)
    if year is not None or not value or arrest_year is None:
        return year
    age = _age_written(value)
    return arrest_year - age if age is not None else None


def _age_written(value: str) -> int | None:
    """The age a birth-year column holds (``read_age``), None for none or a value it cannot read."""
    try:
        return read_age(value)
    except ValueError:
        return None


# (twentieth session) An age with no arrest year to count it from ("فاطمه البيطار, العمر 25" and
# "فاطمه البيطار, عمره 38" of one town, a list without dates) still says roughly when the man was born:
# from the middle of the years athar's archives cover, give or take AGE_SLACK years. Only the
# constraints read it (constraints.contradictions: birth years further apart than MAX_YEAR_GAP +
# AGE_SLACK), never the model.
AGE_REFERENCE_YEAR = 2013
AGE_SLACK = 3
BIRTH_FROM_AGE_COLUMN = "birth_year_from_age"


def birth_year_from_age(value: str) -> int | None:
    """AGE_REFERENCE_YEAR less the age a birth-year column holds ("عمره 27", "27 سنة", "31"), or None."""
    if not value or _year(value) is not None:
        return None
    age = _age_written(value)
    return AGE_REFERENCE_YEAR - age if age is not None else None


_UMM = frozenset({"ام", "um", "umm", "oum", "om"})


def kunya_first(order: WrittenOrder | None) -> bool:
    """A full name that is a kunya and a family name, no given name: "أبو إبراهيم السباعي", "ابوماهر
    العلي", "أم أنس العلي", "Abu Ibrahim al-Sibai" — how activists' lists name a man (father of
    Ibrahim, of the Sibai family; field_lists.py, written from a fresh description). The kunya stays
    in the given name's place (two reports of one kunya meet on it), but against a given name it is
    no name to compare (link.weigh_kunya). Not Abu Bakr (a given name of the table), and only before
    one word: "أبو زيد خليل محمد" may be the family Abu Zaid written first."""
    if order is None:
        return False
    names = [t for t in order.tokens if not t.marker]
    if len(names) == 2 and names[0].compound == "abu" and not names[0].canonical:
        return True
    return len(names) == 3 and names[0].text in _UMM and not names[0].compound


@lru_cache(maxsize=50_000)
def _parsed_full(order: WrittenOrder, family_first: bool) -> dict[str, NameToken | None]:
    """Parts of a full name (titles, brackets, nicknames and a glued place already set apart:
    order.written_order, and الحاج / شيخ before another name: order.without_inner_titles), its
    first word read as the family name when ``family_first``."""
    parts = parse_tokens(order.tokens, family_first=family_first)
    return {"first": parts.first, "father": parts.father, "grandfather": parts.grandfather, "family": parts.family,
            "ancestor": parts.extra[0] if parts.extra else None}


Keys = tuple[str | None, str | None, str | None, int, str | None, str | None]
# joins the names of a spelling the variants table gives to two names, in the id (Kamel: "kamal|kamil")
SHARED_SPELLING = "|"
KEY_NAMES = ("id", "blk", "skel", "known", "cblk", "rasm")
# The letters without their dots, kept for the names the constraints compare (constraints.py).
RASM_PARTS = ("first", "father", "mother")


@lru_cache(maxsize=200_000)
def _keys(text: str) -> Keys:
    tokens = without_inner_titles(name_tokens(text))
    if len(tokens) <= 1:
        return _token_keys(tokens[0] if tokens else None)
    keys = [_token_keys(t) for t in tokens]
    rasm = "".join(str(k[5]) for k in keys) if all(k[5] for k in keys) else None
    return (" ".join(str(k[0]) for k in keys), "".join(str(k[1]) for k in keys),
            "".join(str(k[2]) for k in keys), int(all(k[3] for k in keys)), "".join(str(k[4]) for k in keys), rasm)


def name_id(text: str) -> str | None:
    """The id a name part gets in the prepared table (the variants table's name, else its key)."""
    return _keys(text)[0]


def _token_keys(token: NameToken | None) -> Keys:
    if token is None:
        return None, None, None, 0, None, None
    known = token.canonical
    if not known and len(token.candidates) > 1:
        # a spelling of two names of the table (KAMEL: كمال and كامل): a name of the table, whose id
        # lists them ("kamal|kamil"); "same consonants" accepts either (settings._names_meet),
        # the fuzzy levels, the guard and the constraints treat it as a known name like any other
        known = SHARED_SPELLING.join(token.candidates)
    coarse = coarse_skeleton(token.block_key) or None
    # the core (عبد الرحمن and عبدالرحمن alike: inner article and spaces gone), without its dots
    rasm = arabic_rasm(token.core) or None if token.script == "ar" else None
    return (known or token.key), token.block_key, token.skeleton, int(bool(known)), coarse, rasm


def _name_columns(first: str, father: str, grandfather: str, family: str, mother: str,
                  order: WrittenOrder | None, votes: OrderVotes) -> list[tuple]:
    """Keys of the six name parts of one report (part columns first, else the full name)."""
    given = {"first": first, "father": father, "grandfather": grandfather, "family": family}
    parsed = {}
    if order is not None and not all(given.values()):
        parsed = _parsed_full(order, votes.family_first(order))
    out = []
    for part in ("first", "father", "grandfather", "family"):
        text = read_written_name(given[part]).name if part == "first" and given[part] else given[part]
        if part == "first" and text:
            out.append(_given_name_keys(text))
            continue
        out.append(_keys(text) if text else _token_keys(parsed.get(part)))
    out.extend(_mother_keys(mother))
    # the fourth name of a lineage (the great-grandfather's: "فهد خويلد علي زايد الأسعد"), read from
    # a full name only: the template has no column for it
    out.append(_token_keys(parsed.get("ancestor")))
    return out


@lru_cache(maxsize=50_000)
def _given_name_keys(text: str) -> Keys:
    """Keys of a given name written in its own column. "محمد خير" (Muhammad and the name the man is
    called by) is keyed as خير, as a full name beginning with Muhammad is in its second reading
    (COMPOUND below: "محمد خير عرنوس" read as خير of the عرنوس): the family's form writes the compound
    in the given-name column, a list writes it in the full name, and the two never met (issue 28's
    fresh set: half of such persons' pairs missed)."""
    tokens = name_tokens(text)
    if len(tokens) == 2 and tokens[0].canonical == MUHAMMAD and tokens[1].canonical != MUHAMMAD:
        return _token_keys(tokens[1])
    return _keys(text)


def second_reading(first: str, father: str, order: WrittenOrder | None, votes: OrderVotes) -> int:
    """Which second reading a full name gets (readings.py), the parts not given in their own columns:
    COMPOUND when it begins with Muhammad and a given name follows it ("محمد عمار الساعاتي", "SAATI,
    Mohammad Ammar" may be Muhammad son of Ammar or Ammar, whose given name is the compound "Muhammad
    Ammar"); else the other order when it is in doubt (``_other_order``); else 0."""
    if first or father or order is None:
        return 0
    flipped = votes.family_first(order)
    if not flipped and kunya_first(order):
        return 0  # no given name to read otherwise
    parsed = _parsed_full(order, flipped)
    head, second = parsed.get("first"), parsed.get("father")
    if head is not None and second is not None and head.canonical == MUHAMMAD:
        return COMPOUND
    return _other_order(order, flipped, votes)


KUNYA_COLUMN = "given_is_kunya"  # the report names the man by a kunya, no given name (kunya_first)
FAMILY_PLACE_COLUMN = "family_is_place"  # the family name is the nisba of the report's own place
TOWNS_COLUMN = "town_skeletons"  # the skeletons of the report's town and birth place (town_skeletons)
TOWN_BLOCK_COLUMN = "town_blk"  # the town's key, else the town a nisba family name may name (town_block)
ARREST_SWAPPED_COLUMN = "arrest_ym_alt"  # the arrest month read the other way round (swapped_month)


def town_skeletons(places: list[str]) -> str | None:
    """The consonant skeletons of a report's town and birth place (whole and first word, as
    ``place_nisba`` reads them), joined by "|": what another report's family name may be the nisba
    of (link.weigh_place_family: "ياسر الداراني" of no stated town, and a Yasir of Daraya). Not the
    governorate: a province's nisba (الحلبي، الإدلبي) names no town (twenty-third session)."""
    found = sorted({k for place in places if isinstance(place, str) and place
                    for k in (*_place_skeletons(place), place_key(place)) if k})
    return "|".join(found) or None


def town_block(city_key: str | None, family_skeleton: str | None, family_id: str | None) -> str | None:
    """The blocking key of the town a report names: its town's key, else — no town stated — the town its
    family name may be the nisba of ("ياسر الداراني", "منهل الحولاني": a witness names a man by his
    town): the family name's skeleton, without the n of the ending اني (الداراني: داريا), when it ends
    as a nisba does (ي, -i, -y). settings.SMALL_TABLE_RULES blocks the given name with it, so that a
    report so named meets the reports of that town (twenty-third session)."""
    if isinstance(city_key, str) and city_key:
        return city_key
    if not isinstance(family_skeleton, str) or len(family_skeleton) < 2 or not isinstance(family_id, str):
        return None
    if _ends_ani(family_id) and len(family_skeleton) >= 3 and family_skeleton.endswith("n"):
        return family_skeleton[:-1]
    return family_skeleton if family_id.endswith(("i", "y")) else None


def _ends_ani(family_id: str | None) -> bool:
    """A nisba ending اني / -ani (الداراني, AL-DARANI), whose skeleton holds an n its place's has not."""
    return isinstance(family_id, str) and family_id.endswith(("ani", "any"))


def nisba_of(family_skeleton: str | None, family_id: str | None, skeletons: list[str] | tuple[str, ...]) -> bool:
    """Is a family name (its skeleton and id) the nisba of one of these place skeletons? The nisba's
    ي and اوي fall away on the skeleton; the ending اني / -ani adds an n (الدوماني: دوما). Two consonants
    or more."""
    if not isinstance(family_skeleton, str) or len(family_skeleton) < 2:
        return False
    ani = _ends_ani(family_id)
    return any(family_skeleton == k or (ani and family_skeleton == k + "n") for k in skeletons)


def place_nisba(family_skeleton: str | None, family_id: str | None, places: list[str]) -> bool:
    """Is the family name the nisba of one of the report's own places — its town, governorate or
    birth place ("بلال محمد الإدلبي" of Idlib, "Hasan Abdallah al-Qabouni" of Qaboun, "سامر البرزاوي"
    of Barzeh, "الداراني" of Daraya, "AL-RSTNAOUI" of Rastan; twentieth session)? Lists and witnesses
    name a man by where he is from as often as by his family: such a family name may be either.
    On the consonant skeletons (the nisba's ي, and its اوي, fall away there), the place's whole or its
    first word (الديري: دير الزور); the ending اني / -ani adds an n (الدوماني: دوما). Two consonants
    or more."""
    return any(nisba_of(family_skeleton, family_id, _place_skeletons(place))
               for place in places if isinstance(place, str) and place)


@lru_cache(maxsize=65_536)
def _place_skeletons(place: str) -> tuple[str, ...]:
    """The consonant skeletons of a place written whole and of its first word (two consonants or more)."""
    words = normalize_name(place).split()
    found = {name_keys(written).skeleton for written in {place, words[0] if words else ""} if written}
    return tuple(k for k in found if len(k) >= 2)


COMPOUND = 1  # the second reading: "Muhammad X" called X
FAMILY_FIRST = 2  # read as written; the second reading: the first word is the family name
AS_WRITTEN = 3  # read family-name-first; the second reading: as written


def _other_order(order: WrittenOrder, flipped: bool, votes: OrderVotes) -> int:
    """A name of two to four words whose order the writing does not settle (no comma, no upper
    case), whose first word the table also knows as a family name and whose last word it also knows
    as a given name — "يعقوب يعقوب عبد الحميد": Yaqub (the family name, also a given name) first;
    since the thirteenth session also two words, "عثمان حسام": Husam of the Uthman family, or Uthman son
    of Husam (fresh set R with review +0.0014 / +0.0012) — gets the other order as its second reading
    (readings.py); else 0. The last word need only lean to a given name (more often one than a family
    name), no longer by the margin: "دروبي ابراهيم", Ibrahim of the Droubi family, where Ibrahim is a
    family name too (الإبراهيم) — thirteenth session, fresh R +0.0038 / +0.0038, independent +0.0011,
    Google +0.005, no set lost. Since the sixteenth session the last word need only be less a
    family name than the first: "Rahhal Ali Hassan", Ali son of Hassan of the Rahhal family, where
    Hassan is a family name (الحسن) a little more often than a given name (fresh R +0.0012, recall
    with review +0.0022; real_cross +0.0025, written kinds 0.981 → 1.0; no set lost)."""
    if not order.in_doubt or len(order.keys) not in (2, 3, 4):
        return 0
    lead, last = order.keys[0], order.keys[-1]
    if votes.family[lead] and votes.given[lead] and votes.lean(last) < max(0.0, votes.lean(lead, order)):
        return AS_WRITTEN if flipped else FAMILY_FIRST
    return 0


MUHAMMAD = "muhammad"


@lru_cache(maxsize=100_000)
def _mother_keys(mother: str) -> tuple[tuple, tuple]:
    tokens = name_tokens(mother) if mother else ()
    return _token_keys(tokens[0] if tokens else None), _token_keys(tokens[-1] if len(tokens) > 1 else None)


def order_votes(rows: list[tuple[str, ...]], orders: list[WrittenOrder | None]) -> OrderVotes:
    """Where each name stands in the table's reports (order.py): one pass before the keys."""
    votes = OrderVotes()
    for (first, father, _grandfather, family, _mother, _full), order in zip(rows, orders):
        votes.count_parts(first, father, family)
        if order is not None:
            votes.count_full(order)
    return votes


def read_full_names(full: pd.Series) -> tuple[list[WrittenOrder | None], list[str | None], list[str], list[str]]:
    """Each report's full name read once (written.py, order.py): its order, the sex its titles
    say, a place written with it and a mother named in it ("احمد ابن مريم"). Read here once per
    distinct name and kept for the passes that follow, rather than left to the functions' caches: at
    a million reports the distinct names outnumber the caches and every pass would read every name
    again."""
    seen: dict[str, tuple[WrittenOrder, str | None, str, str]] = {}
    orders: list[WrittenOrder | None] = []
    sexes: list[str | None] = []
    places: list[str] = []
    mothers: list[str] = []
    for name in full:
        read = seen.get(name) if name else None
        if name and read is None:
            written = read_written_name(name)
            order = written_order(name)  # a title that may be the family name says no sex (order.TITLE_OR_FAMILY)
            sex = None if order.title_word else sex_of_titles(written.titles)
            read = seen[name] = (order, sex, written.place, written.mother)
        orders.append(read[0] if read else None)
        sexes.append(read[1] if read else None)
        places.append(read[2] if read else "")
        mothers.append(read[3] if read else "")
    return orders, sexes, places, mothers


_NULL_TEXT = frozenset(["nan", "none", "null", "<na>"])


def derived_keys(keys: Any) -> dict[str, list[str | None]]:
    """Keys made from other keys of the given, father's and family names (``keys``: a table or a
    mapping of columns holding ``<part>_blk`` and ``<part>_cblk``): the blocking key blind to dots
    (قهد/فهد, نلال/بلال) and the coarse key's first consonant (settings.NAMES_ONLY_RULES). Made here
    and again when a second reading moves the names (readings.py)."""
    out: dict[str, list[str | None]] = {}
    for part in ("first", "father", "family"):
        out[f"{part}_dblk"] = [(dotless(b) or None) if isinstance(b, str) else None for b in keys[f"{part}_blk"]]
        out[f"{part}_c1"] = [initial_key(c) for c in keys[f"{part}_cblk"]]
    return out


def initial_key(coarse: Any) -> str | None:
    """The first consonant of a name's coarse key (Washington / واشنطن: snktn / sntn → s): with another
    name agreeing on its coarse key, a names-only block for names spelled apart past one letter."""
    return coarse[:1] if isinstance(coarse, str) and coarse else None


def _clean(series: pd.Series) -> pd.Series:
    """Text stripped; missing values and their spellings ("nan", "None", "<NA>") empty. A loop, not
    pandas' string methods: as fast on a million rows, and ten times faster on the few rows of an
    incremental link (incremental.py)."""
    values = []
    for value in series.tolist():
        if value is None or (not isinstance(value, str) and pd.isna(value)):
            values.append("")
            continue
        text = str(value).strip()
        values.append("" if text.lower() in _NULL_TEXT else text)
    return pd.Series(values, index=series.index, dtype=object)


def prepare_reports(records: pd.DataFrame | list[dict], *, votes: OrderVotes | None = None) -> pd.DataFrame:
    """Linkage input → the table the model compares (one row per report). ``votes``: where names
    stand in the store (order.py), when the records are a few reports read against a store (the
    incremental step); by default the records' own."""
    return prepare_with_votes(records, votes=votes)[0]


def prepare_with_votes(records: pd.DataFrame | list[dict], *,
                       votes: OrderVotes | None = None) -> tuple[pd.DataFrame, OrderVotes]:
    """:func:`prepare_reports`, and the records' own order votes (a full run keeps them for the
    incremental step, which reads a new report's name order with the store's votes)."""
    df = pd.DataFrame(records) if not isinstance(records, pd.DataFrame) else records
    if "unique_id" not in df.columns:
        raise ValueError("reports need a unique_id column")
    get, full = _input_columns(df)
    columns: dict[str, list] = {f"{part}_{k}": [] for part in NAME_PARTS for k in KEY_NAMES
                                if k != "rasm" or part in RASM_PARTS}
    orders, title_sexes, written_places, written_mothers = read_full_names(full)
    mothers = [m or w for m, w in zip(get["mother_name"], written_mothers)]  # the column first
    rows = list(zip(get["first_name"], get["father_name"], get["grandfather_name"], get["family_name"],
                    mothers, full))
    own_votes = order_votes(rows, orders)
    votes = own_votes if votes is None else votes
    readings: list[int] = []
    kunyas: list[bool] = []
    for row, written, compound in zip(rows, orders, get[COMPOUND_SPLIT]):
        first, father, grandfather, family, mother, _full = row
        order = votes.resolved(written) if written is not None else None  # "السيد عمر حسين" (order.py)
        readings.append(COMPOUND if compound else second_reading(first, father, order, votes))
        kunyas.append(order is not None and not (first or father) and kunya_first(order)
                      and not votes.family_first(order))
        for part, keys in zip(NAME_PARTS, _name_columns(first, father, grandfather, family, mother, order, votes)):
            for k, value in zip(KEY_NAMES, keys):
                if k != "rasm" or part in RASM_PARTS:
                    columns[f"{part}_{k}"].append(value)
    # the columns gathered first, the table made once (a column added at a time costs more than
    # the work on a few rows)
    out: dict[str, Any] = {"unique_id": df["unique_id"].astype(str).to_numpy()}
    for name, values in columns.items():
        out[name] = pd.Series(values, dtype="int64" if name.endswith("_known") else object)
    out.update({name: pd.Series(values, dtype=object) for name, values in derived_keys(columns).items()})
    out[READING_COLUMN] = pd.Series(readings, dtype="int64")
    out[KUNYA_COLUMN] = pd.Series(kunyas, dtype=bool)
    places = zip(get["city"], written_places, get["governorate"], get["birth_place"])
    out[FAMILY_PLACE_COLUMN] = pd.Series(
        [place_nisba(skel, fid, [city or written, gov, born]) for (skel, fid), (city, written, gov, born)
         in zip(zip(out["family_skel"], out["family_id"]), places)], dtype=bool)
    out[TOWNS_COLUMN] = pd.Series([town_skeletons([city or written, born]) for city, written, born
                                   in zip(get["city"], written_places, get["birth_place"])], dtype=object)
    dates = get["arrest_date"].map(parse_date)
    out["birth_year"] = pd.Series([birth_year(b, d[0]) for b, d in zip(get["birth_year"], dates)], dtype="Int64")
    out[BIRTH_FROM_AGE_COLUMN] = pd.Series([birth_year_from_age(b) if pd.isna(y) else None
                                            for b, y in zip(get["birth_year"], out["birth_year"])], dtype="Int64")
    # Weak evidence from the written names (names/written.py): a title that says the sex, a place
    # written with the name, used only where the report's own column is empty.
    stated = get["sex"].map(lambda s: _SEX.get(normalize_name(s)) if s else None)
    out["sex"] = pd.Series([s or t for s, t in zip(stated, title_sexes)], dtype=object)
    towns = [c or p for c, p in zip(get["city"], written_places)]
    regions = [_region_named_as_town(t) for t in towns]
    out["governorate_id"] = pd.Series([g or r for g, r in zip(get["governorate"].map(governorate_id), regions)],
                                      dtype=object)
    out["city_key"] = pd.Series([None if r else place_key(t) for t, r in zip(towns, regions)], dtype=object)
    out[TOWN_BLOCK_COLUMN] = pd.Series([town_block(c, skel, fid) for c, skel, fid
                                        in zip(out["city_key"], out["family_skel"], out["family_id"])], dtype=object)
    # birth places by their skeleton only: on the clean synthetic training reports the table made
    # "different" unseen among true pairs and Splink's EM stops on an m of 0 (train_model)
    out["birth_place_key"] = get["birth_place"].map(lambda v: name_keys(v).skeleton or None if v else None).to_numpy()
    # the birth place as a town (its place key, as city_key's): not compared by the model, read
    # against the other report's town after it (link.born_there)
    out["birth_town_key"] = get["birth_place"].map(_birth_town).to_numpy()
    out["arrest_year"] = dates.map(lambda d: d[0]).astype("Int64").reset_index(drop=True)
    out["arrest_ym"] = dates.map(lambda d: d[0] * 12 + d[1] - 1 if d[1] else None).astype("Int64").reset_index(drop=True)
    out["arrest_precision"] = dates.map(lambda d: d[2]).to_numpy()
    out[ARREST_SWAPPED_COLUMN] = pd.Series([swapped_month(v) if isinstance(v, str) else None
                                            for v in get["arrest_date"]], dtype="Int64")
    out["agency_id"] = get["arresting_agency"].map(agency_id).to_numpy()
    return pd.DataFrame(out), own_votes


SPLIT_NAME_COLUMNS = ("first_name", "father_name", "grandfather_name", "family_name", "mother_name")


def _input_columns(df: pd.DataFrame) -> tuple[dict[str, pd.Series], pd.Series]:
    """The input columns cleaned (absent ones empty), and each report's full name (Arabic, else Latin)."""
    empty = pd.Series([""] * len(df), index=df.index)
    get = {c: _clean(df[c]) if c in df.columns else empty for c in INPUT_COLUMNS + ["full_name_latin"]}
    for c in SPLIT_NAME_COLUMNS:  # "الكحال (أبو عبد الرحمن)": the kunya is no part of the family name
        get[c] = pd.Series([without_brackets(v) for v in get[c].tolist()], index=get[c].index, dtype=object)
    lineages = [given_and_father(f, fa, g) for f, fa, g in zip(get["first_name"], get["father_name"],
                                                                get["grandfather_name"])]
    for i, c in enumerate(("first_name", "father_name", "grandfather_name", COMPOUND_SPLIT)):
        get[c] = pd.Series([lineage[i] for lineage in lineages], index=get["first_name"].index, dtype=object)
    return get, get["full_name"].where(get["full_name"] != "", get["full_name_latin"])


COMPOUND_SPLIT = "_muhammad_x_split"  # the given-name column "Muhammad X" read as Muhammad son of X


@lru_cache(maxsize=50_000)
def given_and_father(first: str, father: str, grandfather: str) -> tuple[str, str, str, bool]:
    """The given-name column holding the father's name too, the father's column empty: "Mahmoud
    Dib", "ABD EL KARIM AHMAD", "محمود ديب" (a clerk who reads "first name" as the names before
    the family name; field_lists.py's tracing requests, 15 %) — read as the given name and the
    father's (and the grandfather's, with three names and that column empty); the last item says
    whether the column was "Muhammad X" (or "Muhammad X Y": twenty-seventh session, "Muhammad Said
    Mahmoud" is as often the compound "Muhammad Said" son of Mahmoud), which is as often the compound
    the man is called by (محمد خير, Mhd Amer) as Muhammad son of X: read so, such a report gets the
    compound as its second reading (``second_reading``: COMPOUND), as a full name beginning with
    Muhammad does. Compounds stay one name (عبد الرحمن, Abd el Karim, Nour al-Din, Abu Bakr: one token
    each). Nothing else changes: the report keeps what was written."""
    if father or not first:
        return first, father, grandfather, False
    names = without_inner_titles(name_tokens(read_written_name(first).name))
    if not 2 <= len(names) <= 3 or (len(names) == 3 and grandfather):
        return first, father, grandfather, False
    compound = names[0].canonical == MUHAMMAD and names[1].canonical != MUHAMMAD
    return names[0].text, names[1].text, names[2].text if len(names) == 3 else grandfather, compound


def table_votes(records: pd.DataFrame | list[dict]) -> OrderVotes:
    """The order votes of ``records`` alone (what :func:`prepare_with_votes` counts)."""
    get, full = _input_columns(pd.DataFrame(records) if not isinstance(records, pd.DataFrame) else records)
    rows = list(zip(get["first_name"], get["father_name"], get["grandfather_name"], get["family_name"],
                    get["mother_name"], full))
    return order_votes(rows, read_full_names(full)[0])


def vote_keys(records: pd.DataFrame | list[dict]) -> set[str]:
    """Every name id whose votes preparing ``records`` may read (order.OrderVotes): what the
    incremental step fetches from the store's votes."""
    get, full = _input_columns(pd.DataFrame(records) if not isinstance(records, pd.DataFrame) else records)
    out: set[str] = set()
    for first, father, family, order in zip(get["first_name"], get["father_name"], get["family_name"],
                                            read_full_names(full)[0]):
        out |= name_vote_keys(first, father, family, order)
    return out
