"""Step 0 of the name pipeline: read a name the way people write it in lists.

Real lists carry more than the name: titles and descriptors before it (الطالب، الحاج، Dr.), a
kunya or a note in brackets ("(أبو محمد)", "(lawyer)"), a nickname after a marker (الملقب …),
a place glued after it ("محمد المحمود - خناصر"), the family name first ("AL-SALIH Muhammad Yusuf",
"al-Miqdad, Ahmad Mahmud", "السالم محمد احمد") and abbreviations ("Mhd", "Moh'd", "M."). Each of
these goes to a field of its own (kept, shown, weak evidence); ``name`` is what is left, in the
usual order (given names, then the family name). Every rule is data: data/written_forms.yaml.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from athar.matching.names.normalize import detect_script, mixes_scripts, normalize_name, normalize_unicode
from athar.matching.names.resources import load_table
from athar.matching.names.tokens import HAMZA_AL, name_tokens

_BRACKETS = re.compile(r"[\(\[\{«]([^\)\]\}»]*)(?:[\)\]\}»]|$)")
# Quotation marks hold what brackets hold ('Mohammed "Abu Ali" Al-Hassan'); single quotes only around a
# kunya ("محمد 'ابو علي' الحسن"), since an apostrophe also writes ع and ء inside names (Sa'eed, Ja'far).
_QUOTED = re.compile(r"[\"“„]([^\"“”„]+)[\"“”]")
_QUOTED_KUNYA = re.compile(r"(?:(?<=\s)|^)['‘]((?:abu|abou|abo|um|umm|oum|ابو|أبو|ابي|أبي|ام|أم)\s[^'’‘]+)['’](?=\s|$)",
                           re.IGNORECASE)
_COMMAS = re.compile(r"\s*[,،]\s*")


@dataclass(frozen=True)
class WrittenName:
    """A written name taken apart; ``name`` holds only the person's names, given names first."""

    name: str
    titles: tuple[str, ...] = ()
    kunya: tuple[str, ...] = ()
    nickname: str = ""
    notes: tuple[str, ...] = ()
    place: str = ""
    family_first: bool = False
    rules: tuple[str, ...] = field(default_factory=tuple)  # which rules fired, for explanations
    mother: str = ""  # "احمد ابن مريم": the mother's given name written with his (``_mother_named``)


@lru_cache(maxsize=1)
def _table() -> dict:
    return load_table("written_forms")


@lru_cache(maxsize=16)  # one entry per kind of word; maxsize=1 rebuilt the set on every call
def _words(kind: str) -> frozenset[str]:
    entry = _table()[kind]
    words = entry if isinstance(entry, list) else entry["arabic"] + entry["latin"]
    return frozenset(normalize_name(str(w)) for w in words)


@lru_cache(maxsize=1)
def _abbreviations() -> dict[str, str]:
    return {str(form).lower(): full for full, forms in _table()["abbreviations"].items() for form in forms}


@lru_cache(maxsize=1)
def _title_sex() -> dict[str, str]:
    return {normalize_name(str(w)): sex for sex, words in _table()["title_sex"].items() for w in words}


def sex_of_titles(titles: tuple[str, ...]) -> str | None:
    """'M' or 'F' when the titles say it (الطالبة, Mrs.), None when they do not or disagree."""
    said = {_title_sex().get(_key(t)) for t in titles} - {None}
    return said.pop() if len(said) == 1 else None


@lru_cache(maxsize=100_000)  # words repeat from name to name: each is keyed once
def _key(word: str) -> str:
    return normalize_name(word.strip(".:;"))


@lru_cache(maxsize=200_000)
def read_written_name(text: str | None) -> WrittenName:
    """Take a written name apart (see the module docstring); never raises on any string."""
    words, extras = _set_apart(text)
    rules = list(extras.rules)
    words = _expand_abbreviations(words, rules)
    words, moved = _family_first(words, rules) if not extras.family_first else (words, False)
    return WrittenName(" ".join(words), extras.titles, extras.kunya, extras.nickname, extras.notes, extras.place,
                       extras.family_first or moved, tuple(rules), extras.mother)


@lru_cache(maxsize=200_000)
def written_extras(text: str | None) -> WrittenName:
    """What a written name carries besides the names — its titles, kunya, nickname, notes and place,
    as ``read_written_name`` gives them — without putting the names themselves in order (``name`` is
    what is left of the text, as written). The import needs only these, for every report it writes:
    the abbreviations and the order are read by the linkage, from the name as filed."""
    return _set_apart(text)[1]


def _set_apart(text: str | None) -> tuple[list[str], WrittenName]:
    """The first steps of ``read_written_name``: what is not a name set apart, the words left.
    Not cached itself: each of its two callers keeps its own results (one cache per path, not two
    for the linkage's names)."""
    raw = normalize_unicode(text or "")
    rules: list[str] = []
    raw, kunya, notes = _brackets(raw, rules)
    raw, mother = _mother_named(raw, rules)
    if not mother:  # "رشيد قريطم (ابن زينب)": in brackets
        mother, notes = _mother_in_notes(notes, rules)
    raw, other = _other_script(raw, rules)
    notes += [other] if other else []
    raw, dashed = _dashed_kunya(raw, rules)
    kunya += dashed
    raw, nickname = _nickname(raw, rules)
    raw, place = _place(raw, rules)
    while place and _not_a_place(place):
        notes.append(place)  # "- مواليد 1985", "- طالب", "- والدته فاطمة": kept, but no town; a place
        rules.append("a note after the name set apart (not a place)")  # may come before it ("- داريا")
        raw, place = _place(raw, rules)
    raw, figures = _figures_after_the_name(raw, rules)
    notes += [figures] if figures else []
    raw, comma_first, descriptor = _comma(raw, rules)
    notes += [descriptor] if descriptor else []
    words, titles = _titles(_unglue_titles(raw.split(), rules), rules)
    return words, WrittenName(" ".join(words), tuple(titles), tuple(kunya), nickname, tuple(notes), place,
                              comma_first, tuple(rules), mother)


_SON_OF = frozenset({"ابن", "بن", "بنت", "ابنه", "ابنة"})  # normalised forms come out of _key


@lru_cache(maxsize=1)
def _female_given_names() -> frozenset[str]:
    return frozenset(normalize_name(str(n)) for n in load_table("given_names")["female"])


def _mother_named(text: str, rules: list[str], note: bool = False) -> tuple[str, str]:
    """(the name, the mother's given name): "احمد ابن مريم", "مصطفى ابن رقية الحلبي", "هبة بنت فاطمة", or
    a note "(ابن زينب)" (``note``) — a man named by his mother, as people who know the family do
    (field_lists.py's activist lists). ابن / بن before a man's name is the father's, as always; only a
    woman's given name of the table (``given_names.yaml``) after it is read as the mother's."""
    words = _son_of_unglued(text.split())
    for at in range(0 if note else 1, len(words) - 1):
        if _key(words[at]) in _SON_OF and _key(words[at + 1]) in _female_given_names():
            rules.append("the mother's name after ابن / بنت set apart")
            return " ".join(words[:at] + words[at + 2:]), words[at + 1]
    return text, ""


def _son_of_unglued(words: list[str]) -> list[str]:
    """The words with ابن / بنت typed without its space before a woman's given name of the table: a
    list typed on a phone loses spaces ("عبد الرحمن ابنآمنة", "احمدابن يسرى", "عبد الغنيابن فوزيه"),
    and the mother's name, the one fact such a report adds, was lost with them."""
    if not any(m in w for w in words for m in ("ابن", "بنت")):
        return words
    women = _female_given_names()
    out: list[str] = []
    for i, word in enumerate(words):
        after = _key(words[i + 1]) if i + 1 < len(words) else ""
        for marker in ("ابن", "بنت"):
            if word.startswith(marker) and len(word) > len(marker) + 2 and _key(word[len(marker):]) in women:
                out += [marker, word[len(marker):]]
                break
            if word.endswith(marker) and len(word) > len(marker) + 1 and after in women:
                out += [word[:-len(marker)], marker]
                break
        else:
            out.append(word)
    return out


def _mother_in_notes(notes: list[str], rules: list[str]) -> tuple[str, list[str]]:
    """(the mother's given name, the other notes): a note that is only ابن / بنت and a woman's name."""
    for i, note in enumerate(notes):
        if len(note.split()) == 2:
            _, mother = _mother_named(note, rules, note=True)
            if mother:
                return mother, notes[:i] + notes[i + 1:]
    return "", notes


def without_brackets(text: str) -> str:
    """A name field without what it holds in brackets (a kunya or a note: "الكحال (أبو عبد الرحمن)"
    is the family name الكحال); the field as written is kept elsewhere."""
    if not any(b in text for b in "([{«"):
        return text
    return " ".join(_BRACKETS.sub(" ", text).split())


def _brackets(text: str, rules: list[str]) -> tuple[str, list[str], list[str]]:
    kunya: list[str] = []
    notes: list[str] = []
    if '"' in text or "“" in text or "„" in text:
        text = _QUOTED.sub(r"(\1)", text)
    if "'" in text or "‘" in text:
        text = _QUOTED_KUNYA.sub(r"(\1)", text)
    if not any(b in text for b in "([{«"):
        return text.strip(), kunya, notes  # most names: nothing in brackets (the pattern needs one to open)
    for inner in _BRACKETS.findall(text):
        inner = inner.strip()
        if not inner:
            continue
        first = _key(inner.split()[0])
        (kunya if first in _words("kunya_words") and len(inner.split()) > 1 else notes).append(inner)
    if kunya or notes:
        rules.append("bracketed kunya or note set apart")
    return _BRACKETS.sub(" ", text).strip(), kunya, notes


def _other_script(text: str, rules: list[str]) -> tuple[str, str]:
    """(the name, the same name in the other script): one field holding the name in both scripts
    ("محمد علي الحسن Mohammad Ali Al-Hasan", "… / Mohammad Ali Al-Hasan") was read as one name of six
    parts, or its Latin half as a place. The script the field begins with holds the name; a run of two
    words or more of the other script, after or before it, is set apart as a note, kept as written."""
    if text.isascii() or not mixes_scripts(text):
        return text, ""  # one script only: nearly every name
    words = text.split()
    scripts = [detect_script(w) for w in words]
    lettered = [i for i, sc in enumerate(scripts) if sc != "none"]
    own = scripts[lettered[0]] if lettered else "none"
    other = [i for i in lettered if scripts[i] != own]
    mine = [i for i in lettered if scripts[i] == own]
    if len(other) < 2 or len(mine) < 2 or other != list(range(other[0], other[-1] + 1)) \
            or not (other[0] > mine[-1] or other[-1] < mine[0]):
        return text, ""  # not two runs, one in each script, each of two words or more
    rules.append("the name in the other script set apart")
    return " ".join(words[i] for i in range(mine[0], mine[-1] + 1)), " ".join(words[i] for i in other)



@lru_cache(maxsize=1)
def _marker_heads() -> frozenset[str]:
    """The first word of every nickname marker, keyed."""
    return frozenset(marker.split()[0] for marker in _words("nickname_markers") if marker.split())


def _nickname(text: str, rules: list[str]) -> tuple[str, str]:
    words = text.split()
    heads = _marker_heads()
    if not any(token in heads for word in words[1:] for token in _key(word).split()):
        return text, ""  # no word can start a marker: skip keying every one-, two- and three-word phrase
    markers = _words("nickname_markers")
    for i in range(1, len(words)):
        for size in (3, 2, 1):
            if _key(" ".join(words[i:i + size])) in markers and i + size < len(words):
                rest = " ".join(words[i + size:])
                rules.append("nickname after a marker set apart")
                return " ".join(words[:i]), re.sub(r"^(ب|بـ)\s*", "", rest).strip()
    return text, ""


def _dashed_kunya(text: str, rules: list[str]) -> tuple[str, list[str]]:
    """A kunya after a dash or a slash ("محمد أحمد - أبو خالد", "Ahmad Ali / Abu Omar"): a kunya,
    not a place (it was read as the town and compared with the other report's city); or before it
    ("أبو خالد - محمد أحمد": read as written, "Abu Khalid" was the given name and the father's)."""
    for separator in _table()["place_separators"]:
        if separator not in text:
            continue  # as the partitions below would find: no separator, no kunya after or before it
        head, sep, tail = text.rpartition(separator)
        words = tail.split()
        if (sep and len(head.split()) >= 2 and 2 <= len(words) <= 3
                and _key(words[0]) in _words("kunya_words")):
            rules.append("kunya after a dash set apart")
            return head.strip(), [tail.strip()]
        head, sep, tail = text.partition(separator)
        words = head.split()
        if (sep and len(tail.split()) >= 2 and 2 <= len(words) <= 3
                and _key(words[0]) in _words("kunya_words")):
            # "أبو إبراهيم - عبد الغني حسن الكردي", "Abu Mohammad - Hassan Ayoubi": the kunya first
            rules.append("kunya before a dash set apart")
            return tail.strip(), [head.strip()]
    glued = _GLUED_KUNYA.search(text) if _has_dash(text) else None  # "محمد أحمد الحلبي-أبو خالد": no space
    if glued and len(text[:glued.start()].split()) >= 2 and _key(glued.group(1)) in _words("kunya_words"):
        rules.append("kunya after a dash set apart")
        return text[:glued.start()].strip(), [text[glued.start() + 1:].strip()]
    words = text.split()
    if (len(words) >= 4 and _key(words[-2]) in _words("kunya_words") and _has_article(words[-3])
            and _key(words[-3]) not in _marker_heads()  # "… الملقب أبو علي": a nickname, read next
            and _key(words[-4]) != "عبد"):  # "عبد الرزاق ابو حسين": the article of a compound's name
        # "محمد أحمد الحلبي أبو خالد", "محمد الخطيب ابو خالد" (twenty-fourth session: two words of name
        # before it too): after a family name with its article, "Abu X" is a kunya (after a name
        # without one it may be the family name: "محمد أحمد علي أبو زيد")
        rules.append("kunya after the family name set apart")
        return " ".join(words[:-2]), [" ".join(words[-2:])]
    size = 3 if len(words) > 1 and _key(words[1]) in _abd_words() else 2  # أبو عبد الله: a kunya of three words
    if (len(words) >= size + 3 and _key(words[0]) in _words("kunya_words") and _has_article(words[-1])
            and not any(_has_article(w) for w in words[size:-1]) and not _has_dash(text)
            and not _given_name_of_table(" ".join(words[:2]))):
        # (not a given name that begins as a kunya does: أبو بكر; with a dash, the rules above decide)
        # "أبو خالد محمد أحمد الخطيب" (twenty-fourth session): a kunya before three words of name that
        # end in a family name with its article; read as written, Abu Khalid was the given name (a
        # family name أبو زيد written first is followed by given names, none of them with the article)
        rules.append("kunya before the name set apart")
        return " ".join(words[size:]), [" ".join(words[:size])]
    return text, []


@lru_cache(maxsize=1)
def _abd_words() -> frozenset[str]:
    """عبد and its Latin forms, the first half of a compound (particles.yaml's compound_prefixes)."""
    forms = load_table("particles")["compound_prefixes"]["abd"]
    return frozenset(_key(str(w)) for script in ("arabic", "latin") for w in forms[script])


# a dash or a slash typed against the kunya after the name ("محمد أحمد الحلبي-أبو خالد", "…الخطيب/أبو خالد")
_GLUED_KUNYA = re.compile(r"[-–—/]\s*([^\s\-–—/]+)\s+[^\s\-–—/]+\s*$")


def _has_dash(text: str) -> bool:
    """A dash or slash _GLUED_KUNYA needs (searching for it in every name cost more than the rest of the
    step)."""
    return "-" in text or "–" in text or "—" in text or "/" in text


def _place(text: str, rules: list[str]) -> tuple[str, str]:
    for separator in _table()["place_separators"]:
        if separator not in text:
            continue
        head, sep, tail = text.rpartition(separator)
        if sep and len(head.split()) >= 2 and 1 <= len(tail.split()) <= 3:
            rules.append("place after the name set apart")
            return head.strip(), tail.strip()
    words = text.split()
    for at in range(len(words) - 2, 0, -1):  # "محمد من داريا", "Ahmad Ali from Deir ez-Zor": the last من / from
        if (_key(words[at]) in _words("place_words") and len(words) - at - 1 <= 3
                and not _not_a_place(" ".join(words[at + 1:]))):  # "من مواليد 1985": a note, read later
            rules.append("place after the name set apart")
            return " ".join(words[:at]), " ".join(words[at + 1:])
    return text, ""


def _figures_after_the_name(text: str, rules: list[str]) -> tuple[str, str]:
    """(the name, a note): a birth year or an age written in the name itself, with the words that
    introduce it and what follows ("محمد علي الحسن مواليد 1985 داريا", "Ahmad Ali Hasan born 1985",
    "محمد علي الحسن 1985"). No name is a figure (:func:`_figure`): the name ends before the first, and
    before the note words just ahead of it (``note_words``: مواليد، من مواليد، born), while two words
    of name remain; the rest is kept as a note."""
    if not any(ch.isdigit() for ch in text):
        return text, ""
    words = text.split()
    start = next((i for i, w in enumerate(words) if _figure(w)), len(words))
    while start > 2 and (_key(words[start - 1]) in _words("note_words")
                         or _key(" ".join(words[start - 1:start + 1])) in _words("note_words")):
        start -= 1
    if start < 2 or start == len(words):
        return text, ""
    rules.append("a birth year or an age after the name set apart")
    return " ".join(words[:start]), " ".join(words[start:])


def _figure(word: str) -> bool:
    """A year or an age ("1985", "١٩٨٥", "25،"): digits and no letter. A word of letters and digits is
    a name written in the chat alphabet ("MER3I", "Sa3eed": 3 for ع), not a figure."""
    return any(ch.isdigit() for ch in word) and not any(ch.isalpha() for ch in word)


def _not_a_place(tail: str) -> bool:
    """Is what follows a separator or a comma something other than a place or names — a birth year or
    an age (a figure: "مواليد 1985", "25"), a phrase that says so or names a parent (written_forms.yaml
    ``note_words``: "مواليد", "من مواليد", "والدته فاطمة", "born"), or a profession or a title ("طالب",
    "lawyer": ``titles``, with or without the Arabic article)? Read as a place it was compared as the
    report's town ("- مواليد 1985" against the other report's داريا: "town different"); after a comma,
    "والدته فاطمة" was read as the given names, the name before it as the family name."""
    words = tail.split()
    if not words:
        return False
    if any(_figure(w) for w in words):
        return True
    first, two = _key(words[0]), _key(" ".join(words[:2]))
    if first in _words("note_words") or two in _words("note_words"):
        return True
    whole = _key(tail)
    return whole in _words("titles") or ("ال" + whole) in _words("titles")


def _comma(text: str, rules: list[str]) -> tuple[str, bool, str]:
    """(name, family name first?, a descriptor after the comma): "al-Miqdad, Ahmad" is family
    first; "Ahmad Ali, lawyer" and "محمد علي الحسن، والدته فاطمة" have a descriptor."""
    if "," not in text and "،" not in text:
        return (text if text.strip() else ""), False, ""  # what the split below gives without a comma
    parts = [p for p in _COMMAS.split(text) if p.strip()]
    if len(parts) == 2 and _not_a_place(parts[1]):  # a title, a profession, a figure, a parent
        rules.append("descriptor after a comma set apart")
        return parts[0], False, parts[1].strip()
    if len(parts) == 2:
        rules.append("family name first (before the comma)")
        return f"{parts[1]} {_lineage_after_family(parts[0])}", True, ""
    return " ".join(parts), False, ""


def _lineage_after_family(before_comma: str) -> str:
    """The part before the comma, family name last: "TOUMEH BIN MOHAMMED" (lists write the family
    name, then "son of" and the father's line) is Toumeh son of Muhammad, "BIN MOHAMMED TOUMEH";
    read as written, the father's name was taken for the family name. A marker that opens the
    part is a family name of its own ("BIN ALI, Khodr")."""
    words = before_comma.split()
    markers = _patronymic_markers()
    for i, word in enumerate(words[1:-1], start=1):
        if _key(word) in markers:
            return " ".join(words[i:] + words[:i])
    return before_comma.strip()


@lru_cache(maxsize=1)
def _patronymic_markers() -> frozenset[str]:
    """"son of" / "daughter of" (particles.yaml), keyed as written.py keys words."""
    markers = load_table("particles")["patronymic_markers"]
    return frozenset(_key(str(w)) for w in [*markers["arabic"], *markers["latin"]])


def _unglue_titles(words: list[str], rules: list[str]) -> list[str]:
    """A title written onto the name, at the start: after its abbreviation's dot ("Dr.Ahmad",
    "Eng.Samer", "د.أحمد", "م.محمد", "Mhd.Ali") or, in Arabic, with no space at all when what
    follows is a given name of the variants table ("الدكتورأحمد", "المهندسمحمد") or the title ends in
    ة, which ends a word wherever it is written ("المهندسةسارة"). Left glued, the
    title was read as the given name and the name as the father's (issue 28: "a title glued to the
    name"). A word that merely begins as a title does ("المحاميد", a family name) stays whole."""
    if not words:
        return words
    first = _unglued(words[0], rules)
    if len(first) == 1 and len(words) > 1:  # a title of its own first ("الطالب د.أحمد"): the next may be glued
        return first + _unglued(words[1], rules) + words[2:]
    return first + words[1:]


def _unglued(word: str, rules: list[str]) -> list[str]:
    head, dot, tail = word.partition(".")
    if dot and len(tail.strip(".")) >= 2 and (_key(head) in _words("titles") or head.lower() + "." in _abbreviations()):
        rules.append("title glued to the name set apart")
        return [head + ".", tail]
    if word.isascii() or len(word) < 7 or not word.startswith("ال"):
        return [word]  # every title read off a glued word has its article (_glued_arabic_titles)
    for size in range(len(word) - 3, 4, -1):
        title, rest = word[:size], word[size:]
        # a feminine title's ة ends a word wherever it is written ("المهندسةسارة")
        if _key(title) in _glued_arabic_titles() and (title.endswith("ة") or _given_name_of_table(rest)):
            rules.append("title glued to the name set apart")
            return [title, rest]
    return [word]


@lru_cache(maxsize=1)
def _glued_arabic_titles() -> frozenset[str]:
    """The Arabic titles with their article (الدكتور, المهندسة …): the only ones read off a glued word."""
    return frozenset(t for t in _words("titles") if t.startswith("ال") and len(t) >= 5)


def _given_name_of_table(word: str) -> bool:
    tokens = name_tokens(word)
    return len(tokens) == 1 and bool(tokens[0].canonical)


def _titles(words: list[str], rules: list[str]) -> tuple[list[str], list[str]]:
    titles: list[str] = []
    table = _words("titles")
    while len(words) > 2 or (len(words) == 2 and not titles and _key(words[0]) in table and len(words[1]) > 1):
        # a title of two words is never a name: taken whole even when one word is left after it
        # ("الطالب الجامعي محمود" in a given-name column, issue 28's independent set)
        size = 2 if len(words) > 2 and _key(" ".join(words[:2])) in table else 1
        if _key(" ".join(words[:size])) not in table or len(words) - size < 1:
            break
        titles.append(" ".join(words[:size]))
        words = words[size:]
    if titles:
        rules.append("titles before the name set apart")
    return words, titles


def _expand_abbreviations(words: list[str], rules: list[str]) -> list[str]:
    table = _abbreviations()
    out = list(words)
    for i, word in enumerate(words[:-1]):
        full = table.get(word.lower())
        if full and (len(word) > 2 or i == 0):
            out[i] = full
            rules.append(f"abbreviation {word!r} read as {full}")
    return out


def _family_first(words: list[str], rules: list[str]) -> tuple[list[str], bool]:
    """Upper-case family name first (Latin), or a first word with the article (both scripts)."""
    if len(words) < 2:
        return words, False
    lead = 0
    while lead < len(words) and _is_upper(words[lead]):
        lead += 1
    if 0 < lead < len(words) and any(w[:1].isupper() and not _is_upper(w) for w in words[lead:]):
        rules.append("family name first (upper case)")
        return words[lead:] + words[:lead], True
    if len(words) >= 2 and _has_article(words[0]) and _given_names_after(words[1:]):
        rules.append("family name first (a first word with the article, known given names after it)")
        return words[1:] + words[:1], True
    if len(words) >= 3 and _key(words[0]) in _spaced_articles() and _given_names_after(words[2:]):
        # "el nabulsi esmail": the article written apart from the family name it opens
        rules.append("family name first (a first word with the article, known given names after it)")
        return words[2:] + words[:2], True
    if len(words) >= 3 and _is_nisba_family(words):
        rules.append("family name first (an unknown nisba before known given names)")
        return words[1:] + words[:1], True
    return words, False


def _is_nisba_family(words: list[str]) -> bool:
    """"فاعوري مصطفى حسين": a first word ending in ي that is no known given name, followed by
    given names the variants table knows (the last one too)."""
    first = _key(words[0])
    if not (first.endswith("ي") and len(first) >= 5) or first.startswith("عبدال"):
        return False  # عبد and the article glued open a given name (عبدالهادي، عبدالعلي), never a nisba
    tokens = name_tokens(words[0])
    return len(tokens) == 1 and tokens[0].canonical is None and _known_given(words[1]) and _known_given(words[-1])


def _given_names_after(words: list[str]) -> bool:
    """The words after a first word with the article read as given names: none of their tokens has
    the article (a compound's inner article does not count: "الحلبي مصطفى عبد الكريم") and the
    last one is a name the variants table knows."""
    tokens = name_tokens(" ".join(words))
    return bool(tokens) and not any(t.article for t in tokens) and tokens[-1].canonical is not None


def _known_given(word: str) -> bool:
    """A word the variants table knows as a given name (one token, article-free)."""
    tokens = name_tokens(word)
    return len(tokens) == 1 and not tokens[0].article and tokens[0].canonical is not None


def _is_upper(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return len(letters) > 1 and all(c.isupper() for c in letters)


@lru_cache(maxsize=1)
def _spaced_articles() -> frozenset[str]:
    """Articles that may stand apart from the family name they open ("el nabulsi"): the Arabic one
    and the Latin ones that also fuse (particles.yaml), keyed."""
    particles = load_table("particles")
    return frozenset(_key(str(w)) for w in [*particles["articles"]["arabic"], *particles["fused_latin_articles"]])


def _has_article(word: str) -> bool:
    if word.startswith(HAMZA_AL):
        return False  # أليفة، ألماظ، إلهام: a hamza on the alef says the letters belong to the name (the
        # article's alef carries none; tokens._hamza_al_words reads the tokens so) — "أليفة جمال خليل"
        # was read as Jamal son of Khalil of the family Alifa (issue 28, real_cross_parts)
    key = _key(word)
    if key in _words("article_given_names"):
        return False
    if re.match(r"^(al|el)[- ]\w", key):
        return True
    return key.startswith("ال") and len(key) > 4
