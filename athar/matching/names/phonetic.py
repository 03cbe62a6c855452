"""Step 3 of the name pipeline: keys in one Latin key space for both scripts.

* ``latin_key``     a spelling key for Latin names: French "ou" before a vowel at the start → w
  (Ouassim), doubled letters, ou/oo/o → u,
  ee/ie → i, ei/ai/ay/ey → ay, ph → f, dj → j, ch → sh, final "ah" → "a", final y → i.
* ``transliterate`` Arabic → readable Latin (letter table + context rules for و/ي/ة).
* ``skeleton``      the cross-script consonant skeleton: consonant classes only,
  vowels and ع/ء dropped, و/ي (w/y) kept only at the start, final h dropped.
  محمود → mhmd, Mahmoud → mhmd, Mahmud → mhmd. Used for blocking: coarse on purpose.
"""

from __future__ import annotations

import re
from functools import lru_cache

from athar.matching.names.resources import load_table

_DOUBLES = re.compile(r"(.)\1+")
_LATIN_RULES = [
    (re.compile(r"[^a-z]"), ""),
    (re.compile(r"ph"), "f"),
    (re.compile(r"dj"), "j"),
    (re.compile(r"(?<!s)ch"), "sh"),
    (re.compile(r"(ou|oo|o)"), "u"),
    (re.compile(r"(ee|ie$|ea)"), "i"),
    (re.compile(r"(ei|ai|ey)"), "ay"),
    (re.compile(r"([bcdfghjklmnpqrstvwxz])y$"), r"\1i"),
    (re.compile(r"([aeiu])h$"), r"\1"),
    # French/Maghrebi mute final e after a consonant (Ousmane, Othmane, Imane, Hanane, Slimane):
    # the Arabic name ends on the consonant (عثمان، إيمان). Names of five letters or more.
    (re.compile(r"(?<=[a-z]{3}[bcdfghjklmnpqrstvwxz])e$"), ""),
]
_VOWELS = set("aeiou")


_FRENCH_W = re.compile(r"^ou(?=[aeiy])")


def latin_key(token: str) -> str:
    """Spelling key of one folded Latin name token (see module docstring)."""
    key = _FRENCH_W.sub("w", token.lower())  # French "ou" before a vowel is w: Ouassim, Oualid
    for pattern, repl in _LATIN_RULES[:7]:
        key = pattern.sub(repl, key)
    key = _DOUBLES.sub(r"\1", key)
    # a Levantine feminine ending written "eh" (Samireh, Amineh, Jamileh: سميرة، أمينة، جميلة) is no
    # French mute e: without it they were the masculine Samir, Amin, Jamil (a sister read as her brother)
    rules = _LATIN_RULES[7:-1] if key.endswith("eh") else _LATIN_RULES[7:]
    for pattern, repl in rules:
        key = pattern.sub(repl, key)
    return key


def loose_key(key: str) -> str:
    """A key with every vowel run collapsed to 'a': Khaled and Khalid meet (khalad)."""
    return re.sub(r"[aeiou]+", "a", key)


@lru_cache(maxsize=1)
def _letters() -> dict[str, dict[str, str]]:
    return load_table("transliteration")["letters"]


@lru_cache(maxsize=1)
def _latin_skeleton_rules() -> list[tuple[str, str]]:
    rules = load_table("transliteration")["latin_skeleton"]
    return sorted(rules.items(), key=lambda kv: -len(kv[0]))


@lru_cache(maxsize=200_000)
def transliterate(token: str) -> str:
    """Romanise one normalised Arabic token; non-Arabic characters pass through."""
    letters = _letters()
    out: list[str] = []
    for i, ch in enumerate(token):
        nxt = token[i + 1] if i + 1 < len(token) else ""
        if ch in "وي" and (i == 0 or nxt == "ا"):
            out.append("w" if ch == "و" else "y")
        elif ch == "ه" and i == len(token) - 1 and i > 0:
            out.append("a" if token[i - 1] not in "اوي" else "h")
        elif ch in letters:
            out.append(letters[ch]["latin"])
        else:
            out.append(ch)
    return "".join(out)


@lru_cache(maxsize=200_000)
def arabic_skeleton(token: str) -> str:
    """Consonant skeleton of one normalised Arabic token."""
    letters = _letters()
    out = []
    token = token.replace("تش", "ش")
    for i, ch in enumerate(token):
        if ch in "وي":
            out.append(("w" if ch == "و" else "y") if i == 0 else "")
        elif ch in letters:
            out.append(letters[ch]["skeleton"])
        elif ch.isascii() and ch.isalnum():
            out.append(ch)
    return _finish_skeleton("".join(out))


# A German spelling: ch before t is خ (Ichtijar, Muchtar: اختيار، مختار; OFAC's German alias of IKHTIYAR),
# and a name so written writes ي as j. Only before t: before another consonant ch is as often the
# French ش (Achraf, Ichraq: أشرف، إشراق; the phenomena set lost four pairs when any consonant counted).
_GERMAN_CH = re.compile(r"(?<!s)ch(?=t)")


def german_reading(text: str) -> str:
    """A Latin token written as German writes Arabic names, read as English does: ch before t as kh,
    and then j as y (twenty-third session); any other token unchanged."""
    if not _GERMAN_CH.search(text):
        return text
    return _GERMAN_CH.sub("kh", text).replace("j", "y")


@lru_cache(maxsize=200_000)
def latin_skeleton(token: str) -> str:
    """Consonant skeleton of one folded Latin token."""
    text = german_reading(_FRENCH_W.sub("w", re.sub(r"[^a-z]", "", token.lower())))
    out: list[str] = []
    i = 0
    rules = _latin_skeleton_rules()
    while i < len(text):
        if i == 0 and text[0] in "wy":
            out.append(text[0])
            i += 1
            continue
        for spelling, cls in rules:
            if text.startswith(spelling, i):
                out.append(cls)
                i += len(spelling)
                break
        else:
            i += 1  # vowels, medial w/y
    return _finish_skeleton("".join(out))


def _finish_skeleton(skel: str) -> str:
    skel = _DOUBLES.sub(r"\1", skel)
    if len(skel) > 1 and skel.endswith("h"):
        skel = skel[:-1]
    return skel


_COARSE = str.maketrans({"g": "k", "j": "k", "q": "k", "z": "t", "d": "t", "c": "s", "x": "k", "f": "b",
                         "w": "", "y": "", "h": ""})


def coarse_skeleton(skel: str) -> str:
    """A coarser skeleton for recall-oriented blocking of names written by foreigners:
    g/j/k/q, d/t/z, s/sh, b/f/p merge; h, w, y drop (Mahler / مالر, Gagarin / غاغارين)."""
    return _DOUBLES.sub(r"\1", skel.translate(_COARSE))


def skeleton(token: str, script: str) -> str:
    """Cross-script skeleton of one normalised token in the given script ('ar' or 'latin')."""
    return arabic_skeleton(token) if script == "ar" else latin_skeleton(token)


# Consonant classes of the skeleton whose Arabic letters differ only by their dots (ر/ز, ح/ج/خ,
# ب/ت/ث/ن, س/ش, ص/ض, ط/ظ, ف/ق, د/ذ): one name misread in handwriting or by OCR.
# ع/غ: ع leaves no consonant in the skeleton, so غ is dropped too.
_DOTLESS = str.maketrans({"z": "r", "j": "h", "x": "h", "t": "b", "n": "b", "c": "s", "d": "s", "k": "f", "g": None})
# Across scripts (an Arabic spelling misread by a dot against a Latin one) the class d is د far more
# often than ض, and د has no dotted twin among س/ص: d stays d (دلال and the Latin "Sali" share the
# dotless key "sl" otherwise, issue 28).
_DOTLESS_ACROSS = str.maketrans({"z": "r", "j": "h", "x": "h", "t": "b", "n": "b", "c": "s", "k": "f", "g": None})


def dotless(skel: str, *, across_scripts: bool = False) -> str:
    """The skeleton with dotted twins merged (see ``_DOTLESS``), doubles and a final h dropped
    again as the skeleton does (حبيث → hbt → hbb → hb, as حبيب); ``across_scripts``: for an
    Arabic spelling against a Latin one (``_DOTLESS_ACROSS``)."""
    merged = _DOUBLES.sub(r"\1", skel.translate(_DOTLESS_ACROSS if across_scripts else _DOTLESS))
    return merged[:-1] if len(merged) > 1 and merged.endswith("h") else merged


# Arabic letters that differ only by their dots (ب ت ث ن ي، ج ح خ، د ذ، ر ز، س ش، ص ض، ط ظ، ع غ، ف ق،
# ه ة): a handwritten or OCR'd name misread by a dot keeps its rasm (غلاء / علاء, قاطمه / فاطمه).
_RASM = str.maketrans({"ب": "ٮ", "ت": "ٮ", "ث": "ٮ", "ن": "ٮ", "ي": "ٮ", "ى": "ٮ", "ج": "ح", "خ": "ح", "ذ": "د",
                       "ز": "ر", "ش": "س", "ض": "ص", "ظ": "ط", "غ": "ع", "ق": "ف", "ة": "ه", " ": None})


def arabic_rasm(text: str) -> str:
    """An Arabic name's letters without their dots (normalised text in, e.g. NameToken.text)."""
    return text.translate(_RASM)


def one_slip_apart(x: str, y: str) -> bool:
    """Two spellings one slip of the pen apart: a letter dropped from the longer (محمد / ممد) or two
    neighbours swapped (عبد / عدب). A letter *changed* is not a slip: it is how two names differ
    (عيد / عبد). The name readers (tokens) and the linkage's constraints both read slips so."""
    if x == y:
        return False
    if len(x) == len(y):
        return any(x[k] == y[k + 1] and x[k + 1] == y[k] and x[:k] == y[:k] and x[k + 2:] == y[k + 2:]
                   for k in range(len(x) - 1))
    short, long_ = (x, y) if len(x) < len(y) else (y, x)
    return len(long_) == len(short) + 1 and any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))
