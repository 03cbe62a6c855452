"""Known spelling variants (data/name_variants.yaml): token → canonical name."""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache

from athar.matching.names.normalize import (
    detect_script,
    normalize_arabic,
    normalize_latin,
)
from athar.matching.names.phonetic import latin_key, loose_key
from athar.matching.names.resources import load_table

# In a short Arabic name a long vowel is part of the name, not a typo: عامر is not عمر, حامد is not
# حمد, باسم is not بسم (near_canonical never adds or drops ا و ي below SHORT_BODY letters). Latin
# vowels are spelling, not names (Yousf, Mohamd are typos).
_LONG_VOWELS = frozenset("اوىي")
SHORT_BODY = 6
_LATIN_DIN = re.compile(r"(?:[aeiou][ld]?)?-?d?d(?:i|ee|y)ne?$")
_LATIN_ALLAH = re.compile(r"[aeiu]?llah?$")
_ALLAH_REST = re.compile(r"lah?")  # what is left of "-ulah" / "-elah" after abd: Allah written with one l


def core_form(text: str, script: str) -> str:
    """Flat form of a (compound) name with inner articles removed, for keys:
    عبد الرحمن / عبدالرحمن → عبدرحمن; Abdel Rahman / Abdulrahman / Abd al-Rahman → abdrahman;
    Nour Eddine / Nureddin / nur al-din → nurdin."""
    flat = re.sub(r"[\s\-']", "", text)
    if script == "ar":
        for head in ("عبد", "ابو", "ابي", "ابا"):
            if flat.startswith(head + "ال") and len(flat) > 6:
                flat = head + flat[5:]
        if flat.endswith("الدين") and len(flat) > 5:
            flat = flat[:-5] + "دين"
        if flat.endswith("الله") and len(flat) > 4:
            flat = flat[:-4] + "له"
        return flat
    if flat.startswith("abu") and len(flat) > 5:
        flat = "abu" + re.sub(r"^(?:al|el|ul|ar|as|ad|at|az|an)(?=[a-z]{3})", "", flat[3:])
    if flat.startswith("abd") and len(flat) > 4:
        rest = re.sub(r"^[aeiou]+", "", flat[3:])
        # the article of "Abdul Rahman" goes, not the first letter of Allah ("Abdulah", "Abdelah": one l)
        rest = rest[1:] if rest.startswith("l") and len(rest) > 2 and not _ALLAH_REST.fullmatch(rest) else rest
        flat = "abd" + re.sub(r"^(.)\1", r"\1", rest)
    if len(flat) > 6 and _LATIN_DIN.search(flat) and not flat.startswith("abd"):
        flat = _LATIN_DIN.sub("din", flat)
    if len(flat) > 5 and not flat.startswith("abd"):
        flat = _LATIN_ALLAH.sub("lah", flat)
    return flat


def index_key(text: str, script: str) -> str:
    """'ar:<core>' for Arabic, 'la:<latin key of core>' for Latin."""
    core = core_form(text, script)
    return ("ar:" + core) if script == "ar" else ("la:" + latin_key(core))


class VariantIndex:
    """Lookups from a normalised token (either script) to its canonical name."""

    def __init__(self, table: dict[str, list[str]], exact_only: dict[str, list[str]] | None = None,
                 unlisted: frozenset[str] = frozenset()) -> None:
        """``table``: canonical → spellings, found exactly, vowel-blind or one typo away.
        ``exact_only``: canonical → more words of that name found only as written (nisbas.yaml: a
        nisba's spellings and its demonyms, "Egyptian" for المصري; short words such as Suri, Libi,
        Qatari are one letter from other names: سوربي، Amani، Qatarji). ``unlisted``: words of
        ``exact_only`` that are not spellings (demonyms): indexed, never listed in ``variants``
        (the spellings compared against and generated)."""
        exact: dict[str, set[str]] = defaultdict(set)
        loose: dict[str, set[str]] = defaultdict(set)
        fuzzy: set[str] = set()
        self.variants: dict[str, list[str]] = {}
        exact_only = exact_only or {}
        for canonical in dict.fromkeys([*table, *exact_only]):
            forms = [str(f) for f in table.get(canonical, [])]
            more = [str(f) for f in exact_only.get(canonical, []) if str(f) not in forms]
            self.variants[canonical] = forms + [f for f in more if f not in unlisted]
            for form in [canonical, *forms] if canonical in table else forms:
                key = _form_key(form)
                exact[key].add(canonical)
                loose[_loosen(key)].add(canonical)
                fuzzy.add(key)
            for form in more if canonical in table else [canonical, *more]:
                exact[_form_key(form)].add(canonical)
        # a spelling claimed by two names is ambiguous: it resolves to neither
        self.ambiguous = {k: sorted(v) for k, v in exact.items() if len(v) > 1}
        self.exact = {k: next(iter(v)) for k, v in exact.items() if len(v) == 1}
        self.loose = {k: next(iter(v)) for k, v in loose.items() if len(v) == 1}
        self._fuzzy = {k: v for k, v in self.exact.items() if k in fuzzy}

        # known keys with one inner letter removed → (canonical, the letter removed)
        self._inner_deletions: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for key, canonical in self._fuzzy.items():
            body_len = len(key) - 3
            for i, d in enumerate(_deletions(key)):
                if 0 < i < body_len - 1 and body_len >= 5:
                    # a doubled letter dropped is marked by its double: "mm" for m (Mohamad / Mohammad)
                    letter = key[3 + i]
                    doubled = letter in (key[3 + i - 1], key[3 + i + 1])
                    self._inner_deletions[d].append((canonical, letter + letter if doubled else letter))

    def listed(self, key: str) -> bool:
        """The table lists this spelling (for one name, or for two: ambiguous)."""
        return key in self.exact or key in self.ambiguous

    def names_of(self, key: str) -> tuple[str, ...]:
        """Every name a spelling writes: its one canonical name, or the names that share an ambiguous
        spelling (Kamel: Kamal كمال and Kamil كامل; Salim: Salem and Saleem). A comparison accepts any
        of them (linkage, prepare.py), where ``canonical`` resolves an ambiguous spelling to none."""
        if key in self.ambiguous:
            return tuple(self.ambiguous[key])
        found = self.exact.get(key)
        return (found,) if found else ()

    def canonical(self, key: str) -> str | None:
        """Canonical name of an index key, or None. The loose (vowel-blind) lookup is used
        only for names with at least three consonants: short names are too close."""
        if key in self.ambiguous:
            return None
        found = self.exact.get(key)
        if found is None and len(re.sub(r"[aeiouاوي]", "", key[3:])) >= 3:
            found = self.loose.get(_loosen(key))
        return found

    def feminine_canonical(self, key: str) -> str | None:
        """Canonical name of a Latin spelling with the Levantine feminine ending "eh" (Samireh, Amineh,
        Fatmeh: ``phonetic.latin_key`` keeps its e): the table's spelling in "a" (Samira, Amina, Fatma)."""
        if not key.startswith("la:") or not key.endswith("e") or len(key) - 3 < 5:
            return None
        return self.exact.get(key[:-1] + "a")

    def alternate_canonical(self, key: str) -> str | None:
        """Canonical name of a Latin spelling written in another romanisation (transliteration.yaml
        ``latin_alternates``: Russian "kh" for ح): each occurrence of a letter group, then all of
        them, replaced by its alternate; None unless exactly one known name is found. From six
        letters on, as a changed letter in ``near_canonical``."""
        if not key.startswith("la:") or key in self.ambiguous or len(key) - 3 < 6:
            return None  # short names are too close (Khani is خاني, not Hani): the typo rule's floor
        found: set[str] = set()
        body = key[3:]
        for written, alternate in _latin_alternates():
            spots = [m.start() for m in re.finditer(re.escape(written), body)]
            candidates = {body[:i] + alternate + body[i + len(written):] for i in spots}
            if len(spots) > 1:
                candidates.add(body.replace(written, alternate))
            found |= {self.exact[k] for k in ("la:" + c for c in candidates) if k in self.exact}
        return next(iter(found)) if len(found) == 1 else None

    def near_canonical(self, key: str) -> str | None:
        """Canonical name one typo away *inside* the word (a letter missing, extra, changed or
        swapped — never the first or last letter: Samar is not Ammar, Salman is not Salma),
        when exactly one known name is that close; None otherwise. Names shorter than four
        letters are never guessed; a changed letter counts from six letters on."""
        body = key[3:]
        if key in self.ambiguous or len(body) < 4:
            return None
        found: set[str] = set()
        for canonical, letter in self._inner_deletions.get(key, ()):  # letter missing
            if not _long_vowel(key, letter[0]) and _spelling_letter(key, letter):
                found.add(canonical)
        for i, d in enumerate(_deletions(key)):
            if 0 < i < len(body) - 1:
                extra = body[i] * 2 if body[i] in (body[i - 1], body[i + 1]) else body[i]
                if (d in self._fuzzy and not _long_vowel(key, body[i]) and len(body) >= _extra_floor(key)
                        and _spelling_letter(key, extra)):
                    found.add(self._fuzzy[d])  # extra letter
                if len(body) >= 6:  # a changed letter: a Latin vowel written another way, or a double
                    found |= {c for c, letter in self._inner_deletions.get(d, ())
                              if (len(extra) == 2 and len(letter) == 2) or _vowel_spelt(key, body[i], letter)}
        return next(iter(found)) if len(found) == 1 else None


@lru_cache(maxsize=1)
def _latin_alternates() -> tuple[tuple[str, str], ...]:
    """(written, alternate) letter groups of other romanisations (transliteration.yaml)."""
    return tuple((str(w), str(a)) for w, a in load_table("transliteration").get("latin_alternates", []))


# (issue 28, sixth session) A consonant added, dropped or changed is how two names differ (Awad / Aswad,
# Bahir / Bashir, Samman / Salman, هنادي / هادي، حسنين / حسين، سمية / سميرة): of 845 Arabic given
# names of an outside list (akhateeb), 15 the lookup knew no spelling of were read as another name of
# the table, all of them wrongly. A typo the lookup may guess adds or drops a vowel (Mohamd, Khaleed,
# a long vowel in a long Arabic word) or a letter's double (Mohammmad, محممد); a changed letter only
# when it is a Latin vowel written another way (Khelil / Khalil), not a / i (Rashad / Rashid).
_SPELLING_LETTERS = {"la:": frozenset("aeiouy"), "ar:": _LONG_VOWELS}


# Latin vowels that romanisations write for one Arabic vowel (French e for a or i, o for u, y for i);
# a for i or u is another name (Rashad / Rashid, Hamad / Hamid).
_VOWEL_SPELLINGS = frozenset(frozenset(p) for p in ("ea", "ei", "ou", "yi"))


def _vowel_spelt(key: str, written: str, known: str) -> bool:
    return key.startswith("la:") and frozenset((written, known)) in _VOWEL_SPELLINGS


def _spelling_letter(key: str, letter: str) -> bool:
    """Is adding or dropping ``letter`` in ``key`` spelling, not another name: a vowel, or a letter
    doubled (given twice: its neighbour is the same)?"""
    return len(letter) == 2 or letter in _SPELLING_LETTERS.get(key[:3], frozenset())


def _long_vowel(key: str, letter: str) -> bool:
    """An Arabic long vowel added or dropped in a short name: another name, not a typo."""
    return key.startswith("ar:") and letter in _LONG_VOWELS and len(key) - 3 < SHORT_BODY


# (issue 28, fifth session) A letter too many is a typo only in a longer word: of four Arabic letters
# (منجد, the family name Munajjid, read as مجد Majd) or five Latin ones (Asmar read as Ammar) the
# "extra" letter is as often the name's own.
EXTRA_LETTER_FLOOR = {"ar:": 5, "la:": 6}


def _extra_floor(key: str) -> int:
    return EXTRA_LETTER_FLOOR.get(key[:3], 0)


def _deletions(key: str) -> list[str]:
    prefix, body = key[:3], key[3:]
    return [prefix + body[:i] + body[i + 1:] for i in range(len(body))]


def _form_key(form: str) -> str:
    if detect_script(form) == "ar":
        return index_key(normalize_arabic(form), "ar")
    return index_key(normalize_latin(form), "latin")


def _loosen(key: str) -> str:
    if key.startswith("la:"):
        return "la:" + loose_key(key[3:])
    core = key[3:]
    return "ar:" + core[:1] + re.sub("[اوي]", "", core[1:])


@lru_cache(maxsize=1)
def variant_index() -> VariantIndex:
    """The shared index built from the YAML tables (cached): name_variants.yaml, and nisbas.yaml
    (the nisba's spellings merged into its entry, its demonyms indexed as the same name)."""
    nisbas = load_table("nisbas")["nisbas"]
    exact_only = {k: [*e.get("arabic", []), *e.get("latin", []), *e.get("demonyms", [])] for k, e in nisbas.items()}
    demonyms = frozenset(str(d) for e in nisbas.values() for d in e.get("demonyms", []))
    return VariantIndex(load_table("name_variants")["names"], exact_only, demonyms)
