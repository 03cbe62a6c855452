"""Scoring number readings against a dev set's truth (issue 29's targets).

A truth number is *found* when a returned reading's box overlaps it (intersection over the smaller
box ≥ 0.5: boxes of a rotated number differ in tightness between readers); a returned reading is
*right* when its text equals the text of a truth number it overlaps. A reading that overlaps no
truth number is wrong. Photos holding no number count as false suggestions when anything is
returned for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any


def overlap(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over the smaller box's area (0 when apart)."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return ix * iy / smaller if smaller > 0 else 0.0


@dataclass
class Score:
    """Counts over a set; the rates are the issue's targets."""

    truths: int = 0
    found: int = 0
    read_right: int = 0
    returned: int = 0
    returned_right: int = 0
    empty_photos: int = 0
    empty_with_suggestion: int = 0
    photos: int = 0
    branch_truths: int = 0
    branch_kind_right: int = 0
    by_category: dict[str, list[int]] = field(default_factory=dict)  # "card/print/western": [numbers, read]
    misses: list[dict[str, Any]] = field(default_factory=list)
    wrong: list[dict[str, Any]] = field(default_factory=list)

    def add(self, path: str, truth: list[dict[str, Any]], readings: list[dict[str, Any]]) -> None:
        """Score one photo's readings against its truth."""
        self.photos += 1
        if not truth:
            self.empty_photos += 1
            self.empty_with_suggestion += bool(readings)
            self.wrong.extend({"path": path, "text": r["text"], "truth": None} for r in readings)
            return
        for t in truth:
            self.truths += 1
            hits = [r for r in readings if overlap(r["box"], t["box"]) >= 0.5]
            self.found += bool(hits)
            right = any(r["text"] == t["text"] for r in hits)
            self.read_right += right
            if "carrier" in t:
                key = f"{t['carrier']}/{'hand' if t.get('hand') else 'print'}/{t.get('script')}"
                counts = self.by_category.setdefault(key, [0, 0])
                counts[0] += 1
                counts[1] += right
            if t["kind"] == "branch":
                self.branch_truths += 1
                self.branch_kind_right += any(r["text"] == t["text"] and r.get("kind") == "branch" for r in hits)
            if not hits:
                self.misses.append({"path": path, **t})
        for r in readings:
            self.returned += 1
            near = [t for t in truth if overlap(r["box"], t["box"]) >= 0.5]
            right = any(t["text"] == r["text"] for t in near)
            self.returned_right += right
            if not right:
                self.wrong.append({"path": path, "text": r["text"], "truth": [t["text"] for t in near]})

    def rates(self) -> dict[str, float]:
        """found %, right % of returned, read right % of all, false suggestion % on empty photos."""
        def pct(a: int, b: int) -> float:
            return round(100.0 * a / b, 1) if b else 0.0
        return {"found_pct": pct(self.found, self.truths),
                "returned_right_pct": pct(self.returned_right, self.returned),
                "read_right_pct": pct(self.read_right, self.truths),
                "false_suggestion_pct": pct(self.empty_with_suggestion, self.empty_photos),
                "branch_kind_pct": pct(self.branch_kind_right, self.branch_truths),
                "truths": self.truths, "returned": self.returned, "photos": self.photos,
                "empty_photos": self.empty_photos}


def score(rows: Iterable[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]]) -> Score:
    """Score (path, truth numbers, readings) rows."""
    result = Score()
    for path, truth, readings in rows:
        result.add(path, truth, readings)
    return result
