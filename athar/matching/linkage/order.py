"""Which way round a full name is written, from the table being linked.

Lists put the family name first without saying so ("قصاب بلال مشعل هلال", "حمدي حيدره البشير"
when the person is Bilal Qassab and Haydara al-Bashir). The written-forms rules (names/written.py)
settle the clear cases from the writing alone: a comma, a family name in upper case. For the
others they guess from the word (an article, a nisba ending in ي) and guess wrong on given names
that look like family names (أماني, a woman's name ending in ي).

The table itself knows better: a family name is written last in most reports, and given in the
family-name column, while a given name is written first or in the first- and father's-name
columns. ``OrderVotes`` counts, for every name (by its id: the variants table's name, else its
spelling key — finer than the cross-script block key, which puts حسون with حسن and حسين), how often it
stands where a family name stands and how often where a given name stands, over every report
whose order is not in doubt. A full name is read family-name-first when its first name is mostly
a family name and its last name mostly a given name, read as written when the opposite holds,
and left to the written-forms rules when the table does not say (few reports, or names used
both ways: عمر, خليل, حيدر). Counting is one pass over the table (linear, like preparation).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from athar.matching.names.normalize import normalize_name
from athar.matching.names.tokens import NameToken, name_tokens, tokenize_name, whole_name_unglued
from athar.matching.names.written import WrittenName, read_written_name

# A name leans one way when it is seen there three times as often as the other way (counts + 1).
ORDER_MARGIN = math.log(3)
# Rules of written.py that guess the order from the word alone (the table may overrule them).
GUESSED_ORDER = ("family name first (a first word with the article", "family name first (an unknown nisba")


@dataclass(frozen=True)
class WrittenOrder:
    """A full name's words as written, and what the written-forms rules said about their order."""

    text: str  # as written when the order is in doubt, else already given names first
    in_doubt: bool  # the order is not settled by the writing (no comma, no upper-case family name)
    rules_say_family_first: bool
    keys: tuple[str, ...]  # the name id of each word of ``text`` (what the votes count)
    # ``text`` tokenised (markers included), kept so that parsing it does not tokenise it again:
    # at a million reports the distinct names outnumber tokenize_name's cache
    tokens: tuple[NameToken, ...] = field(default=(), compare=False, repr=False)
    # the first word is a title that is also a family name (السيد, القاضي: ``TITLE_OR_FAMILY``): the
    # family name first when the table says so, else a title set apart (``OrderVotes.resolved``)
    title_word: bool = False
    # the two readings of such a name: without the title (its order read as any other name's), and
    # the title as the family name, the given names first
    without_title: WrittenOrder | None = field(default=None, compare=False, repr=False)
    title_as_family: WrittenOrder | None = field(default=None, compare=False, repr=False)


# Words of respect that begin many Syrian family names: الحاج علي، حاج حسين، شيخ موسى، الشيخ عثمان
# (variants table ids; Latin Al-Hajj, Haj, Hadj, Sheikh, Cheikh...).
_TITLE_IN_NAME = frozenset({"hajj", "shaykh"})


def without_inner_titles(tokens: Sequence[NameToken]) -> tuple[NameToken, ...]:
    """The tokens without الحاج / شيخ written before another name. Inside a name such a word
    either begins the family name ("محمد أحمد الحاج علي": of the family Hajj Ali) or is the
    father's title ("محمد الحاج أحمد": son of Hajj Ahmad); read as a name it became the father's
    name ("محمد الحاج علي", Muhammad son of Hajj, family Ali), so the same man written with and
    without his father's name, or a family field "الحاج علي" against a full name ending "علي",
    never met. Its name is the word after it in both readings. Last, it is the name itself
    (the family al-Hajj, al-Sheikh). First, it is a title that the
    written-forms rules did not take off (حاج without the article) or the family name written first
    ("حاج علي باسل محمد"): either way the names that follow are read without it, the order's votes
    and second reading included (the family-name-first reading then finds علي, as for "الحاج علي
    باسل محمد", whose title the rules take off)."""
    if not any(t.canonical in _TITLE_IN_NAME for t in tokens):
        return tuple(tokens)
    names = [i for i, t in enumerate(tokens) if not t.marker]
    inner = {i for i, j in zip(names, names[1:])
             if tokens[i].canonical in _TITLE_IN_NAME and tokens[j].canonical not in _TITLE_IN_NAME}
    return tuple(t for i, t in enumerate(tokens) if i not in inner)


# Titles that are also Syrian family names: "السيد عمر حسين" is Mr Omar Husayn in a letter and Omar
# Husayn of the al-Sayyid family in a roster that writes the family name first (issue 28's field
# lists, written from a fresh description: "السيد عمر حسين, 1983, برزة" and "عمر حسين السيد, 1983,
# برزة" never met). Read so only before two words of name (a title before a name of three or more
# is taken off as before) and only when the table knows the word as a family name. Not الشيخ /
# الحاج: ``without_inner_titles`` reads the names after them without them, whatever the order.
TITLE_OR_FAMILY = frozenset({"السيد", "القاضي", "الامام", "المعلم"})


@lru_cache(maxsize=200_000)
def written_order(full: str) -> WrittenOrder:
    """The name without titles, brackets and place (written.py), with its order in doubt or not."""
    written = read_written_name(full)
    if (len(written.titles) == 1 and normalize_name(written.titles[0]) in TITLE_OR_FAMILY
            and not written.family_first and len(written.name.split()) in (2, 3)):
        order = _order(f"{written.titles[0]} {written.name}", True, False)
        return WrittenOrder(order.text, True, False, order.keys, order.tokens, title_word=True,
                            without_title=_plain_order(written),
                            title_as_family=_order(f"{written.name} {written.titles[0]}", False, False))
    return _plain_order(written)


def _plain_order(written: WrittenName) -> WrittenOrder:
    guessed = any(rule.startswith(GUESSED_ORDER) for rule in written.rules)
    if written.family_first and not guessed:  # a comma or an upper-case family name
        return _order(written.name, False, False)
    words = whole_name_unglued(written.name.split())  # "خالدجهماني": one word, the space lost
    if guessed:  # undo the guess: the words as written, family name (the moved word) first
        words = words[-1:] + words[:-1]
    return _order(" ".join(words), True, guessed)


def _order(text: str, in_doubt: bool, rules_say_family_first: bool) -> WrittenOrder:
    tokens = without_inner_titles(tokenize_name(text))
    return WrittenOrder(text, in_doubt, rules_say_family_first, _ids(t for t in tokens if not t.marker), tokens)


def _ids(tokens: Iterable[NameToken]) -> tuple[str, ...]:
    """What the votes count: the name's id, marked when written with the article (العلي is a family
    name where علي is a given name: with one id, "العلي محمد رشيد" was read as Ali, son of Muhammad)."""
    return tuple((ARTICLE if t.article else "") + (t.canonical or t.key) for t in tokens if t.canonical or t.key)


ARTICLE = "al:"  # before a vote key: the name written with the article


def _both(key: str) -> tuple[str, ...]:
    """A name written with the article votes as itself and as the bare name: "بشير" written first is
    judged by every report of the family al-Bashir, "العلي" by those that write the article."""
    return (key, key[len(ARTICLE):]) if key.startswith(ARTICLE) else (key,)


@lru_cache(maxsize=200_000)
def _ends(text: str) -> tuple[str, ...]:
    return _ids(name_tokens(text))


def name_vote_keys(first: str, father: str, family: str, order: WrittenOrder | None) -> set[str]:
    """The vote keys one report's names count or read (OrderVotes.count_parts, count_full, lean)."""
    out: set[str] = set()
    for text, end in ((first, 0), (father, 0), (family, -1)):
        keys = _ends(text) if text else ()
        if keys:
            out.update(_both(keys[end]))
    if order is not None:
        out.update(k for key in order.keys for k in _both(key))
    return out


@dataclass
class OrderVotes:
    """How often each name (its id) stands as a family name and as a given name."""

    family: Counter[str] = field(default_factory=Counter)
    given: Counter[str] = field(default_factory=Counter)

    def count_parts(self, first: str, father: str, family: str) -> None:
        """Names given in their own columns."""
        for text in (first, father):
            keys = _ends(text) if text else ()
            if keys:
                self.given.update(_both(keys[0]))
        keys = _ends(family) if family else ()
        if keys:
            self.family.update(_both(keys[-1]))

    def count_full(self, order: WrittenOrder) -> None:
        """A full name whose order is settled or unguessed (given names first)."""
        if (order.in_doubt and order.rules_say_family_first) or order.title_word:
            return  # a title or a family name first: which, the votes say (family_first)
        keys = order.keys
        if len(keys) >= 2:
            self.given.update(k for key in keys[:-1] for k in _both(key))
            self.family.update(_both(keys[-1]))

    def plus(self, other: OrderVotes) -> OrderVotes:
        """Both tables' votes (the store's, and a new report's own)."""
        return OrderVotes(self.family + other.family, self.given + other.given)

    def lean(self, key: str, own: WrittenOrder | None = None) -> float:
        """log of (family + 1) / (given + 1): > 0 for a name mostly seen as a family name; ``own``:
        without the vote this full name cast itself (``count_full``)."""
        family, given = self.family[key], self.given[key]
        if (own is not None and own.in_doubt and not own.rules_say_family_first and not own.title_word
                and len(own.keys) >= 2):
            family -= sum(key in _both(k) for k in own.keys[-1:])
            given -= sum(key in _both(k) for k in own.keys[:-1])
        return math.log((max(family, 0) + 1) / (max(given, 0) + 1))

    def resolved(self, order: WrittenOrder) -> WrittenOrder:
        """The order to read: a name opened by a title that is also a family name (``title_word``)
        read with that word as its family name when the table says so (``family_first`` of the name
        as written), else without it, its order read as any other name's."""
        if not order.title_word or order.without_title is None or order.title_as_family is None:
            return order
        return order.title_as_family if self.family_first(order) else order.without_title

    def family_first(self, order: WrittenOrder) -> bool:
        """Read this full name with its first word as the family name? The name's own vote (as
        written, ``count_full``) is left out: a name does not vote on its own order ("دروبي ابراهيم"
        counted دروبي once as a given name against the four reports of the Droubi family that write
        it as theirs, and was read as the given name Droubi — thirteenth session)."""
        if not order.in_doubt:
            return False
        keys = order.keys
        if len(keys) < 2:
            return False
        lead, last = self.lean(keys[0], order), self.lean(keys[-1], order)
        if lead >= ORDER_MARGIN and last <= -ORDER_MARGIN:
            return True
        if lead >= 2 * ORDER_MARGIN and last < ORDER_MARGIN:
            return True  # a first word nine times more often a family name, a last word the table
            # does not know as one: a family name first before a garbled or rare given name ("الحمصي
            # سامر جال", the father's name جمال with a letter dropped)
        if lead <= -ORDER_MARGIN and last >= 0:
            return False
        return order.rules_say_family_first
