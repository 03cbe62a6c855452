"""Identification metrics, shared by ``athar eval identify`` and the benchmarks.

For each report: the rank of its true case (None when the person is not in the archive), whether it
had a photo, and whether the top case was declared a likely match.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median
from typing import Any


@dataclass(frozen=True)
class Outcome:
    rank: int | None  # 1-based rank of the true case; None: the person is not in the archive
    cases: int
    has_photo: bool
    likely_match: bool  # the top case was declared a likely match
    top_is_true: bool = False


def group_metrics(outcomes: list[Outcome]) -> dict[str, Any]:
    """rank-1, rank-10, median rank, top2pct and mean_views (cases opened before the true one)."""
    ranks = [o.rank for o in outcomes if o.rank is not None]
    if not ranks:
        return {"reports": 0, "rank1": None, "rank10": None, "median_rank": None, "top2pct": None,
                "mean_views": None}
    within = [o.rank <= max(1, math.ceil(0.02 * o.cases)) for o in outcomes if o.rank is not None]
    return {"reports": len(ranks), "rank1": _share([r == 1 for r in ranks]),
            "rank10": _share([r <= 10 for r in ranks]), "median_rank": float(median(ranks)),
            "top2pct": _share(within), "mean_views": round(sum(r - 1 for r in ranks) / len(ranks), 2)}


def identification_metrics(outcomes: list[Outcome]) -> dict[str, Any]:
    """The ``athar eval identify --json`` result."""
    absent = [o for o in outcomes if o.rank is None]
    present = [o for o in outcomes if o.rank is not None]
    return {
        "with_photo": group_metrics([o for o in outcomes if o.has_photo]),
        "without_photo": group_metrics([o for o in outcomes if not o.has_photo]),
        "false_match_rate": _share([o.likely_match for o in absent]) if absent else None,
        "absent_reports": len(absent),
        "likely_match_recall": _share([o.likely_match and o.top_is_true for o in present]) if present else None,
        "wrong_likely_match_rate": _share([o.likely_match and not o.top_is_true for o in present]) if present else None,
    }


def _share(flags: list[bool]) -> float:
    return round(sum(flags) / len(flags), 4) if flags else 0.0
