"""Pairwise and B-cubed precision / recall / F1 of a clustering against true ids."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence


def _pairs(counter: Counter) -> int:
    return sum(n * (n - 1) // 2 for n in counter.values())


def evaluate_clusters(predicted: Sequence | Mapping, truth: Sequence | Mapping) -> dict[str, float]:
    """Metrics of predicted cluster ids against true person ids (same order, or dicts by record).

    Keys: pairwise_precision, pairwise_recall, pairwise_f1, bcubed_precision, bcubed_recall,
    bcubed_f1. Precision of an empty prediction is 1 (no false links)."""
    if isinstance(predicted, Mapping) and isinstance(truth, Mapping):
        keys = list(truth)
        predicted, truth = [predicted[k] for k in keys], [truth[k] for k in keys]
    pred, true = list(predicted), list(truth)
    if len(pred) != len(true):
        raise ValueError("predicted and truth must have the same length")
    both = Counter(zip(pred, true))
    pc, tc = Counter(pred), Counter(true)
    tp = _pairs(both)
    pred_pairs, true_pairs = _pairs(pc), _pairs(tc)
    p = tp / pred_pairs if pred_pairs else 1.0
    r = tp / true_pairs if true_pairs else 1.0
    n = len(pred) or 1
    bp = sum(c * c / pc[pk] for (pk, _), c in both.items()) / n
    br = sum(c * c / tc[tk] for (_, tk), c in both.items()) / n
    return {
        "pairwise_precision": p, "pairwise_recall": r, "pairwise_f1": _f1(p, r),
        "bcubed_precision": bp, "bcubed_recall": br, "bcubed_f1": _f1(bp, br),
    }


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def recall_with_review(predicted: Mapping, truth: Mapping, review_pairs: Iterable[tuple]) -> float:
    """Share of the true pairs a (perfect) reviewer can reach: linked, or in two clusters that a
    review pair of the *same* person joins (the reviewer says "same" to it and the clusters join).

    ``predicted`` and ``truth`` map record → cluster / person; ``review_pairs`` are the pairs of
    records offered for review. A review pair of two different persons joins nothing (a perfect
    reviewer says "different"), so this is the recall the queue makes possible, not a guess."""
    keys = [k for k in truth if k in predicted]
    parent: dict = {}

    def find(x: object) -> object:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for a, b in review_pairs:
        if a in truth and b in truth and a in predicted and b in predicted and truth[a] == truth[b]:
            ra, rb = find(predicted[a]), find(predicted[b])
            if ra != rb:
                parent[ra] = rb
    reached = _pairs(Counter((find(predicted[k]), truth[k]) for k in keys))
    true_pairs = _pairs(Counter(truth[k] for k in keys))
    return reached / true_pairs if true_pairs else 1.0
