"""Step 4 of the name pipeline: compare two names and say why.

Token similarity (``compare_tokens``) uses, in order: the known-variants table (two
different known names are different even when their consonants agree: Muhammad /
Mahmud); identical normalised text; same-script spelling similarity (Jaro-Winkler on
keys); the cross-script consonant skeleton. Full names (``compare_names``) are aligned
in order, allowing missing middle names and a family-name-first order.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import JaroWinkler, Levenshtein

from athar.matching.names.normalize import normalize_arabic, normalize_latin
from athar.matching.names.tokens import NameToken, name_tokens
from athar.matching.names.variants import index_key, variant_index

MATCH_THRESHOLD = 0.75  # token similarity above which two tokens are aligned
LEVELS = ((0.999, "exact"), (0.9, "strong"), (0.75, "probable"), (0.5, "weak"), (0.0, "different"))


@dataclass(frozen=True)
class TokenAlignment:
    """One aligned pair of tokens (or a token with no partner: other is None)."""

    left: str | None
    right: str | None
    score: float
    reason: str


@dataclass(frozen=True)
class NameComparison:
    """Result of comparing two names: score in [0, 1], a level and a readable explanation."""

    score: float
    level: str
    explanation: str
    token_alignments: tuple[TokenAlignment, ...] = ()


def level_of(score: float) -> str:
    """Level name for a score: exact, strong, probable, weak or different."""
    return next(name for bound, name in LEVELS if score >= bound)


@lru_cache(maxsize=500_000)
def compare_tokens(a: NameToken, b: NameToken) -> tuple[float, str]:
    """Similarity of two name tokens in [0, 1] and the reason in plain words."""
    ca, cb = a.canonical, b.canonical
    if ca and cb:
        if ca == cb:
            same_text = a.script == b.script and a.core == b.core
            return 1.0, ("same name" if same_text else f"spellings of the same name ({ca})")
        return 0.0, f"different names ({ca} / {cb})"
    if a.script == b.script and a.core == b.core:
        return 1.0, "same name"
    if ca or cb:
        known, other = (a, b) if ca else (b, a)
        score = _similar_to_known(known.canonical or "", other)
        if score >= 0.9:
            return score, f"close to a spelling of {known.canonical}"
    best = _spelling_similarity(a, b)
    if a.skeleton == b.skeleton and len(a.skeleton) >= 2:
        best = max(best, 0.9)
        return best, "same consonants" if a.script == b.script else "same consonants across scripts"
    if a.script == b.script:
        return best, "similar spelling" if best >= MATCH_THRESHOLD else "different spelling"
    return best, "similar consonants across scripts" if best >= MATCH_THRESHOLD else "different"


def _spelling_similarity(a: NameToken, b: NameToken) -> float:
    if a.script == b.script == "ar":
        return JaroWinkler.normalized_similarity(a.core, b.core)
    if a.script == b.script:
        return JaroWinkler.normalized_similarity(a.key, b.key)
    sa, sb = a.skeleton, b.skeleton
    if not sa or not sb:
        return 0.0
    distance = Levenshtein.distance(sa, sb)
    if distance == 1 and min(len(sa), len(sb)) >= 3:
        return 0.8  # one consonant apart across scripts: a typo or a rare spelling
    return 0.85 * Levenshtein.normalized_similarity(sa, sb)


def _similar_to_known(canonical: str, other: NameToken) -> float:
    """Best spelling similarity of ``other`` to any listed variant of a known name."""
    best = 0.0
    for form in [canonical, *variant_index().variants.get(canonical, [])]:
        script = "ar" if any("\u0600" <= ch <= "\u06ff" for ch in form) else "latin"
        if script != other.script:
            continue
        norm = normalize_arabic(form) if script == "ar" else normalize_latin(form)
        key = index_key(norm, script)[3:]
        mine = other.index_key[3:]
        best = max(best, JaroWinkler.normalized_similarity(key, mine))
    return best


def compare_names(a: str | None, b: str | None) -> NameComparison:
    """Compare two personal names (full names or single parts, either script)."""
    ta, tb = name_tokens(a), name_tokens(b)
    if not ta or not tb:
        return NameComparison(0.0, "missing", "one of the names is empty")
    orders = [("written order", tb)]
    if len(tb) > 1:
        orders.append(("family name first in the second name", tb[1:] + tb[:1]))
        orders.append(("family name first in the first name", tb[-1:] + tb[:-1]))
    best: NameComparison | None = None
    for label, tb_order in orders:
        result = _score_order(ta, tb_order, label)
        if best is None or result.score > best.score + 1e-9:
            best = result
    assert best is not None
    return best


def _align(ta: tuple[NameToken, ...], tb: tuple[NameToken, ...]) -> list[tuple[int, int, float, str]]:
    """Monotone alignment maximising the summed similarity of aligned tokens."""
    n, m = len(ta), len(tb)
    sims = [[compare_tokens(x, y) for y in tb] for x in ta]
    dp = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            s = sims[i][j][0]
            take = s + dp[i + 1][j + 1] if s >= MATCH_THRESHOLD else -1.0
            dp[i][j] = max(take, dp[i + 1][j], dp[i][j + 1])
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        s = sims[i][j][0]
        if s >= MATCH_THRESHOLD and abs(dp[i][j] - (s + dp[i + 1][j + 1])) < 1e-12:
            pairs.append((i, j, s, sims[i][j][1]))
            i, j = i + 1, j + 1
        elif dp[i][j] == dp[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


def _score_order(ta: tuple[NameToken, ...], tb: tuple[NameToken, ...], order: str) -> NameComparison:
    pairs = _align(ta, tb)
    short, long_ = min(len(ta), len(tb)), max(len(ta), len(tb))
    score = sum(p[2] for p in pairs) / short
    score *= 0.97 ** (long_ - max(len(pairs), short))  # names present in one only
    notes: list[str] = []
    first_ok = bool(pairs) and pairs[0][0] == 0 and pairs[0][1] == 0
    if not first_ok:
        score *= 0.5
        notes.append(f"first names differ: {compare_tokens(ta[0], tb[0])[1]}")
    if len(ta) > 1 and len(tb) > 1 and not any(p[0] == len(ta) - 1 and p[1] == len(tb) - 1 for p in pairs):
        score *= 0.8
        notes.append(f"family names differ: {compare_tokens(ta[-1], tb[-1])[1]}")
    if order != "written order":
        score *= 0.95
        notes.append(order)
    alignments = _alignments(ta, tb, pairs)
    missing = [al.left or al.right for al in alignments if al.left is None or al.right is None]
    if missing:
        notes.append("not in the other name: " + ", ".join(m for m in missing if m))
    score = max(0.0, min(1.0, score))
    level = level_of(score)
    if level == "exact" and any(al.reason != "same name" for al in alignments):
        level = "strong"  # every name agrees, but not letter for letter
    parts = [f"'{al.left}' ~ '{al.right}': {al.reason}" for al in alignments if al.left and al.right]
    text = "; ".join(parts + notes) if parts else "no name in common" + ("; " + "; ".join(notes) if notes else "")
    return NameComparison(round(score, 4), level, text, tuple(alignments))


def _alignments(ta: tuple[NameToken, ...], tb: tuple[NameToken, ...], pairs: list[tuple[int, int, float, str]]) -> list[TokenAlignment]:
    out: list[TokenAlignment] = []
    done_a = {p[0] for p in pairs}
    done_b = {p[1] for p in pairs}
    out.extend(TokenAlignment(ta[i].display(), tb[j].display(), round(s, 4), r) for i, j, s, r in pairs)
    out.extend(TokenAlignment(t.display(), None, 0.0, "missing in the second name") for k, t in enumerate(ta) if k not in done_a)
    out.extend(TokenAlignment(None, t.display(), 0.0, "missing in the first name") for k, t in enumerate(tb) if k not in done_b)
    return out
