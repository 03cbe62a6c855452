"""Step 2 of the name pipeline: split a normalised name into name tokens.

Compounds become ONE token (عبد الرحمن, Abdel Rahman, Abdulrahman; نور الدين, Nour
Eddine, Nureddin; Abu Bakr; Fath Allah). The article (ال, al-, el-, fused "Alsalem")
is stripped for keys and remembered on the token. Patronymic markers (بن, ابن, bin,
ibn) are separate tokens with ``marker=True``; abbreviations (Mhd, Mohd) are expanded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from athar.matching.names.normalize import detect_script, normalize_name
from athar.matching.names.phonetic import latin_key, latin_skeleton, one_slip_apart, skeleton, transliterate
from athar.matching.names.resources import load_table
from athar.matching.names.variants import core_form, index_key, variant_index

# The second half of a Latin ...-din name: an article's vowel and its assimilated or written l before
# din, whatever the vowel typed inside ("Eddine", "Eddene", "Uddeen", "Eldyne"; particles.yaml lists
# the usual ones). One d alone ("Aden", "Eden") is not it.
_DIN_TAIL = r"(?:[aeiou][ld]-?d|[ae]l-?d|ud-?d)(?:i|ee|e|y)ne?$"
_DIN_FUSED = re.compile(r"^(.{3,}?)" + _DIN_TAIL)  # "Noureddine"
_DIN_END = re.compile(_DIN_TAIL)  # .match: the half written apart ("Nour Eddene"); .search: its end
_ALLAH_FUSED = re.compile(r"^(.{3,}?)(?:a|u|e)llah?$")


@dataclass(frozen=True, slots=True)
class NameToken:
    """One name (possibly compound) with its keys."""

    text: str  # normalised surface form, article removed, compound parts joined by " "
    script: str  # 'ar' or 'latin'
    article: bool = False  # an article was stripped (al-, ال)
    marker: bool = False  # a patronymic marker (bin, ibn, بن)
    compound: str = ""  # 'abd', 'abu', 'din', 'allah' or ''

    @property
    def core(self) -> str:
        """Flat form with inner articles removed (عبد الرحمن → عبدرحمن, Abdel Rahman → abdrahman)."""
        return _token_keys(self.text, self.script)[0]

    @property
    def key(self) -> str:
        """Latin-space spelling key (Arabic is romanised first)."""
        return _token_keys(self.text, self.script)[1]

    @property
    def index_key(self) -> str:
        return _token_keys(self.text, self.script)[2]

    @property
    def canonical(self) -> str | None:
        """Canonical name from the variants table, or None when unknown."""
        return _token_keys(self.text, self.script)[3]

    @property
    def candidates(self) -> tuple[str, ...]:
        """The names of the variants table this spelling may write: its canonical name, or the names
        an ambiguous spelling writes (KAMEL: كمال and كامل), sorted; () when unknown."""
        canon = self.canonical
        return (canon,) if canon else variant_index().names_of(self.index_key)

    @property
    def skeleton(self) -> str:
        """Cross-script consonant skeleton of the surface form."""
        return _token_keys(self.text, self.script)[4]

    @property
    def block_key(self) -> str:
        """Skeleton of the canonical name when known (so all its spellings share a block)."""
        return _token_keys(self.text, self.script)[5]

    @property
    def name_id(self) -> str:
        """'=canonical' for known names, else the script's own key (for exact comparisons)."""
        canon = self.canonical
        return "=" + canon if canon else self.key

    def display(self) -> str:
        prefix = ("ال" if self.script == "ar" else "al-") if self.article else ""
        return prefix + self.text


@lru_cache(maxsize=500_000)
def _token_keys(text: str, script: str) -> tuple[str, str, str, str | None, str, str]:
    """(core, key, index_key, canonical, skeleton, block_key) of a token's text."""
    core = core_form(text, script)
    key = latin_key(transliterate(core) if script == "ar" else core)
    ikey = index_key(text, script)
    # exact spelling, or one typo inside a known spelling; not the vowel-blind lookup, which
    # made عامر (Amer) into عمر (Omar) and "Amer" into عمرو (Amr) (issue 18, docs/names.md)
    # another romanisation's letters (Russian kh for ح) before a typo is guessed: Khabib is
    # حبيب, not Khatib one letter away
    index = variant_index()
    canon = (index.exact.get(ikey) or index.feminine_canonical(ikey) or index.alternate_canonical(ikey)
             or index.near_canonical(ikey))
    if canon is None and script != "ar":
        canon = _din_canonical(text)
    skel = skeleton(core, script)
    block = skeleton(core_form(canon, "latin"), "latin") if canon else skel
    return core, key, ikey, canon, skel, block


def _din_canonical(text: str) -> str | None:
    """The canonical name of a Latin ...-din compound whose second half has another vowel than the
    table's spellings ("Nour Eddene", "Salaheddyne"): looked up with the usual "eddine"."""
    end = _DIN_END.search(text)
    if end is None:
        return None
    index = variant_index()
    ikey = index_key(text[:end.start()] + "eddine", "latin")
    return index.exact.get(ikey) or index.alternate_canonical(ikey)


@lru_cache(maxsize=1)
def _particles() -> dict:
    return load_table("particles")


@lru_cache(maxsize=1)
def _word_lists() -> tuple[set[str], set[str], dict[str, dict[str, set[str]]], dict[str, dict[str, set[str]]], set[str]]:
    p = _particles()
    articles = set(p["articles"]["arabic"]) | set(p["articles"]["latin"])
    markers = set(p["patronymic_markers"]["arabic"]) | set(p["patronymic_markers"]["latin"])
    pre = {k: {s: set(v[s]) for s in ("arabic", "latin")} for k, v in p["compound_prefixes"].items()}
    suf = {k: {s: set(v[s]) for s in ("arabic", "latin")} for k, v in p["compound_suffixes"].items()}
    return articles, markers, pre, suf, set(p["fused_latin_articles"])


@lru_cache(maxsize=1)
def _after_marker_only() -> frozenset[str]:
    """Compound heads that join the next name only after بن / ibn (particles.yaml)."""
    return frozenset(str(w) for w in _particles().get("compound_after_marker_only", []))


def _side(script: str) -> str:
    return "arabic" if script == "ar" else "latin"


def _strip_article(word: str, script: str) -> tuple[str, bool]:
    p = _particles()
    if script == "ar":
        if word.startswith("ال") and len(word) > 3 and word not in p["not_article_arabic"]:
            return word[2:], True
        rest = _transposed_article(word)
        return (rest, True) if rest else (word, False)
    m = re.match(r"^(al|el|il|ul|ad|ar|as|at|az|an|ash|ed|es|er|en|ud|ur|us)-(.+)$", word)
    if m:
        return _maghrebi_fused_article(m.group(2))[0], True
    m = re.match(r"^(?:l|el|al)'(.{3,})$", word)  # Maghrebi/French elided article: L'houcine = الحسين
    if m:
        return m.group(1), True
    rest, fused = _maghrebi_fused_article(word)
    if fused:
        return rest, True
    if _fused_article(word, p):
        return word[2:], True
    return word, False


def _transposed_article(word: str) -> str | None:
    """The name after an Arabic article whose two letters are swapped, or None. A typist's slip, and
    how text copied out of a PDF often writes الأ / الإ / الا (the لا ligature stored in visual order:
    "األسود" for الأسود, folded "االسود"): no Arabic word begins with "اال", so the article is read and
    the alif kept ("اسود"). "لا…" begins names (لافي، لارا): read as the article only when the rest is
    a name of the table and the whole word is not ("لاخطيب" for الخطيب; issue 28, the independent set)."""
    if len(word) < 5:
        return None
    if word.startswith("اال"):
        return "ا" + word[3:]
    if word.startswith("لا"):
        index = variant_index()
        if not index.listed(index_key(word, "ar")) and index.listed(index_key(word[2:], "ar")):
            return word[2:]
    return None


def _fused_article(word: str, p: dict) -> bool:
    """The article fused to the name ("Alsalem", "Elhassan"), never in a word the variants table
    lists whole. Before a vowel ("Alahmed", "ALOMAR", "Aleissa", "Alali": the commonest Latin spelling
    of الأحمد، العمر، العلي on Syrian lists) only when the rest is a name of the table: Alaa, Alia,
    Elias and Alawi begin so too and are names of their own."""
    if len(word) < 5 or word[:2] not in p["fused_latin_articles"] or word in p["not_article_latin"]:
        return False
    index = variant_index()
    if index.canonical("la:" + latin_key(word)) is not None:
        return False
    if word[2] in "aeiou":
        return index.listed("la:" + latin_key(word[2:]))
    return len(word) >= 6 and word[2] not in "yw"


def _maghrebi_fused_article(word: str) -> tuple[str, bool]:
    """Maghrebi spellings fuse the article's l to a name that starts with a vowel (Lassaad =
    الأسعد, El-Lassaad): the l is an article when the word is no listed name and the rest is
    (Latifa, Layla stay as they are). Before an h too (twenty-fourth session): Lhoussine = الحسين,
    Lhadi = الهادي."""
    if len(word) < 6 or word[0] != "l" or word[1] not in "aeiouh":
        return word, False
    index = variant_index()
    if index.listed("la:" + latin_key(word)) or not index.listed("la:" + latin_key(word[1:])):
        return word, False
    return word[1:], True


def _split_words(text: str) -> list[str]:
    words = []
    for raw in text.split(" "):
        # "al-salem" stays one word (article handled later), "abdel-rahman" splits
        parts = raw.split("-")
        if len(parts) > 1 and parts[0] in _word_lists()[0]:
            words.append(parts[0] + "-" + "".join(parts[1:]))
        else:
            words.extend(w for p in parts if p for w in _space_lost(p))
    return _abd_glued([w.strip("'") for w in words if w.strip("'")])


_KUNYA_GLUED = ("ابو", "ام")  # normalised أبو / أم


@lru_cache(maxsize=100_000)
def _space_lost(word: str) -> tuple[str, ...]:
    """An Arabic word that is two names typed without the space between them ("محمدالخالد",
    "محمودعيسي", "محمدطه", "ابوابراهيم": a list typed on a phone; field_lists.py, 12 % of an activist's
    names), as two words: a name (three letters or more) and either the article and two letters or
    more, or another name of the table (the kunya's أبو / أم and a name too). Before the article the
    name may be one of the list of given names too (``given_names.yaml``: "صهيبالسيد", twentieth
    session); two names of that list are not read off one word ("املحمد" is المحمد mistyped, not
    أمل حمد: independent_syrian). A word the
    table knows whole stays whole (عبدالله, سعدالدين are read as compounds later), and so does one
    whose rest is an ending (محمداوي, نوراني, حسنين: family names) or الله (سعدالله). A compound of
    عبد the table knows may be the first name ("عبدالرحمنالخطيب"), never عبد alone. A name followed by
    letters no list knows is not cut (نورهان, هانيبال, يوسفزاي: measured on 67,172 words of the
    ANETAC list, 880 would have been cut)."""
    if (len(word) < 5 or detect_script(word) != "ar" or word.startswith("ال") or word.endswith("الدين")
            or _known(word)):
        return (word,)
    abd = word.startswith("عبد")
    for cut in range(2, len(word) - 1):
        head, rest = word[:cut], word[cut:]
        if abd and (cut < 6 or not _known(head)):
            continue  # عبد + الرحمن + … : only after the whole compound
        glued_kunya = head in _KUNYA_GLUED and len(rest) >= 3 and _known(rest)
        named = len(head) >= 3 and rest != "الله" and (
            (rest.startswith("ال") and len(rest) >= 4 and _real_name(head))
            or (len(rest) >= 2 and _known(head) and _known(rest))
            or _two_long_names(head, rest))
        if glued_kunya or named:
            return (head, rest)
    return (word,)


def _two_long_names(head: str, rest: str) -> bool:
    """Two names of four letters or more, one of the variants table and the other of it or of the
    list of given names: "محمدنايف", "فاروقمحمد" (a given and a father's name typed as one word; نايف
    and فاروق are names the list knows and the table does not group). Four letters each: "املحمد"
    is المحمد mistyped, not أمل حمد."""
    return (len(head) >= 4 and len(rest) >= 4 and not rest.startswith("ال") and (_known(head) or _known(rest))
            and _real_name(head) and _real_name(rest))


def _abd_glued(words: list[str]) -> list[str]:
    """A name typed against the عبد of the compound that follows it ("محمدعبد الرزاق نعسان"), and a
    compound typed against the family name ("عبد الرحمنالعظم"; field_lists.py's activist lists, the
    space lost): the name, عبد and the compound's name of God, and the family name, apart. The name
    before عبد must be a real name (``_real_name``), the name of God one of ``abd_divine_names``, and
    what follows it three letters or more (twenty-third session)."""
    if len(words) < 2:
        return words
    out: list[str] = []
    for i, word in enumerate(words):
        after = words[i + 1] if i + 1 < len(words) else ""
        prev = out[-1] if out else ""
        if (word.endswith("عبد") and len(word) >= 6 and _real_name(word[:-3])
                and _divine_head(after) is not None):
            out.extend((word[:-3], "عبد"))
        elif prev == "عبد" and (divine := _divine_head(word)) is not None and len(word) - len(divine) >= 3:
            out.extend((divine, word[len(divine):]))
        else:
            out.append(word)
    return out


def _divine_head(word: str) -> str | None:
    """The name of God (``abd_divine_names``, the longest) that begins ``word``, if one does."""
    if not word.startswith("ال"):
        return None
    heads = [d for d in _abd_divine() if word.startswith(d)]
    return max(heads, key=len) if heads else None


def whole_name_unglued(words: list[str]) -> list[str]:
    """A whole name typed as one Arabic word ("خالدجهماني", "باسلبويضاني", "ساملالشهابي": a list typed
    on a phone, the space lost) — a person is not reported by one word of ten letters — cut where a
    real given name ends (``_real_name``, the longest; three letters or more before, four or more
    after, or three in a word of seven: "محمدمطر" but not "نورهان"), else before an article inside it (three letters or more before, four or more from the
    article on). Bolder than ``_space_lost``, which cuts any word only between two names a list
    knows: a word alone is the whole name. A word that is a name whole (نورهان، عبدالرحمن) stays whole,
    and so does one that ends in الدين or الله (compounds), or whose rest is a nisba's ending. For a
    full name only (order.py): a name part's column holds one word as a rule (twenty-third session)."""
    if len(words) != 1:
        return words
    word = words[0]
    if (len(word) < 6 or detect_script(word) != "ar" or word.startswith(("ال", "عبد", "ابو", "ام"))
            or word.endswith(("الدين", "الله")) or _real_name(word)):
        return words
    for cut in range(len(word) - 3, 2, -1):
        head, rest = word[:cut], word[cut:]
        if (_real_name(head) and rest not in _NISBA_ENDINGS and (len(rest) >= 4 or len(word) >= 7)
                and not (rest.startswith("ال") and len(rest) < 4)):
            return [head, rest]
    article = word.find("ال", 3)
    if article > 0 and len(word) - article >= 4:
        return [word[:article], word[article:]]
    return words


_NISBA_ENDINGS = frozenset({"اوي", "اني", "ية", "يه", "ين"})


def _real_name(word: str) -> bool:
    """A name of the variants table or of the list of given names."""
    return _known(word) or normalize_name(word) in _given_names()


@lru_cache(maxsize=1)
def _given_names() -> frozenset[str]:
    return frozenset(normalize_name(str(n)) for names in load_table("given_names").values() for n in names)


def _known(word: str) -> bool:
    return _token_keys(word, "ar")[3] is not None


@lru_cache(maxsize=1)
def _kind_maps() -> tuple[dict[str, str], dict[str, str]]:
    _, _, pre, suf, _ = _word_lists()
    prefixes = {w: kind for kind, sides in pre.items() for words in sides.values() for w in words}
    suffixes = {w: kind for kind, sides in suf.items() for words in sides.values() for w in words}
    return prefixes, suffixes


def _prefix_kind(word: str, script: str) -> str:
    return _kind_maps()[0].get(word, "")


def _suffix_kind(word: str, script: str) -> str:
    kind = _kind_maps()[1].get(word, "")
    if not kind and script != "ar" and _DIN_END.match(word):
        return "din"  # "Nour Eddene", "Ala Eddyn": the listed forms with another vowel, as fused ones
    return kind


def _split_fused(word: str, script: str) -> tuple[str, str, str] | None:
    """'abdulrahman' → ('abd', 'rahman', 'abd'); 'nureddin' → ('nur', 'din', 'din')."""
    if script == "ar":
        if word.startswith("عبد") and len(word) > 4:
            return "عبد", _strip_article(word[3:], script)[0] if word[3:].startswith("ال") else word[3:], "abd"
        if word.endswith("الدين") and len(word) > 6:
            return word[:-5], "دين", "din"
        return None
    if word.startswith("abd") and len(word) > 5:
        return word, "", "abd"
    if _DIN_FUSED.match(word):
        return word, "", "din"
    return None


# ذو ("the one of") is always followed by the article: ذو الفقار، ذو الهمة، ذو النون. Latin lists write
# its ذ as dh, th, z (Dhu, Thu, Zu), fuse the article to it (Dhul, Dhuil, Zul) or drop it ("SHALEESH,
# Dhu Himma": OFAC's aliases of one man, with "Dhu Al Himma", "Dhuil Himma", "Thu Al Hima"). Each is
# read as "dhu al" and the name, so that one name has one key (twentieth session).
_DHU_FUSED = frozenset({"dhul", "dhuil", "dhoul", "thul", "thuil", "zul", "zoul", "zuil"})


def _dhu(words: list[str], i: int) -> str:
    """Rewrite ``words[i]`` (a Latin form of ذو, maybe with the article fused) as "dhu", followed by
    the article "al" when the next word has none."""
    words[i] = "dhu"
    nxt = i + 1
    if nxt < len(words) and words[nxt] not in _word_lists()[0] and not words[nxt].startswith(("al-", "el-")):
        words.insert(nxt, "al")
    return "dhu"


@lru_cache(maxsize=100_000)
def tokenize_name(name: str | None) -> tuple[NameToken, ...]:
    """Name tokens of a full name or name part, in written order (either script)."""
    text = normalize_name(name)
    if not text:
        return ()
    protected = _hamza_al_words(name or "")
    articles, markers, _, _, _ = _word_lists()
    abbreviations = _particles()["abbreviations"]
    out: list[NameToken] = []
    words = _split_words(text)
    i = 0
    pending_article = False
    while i < len(words):
        word = words[i]
        script = detect_script(word)
        if script == "none":
            i += 1
            continue
        if word in markers and out:
            out.append(NameToken(word, script, marker=True))
            i += 1
            continue
        if word in articles and i + 1 < len(words):
            pending_article = True
            i += 1
            continue
        if script == "latin" and word in abbreviations and abbreviations[word] and len(words) > 1:
            word = abbreviations[word]
        if script == "latin" and (word in _DHU_FUSED or _prefix_kind(word, script) == "dhu"):
            word = _dhu(words, i)
        kind = _prefix_kind(word, script)
        if not kind and _slipped_abd(words, i, script):
            word, kind = ("عبد" if script == "ar" else "abdel"), "abd"
            words[i] = word
        if kind == "abd" and script == "ar" and i + 1 < len(words) and (whole := _truncated_divine_name(words[i + 1])):
            words[i + 1] = whole  # "عبد اللطي": اللطيف with its last letter lost
        if kind and word in _after_marker_only() and not (out and out[-1].marker):
            kind = ""
        nxt_i = i + 1
        if kind and nxt_i < len(words) and words[nxt_i] in articles and nxt_i + 1 < len(words):
            nxt_i += 1
        if (kind == "abu" and nxt_i + 1 < len(words) and _prefix_kind(words[nxt_i], script) == "abd"
                and not _cut_short("abd", words, nxt_i, nxt_i + 1)):
            # أبو عبد الله، Abu Abd al-Rahman: the kunya holds the whole compound (twentieth session:
            # "أبو عبد" and "الله" were read as a given and a father's name)
            nxt_i += 1
            if words[nxt_i] in articles and nxt_i + 1 < len(words):
                nxt_i += 1
        if kind and nxt_i < len(words) and not _cut_short(kind, words, i, nxt_i):
            joined = " ".join(words[i:nxt_i + 1])
            out.append(_make(joined, script, pending_article, kind))
            pending_article = False
            i = nxt_i + 1
            continue
        suffix = _suffix_kind(word, script)
        if not suffix and out and _slipped_din(out[-1], word, script):
            word, suffix = ("الدين" if script == "ar" else "eddine"), "din"
        if suffix and out and not out[-1].marker and not out[-1].compound:
            prev = out.pop()
            out.append(_make(prev.text + " " + word, prev.script, prev.article, suffix))
            i += 1
            continue
        word, had_article = (word, False) if word in protected else _strip_article(word, script)
        fused = _split_fused(word, script)
        if fused:
            head, rest, kind = fused
            out.append(_make((head + " " + rest).strip(), script, pending_article or had_article, kind))
        else:
            out.append(_make(word, script, pending_article or had_article, ""))
        pending_article = False
        i += 1
    return tuple(out)


@lru_cache(maxsize=1)
def _abd_joins() -> frozenset[str]:
    entry = _particles().get("abd_joins_nisba_like", {})
    return frozenset(str(w) for side in ("arabic", "latin") for w in entry.get(side, []))


@lru_cache(maxsize=1)
def _abd_divine() -> frozenset[str]:
    return frozenset(normalize_name(str(w)) for w in _particles().get("abd_divine_names", []))


@lru_cache(maxsize=1)
def _abd_persons() -> frozenset[str]:
    return frozenset(normalize_name(str(w)) for w in _particles().get("abd_person_names", []))


@lru_cache(maxsize=1)
def _abd_divine_latin() -> frozenset[str]:
    return frozenset(str(w).lower() for w in _particles().get("abd_divine_latin", []))


@lru_cache(maxsize=1)
def _abd_divine_skeletons() -> frozenset[str]:
    """The consonants of the Latin names of God (two or more: "Ali" and "Aziz" say too little)."""
    return frozenset(k for w in _abd_divine_latin() if len(k := latin_skeleton(w)) >= 2)


def _cut_short(kind: str, words: list[str], i: int, nxt_i: int) -> bool:
    """عبد before the last word of a name of three words or more, when that word is a nisba
    (ends in ي / i / y) and not a name of God ending so, or (Arabic, after the given name, before any
    word) a word that is none of the names عبد joins: a father's name cut to its first word ("محمد عبد
    الحلبي", "ماهر عبد الشيخ", "فادي عبد فادي الأحمد", issue 28), not a compound (particles.yaml,
    abd_joins_nisba_like, abd_divine_names)."""
    if kind != "abd" or i < 1:
        return False
    nxt = words[nxt_i]
    if words[i] == "عبد" and nxt_i == i + 1 and detect_script(nxt) == "ar":
        # anywhere after the given name: "فادي عبد فادي الأحمد" is Fadi son of Abd…, grandson of Fadi
        # (a person's name without its article is a given name: "حسن عبد حسن" is Hasan son of Abd…,
        # grandson of Hasan; particles.yaml abd_person_names)
        return (nxt not in _abd_divine() and (("ال" + nxt) not in _abd_divine() or ("ال" + nxt) in _abd_persons())
                and len(nxt) >= 3)
    if detect_script(nxt) == "latin" and nxt_i == i + 1:
        bare = _strip_article(nxt, "latin")[0]
        if bare in _abd_divine_latin() or nxt in _abd_divine_latin() or len(bare) < 3:
            return False
        if nxt_i == len(words) - 1:
            # "Ahmed Abdel Barakat": no name of God (article or not: "Abd al-Rahman"), the family name
            # after a father's name cut to its first word
            return True
        # (issue 28, eleventh session) before a man's name of the table that is no name of God in any
        # of its spellings, as in Arabic: "Houssain Abdel Mohammad Al Djoundi" is Husayn son of Abd…
        # (cut short), grandson of Muhammad; "Abdel Djalil" stays Abd al-Jalil (Djalil: jalil)
        known = variant_index().canonical(index_key(bare, "latin"))
        # …unless it is written as a name of God is ("Abdel Djalel" is Abd al-Jalil, though Djalel alone
        # is Jalal; "ABDEL SALEM" Abd al-Salam): the same consonants as one of them
        return (known is not None and known not in _abd_divine_latin()
                and latin_skeleton(bare) not in _abd_divine_skeletons())
    if nxt_i != len(words) - 1:
        return False
    return nxt not in _abd_joins() and len(nxt) >= 3 and nxt.endswith(("ي", "ى", "i", "y"))


def _one_slip_from(word: str, target: str) -> bool:
    """``target`` with a letter dropped or two neighbours swapped (not a letter added, not one
    changed: عيد and عند are names and words of their own, not slips of عبد)."""
    return len(word) <= len(target) and one_slip_apart(word, target)


@lru_cache(maxsize=1)
def _latin_abd_forms() -> tuple[str, ...]:
    # the long forms only: a slip of "abdu", "abdi" or "abed" is often a name of its own (Abud, Badi)
    return tuple(w for w in _word_lists()[2]["abd"]["latin"] if len(w) >= 5)


def _slipped_abd(words: list[str], i: int, script: str) -> bool:
    """عبد typed with a letter dropped or two swapped ("عدب الوهاب", "عد الرحمن", "Abdle Wahab",
    "Adbul Rahman", issue 28: "a letter swapped in عبد → عدب") before a name of God with its article
    (Arabic) or one of its Latin spellings: read as عبد. A word that is a name of its own (Adel,
    Abed) is left as written, and so is a slip before any other word."""
    word = words[i]
    if i + 1 >= len(words) or len(word) < 2:
        return False
    nxt = words[i + 1]
    if script == "ar":
        return (detect_script(nxt) == "ar" and nxt in _abd_divine() and nxt not in _abd_persons()
                and _one_slip_from(word, "عبد"))
    if detect_script(nxt) != "latin" or _strip_article(nxt, "latin")[0] not in _abd_divine_latin():
        return False
    if variant_index().listed("la:" + latin_key(word)):
        return False
    # "Adb al-Selam": abd's own letters swapped (a letter dropped from it leaves too little to tell)
    return word == "adb" or any(_one_slip_from(word, form) for form in _latin_abd_forms())


def _truncated_divine_name(word: str) -> str | None:
    """The name of God with its article that ``word`` is, its last letter lost ("عبد اللطي", "عبد
    الحمي": اللطيف, الحميد), when only one is; None otherwise (a letter lost inside a name makes
    another name: الحكم is no slip of الحكيم)."""
    if not word.startswith("ال") or len(word) < 4 or word in _abd_divine():
        return None
    found = [name for name in _abd_divine() if name[:-1] == word and name not in _abd_persons()]
    return found[0] if len(found) == 1 else None


@lru_cache(maxsize=1)
def _din_heads() -> tuple[frozenset[str], frozenset[str]]:
    """The first words of the ...-din compounds of the variants table: Arabic (صلاح، نور) and the
    canonical ids of their Latin spellings (salah, nur)."""
    index = variant_index()
    arabic = {f.split()[0] for name, forms in index.variants.items() if name.endswith(" al-din")
              for f in forms if " " in f and not f.isascii()}
    latin = {name.split()[0] for name in index.variants if name.endswith(" al-din")}
    return frozenset(normalize_name(a) for a in arabic), frozenset(latin)


def _slipped_din(prev: NameToken, word: str, script: str) -> bool:
    """الدين (or "Eddine") typed with a letter dropped or two swapped after the first word of a
    ...-din name ("صلاح لادين", "Nour Eddnie"): the compound, as a clean copy of it is."""
    if prev.compound or prev.marker:
        return False
    arabic_heads, latin_heads = _din_heads()
    if script == "ar":
        return prev.text in arabic_heads and any(_one_slip_from(word, form) for form in ("الدين", "دين"))
    return prev.canonical in latin_heads and len(word) >= 5 and any(_one_slip_from(word, f) for f in _latin_din_forms())


@lru_cache(maxsize=1)
def _latin_din_forms() -> tuple[str, ...]:
    # the long forms of particles.yaml ("eddine", "aldin"): a slip of "din" or "dine" says too little
    return tuple(w for w in _word_lists()[3]["din"]["latin"] if len(w) >= 5 and "-" not in w)


HAMZA_AL = ("أل", "إل")  # the article's alef carries no hamza: these letters belong to the name


def _hamza_al_words(name: str) -> frozenset[str]:
    """Words written with أل/إل: the article is written with a bare alef (ال), so a hamza on
    the alef says the letters belong to the name (أليفة، ألطاف، إلهام), not an article."""
    return frozenset(normalize_name(w) for w in name.split() if w.startswith(HAMZA_AL))


@lru_cache(maxsize=500_000)  # one object per distinct token: names kept for a whole table share them
def _make(text: str, script: str, article: bool, compound: str) -> NameToken:
    return NameToken(text=text, script=script, article=article, compound=compound)


def name_tokens(name: str | None) -> tuple[NameToken, ...]:
    """Tokens without patronymic markers."""
    return tuple(t for t in tokenize_name(name) if not t.marker)
