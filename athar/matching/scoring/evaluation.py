"""Identification metrics, shared by ``athar eval identify`` and the benchmarks.

For each report: where its true case lies (None when the person is not in the archive), whether it
had a photo, and whether the top case was declared a likely match. Cases with exactly the same score
(common when ranking on facts alone) are counted as in random order: a report whose true case ties
with 3 others at the top counts 1/4 towards rank-1, and its expected rank is 2.5.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median
from typing import Any

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True)
class Outcome:
    above: int | None  # cases scoring strictly higher than the true case; None: the person is absent
    cases: int
    has_photo: bool
    likely_match: bool  # the top case was declared a likely match
    top_is_true: bool = False
    tied: int = 1  # cases with the true case's exact score, itself included

    @property
    def rank(self) -> float | None:
        """Expected 1-based rank of the true case under a random order of ties."""
        return None if self.above is None else self.above + (self.tied + 1) / 2

    def within(self, k: int) -> float:
        """Probability that the true case is among the first k."""
        assert self.above is not None
        return min(1.0, max(0.0, (k - self.above) / self.tied))


def outcome_for(scores: npt.NDArray[np.float64], true_position: int | None, cases: int, has_photo: bool,
                likely: bool, top_is_true: bool = False) -> Outcome:
    if true_position is None:
        return Outcome(None, cases, has_photo, likely, False)
    s = scores[true_position]
    return Outcome(int((scores > s).sum()), cases, has_photo, likely, top_is_true, int((scores == s).sum()))


def group_metrics(outcomes: list[Outcome]) -> dict[str, Any]:
    """rank-1, rank-10, median rank, top2pct and mean_views (cases opened before the true one)."""
    present = [o for o in outcomes if o.above is not None]
    if not present:
        return {"reports": 0, "rank1": None, "rank10": None, "median_rank": None, "top2pct": None,
                "mean_views": None}
    ranks = [float(o.rank) for o in present]  # type: ignore[arg-type]
    return {"reports": len(present), "rank1": _mean([o.within(1) for o in present]),
            "rank10": _mean([o.within(10) for o in present]), "median_rank": float(median(ranks)),
            "top2pct": _mean([o.within(max(1, math.ceil(0.02 * o.cases))) for o in present]),
            "mean_views": round(sum(r - 1 for r in ranks) / len(ranks), 2)}


def identification_metrics(outcomes: list[Outcome]) -> dict[str, Any]:
    """The ``athar eval identify --json`` result."""
    absent = [o for o in outcomes if o.above is None]
    present = [o for o in outcomes if o.above is not None]
    return {
        "with_photo": group_metrics([o for o in outcomes if o.has_photo]),
        "without_photo": group_metrics([o for o in outcomes if not o.has_photo]),
        "false_match_rate": _mean([float(o.likely_match) for o in absent]) if absent else None,
        "absent_reports": len(absent),
        "likely_match_recall": _mean([float(o.likely_match and o.top_is_true) for o in present]) if present else None,
        "wrong_likely_match_rate": _mean([float(o.likely_match and not o.top_is_true) for o in present])
        if present else None,
    }


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0
