"""From a case score (cosine) to a probability of "same person", and a decision rule.

A logistic (Platt) curve ``p = 1 / (1 + exp(-(a·score + b)))`` is fitted on held-apart
genuine and impostor pairs from the LFW dev split (benchmarks/faces/fit_calibration.py)
and stored as JSON beside this module, one file per embedding model (no pickles).
``likely_match`` uses a probability threshold chosen for the size of a real archive:
the chance that any of 11,000 cases (the Caesar archive's bodies) wrongly passes it is
≤ 5 %, estimated from the dev impostor-score tail. On the 640-case benchmark this
gives false-match rates of 0–2 % (docs/faces.md). A probability is a statement about a comparison,
never about a death: the product must word it that way.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

DATA_DIR = Path(__file__).resolve().parent / "calibration_data"


@dataclass(frozen=True)
class Calibration:
    model_name: str
    model_version: str
    a: float
    b: float
    threshold: float  # probability at or above which a case is a "likely match"
    method: str
    data: str
    # The fit for a query of several family photos (the mean of their vectors): {a, b, threshold,
    # data}. Several photos lift the true case's score more than a stranger's, so one curve for
    # both would under-state the evidence of several photos (benchmarks/faces/several_photos.py).
    several: dict[str, Any] | None = None
    photos: str = "one"  # which fit this is: "one" or "several"

    def for_photos(self, count: int) -> Calibration:
        """The calibration of a query made of ``count`` family photos (one fit, or the several fit)."""
        if count < 2 or not self.several:
            return self
        fit = self.several
        return replace(self, a=float(fit["a"]), b=float(fit["b"]), threshold=float(fit["threshold"]),
                       data=str(fit.get("data", self.data)), several=None, photos="several")

    def probability(self, score: float) -> float:
        """Calibrated probability that the case shows the searched person."""
        z = self.a * score + self.b
        return 1 / (1 + math.exp(-z)) if z > -700 else 0.0

    def likely_match(self, score: float) -> bool:
        return self.probability(score) >= self.threshold

    def score_threshold(self) -> float:
        """The cosine score at which ``likely_match`` switches on."""
        t = self.threshold
        return (math.log(t / (1 - t)) - self.b) / self.a

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def calibration_path(model_name: str) -> Path:
    return DATA_DIR / f"{model_name}.json"


@cache
def load_calibration(model_name: str) -> Calibration:
    """The fitted calibration for an embedding model (FileNotFoundError if none)."""
    raw = json.loads(calibration_path(model_name).read_text(encoding="utf-8"))
    return Calibration(**raw)


def fit_logistic(
    scores: np.ndarray, labels: np.ndarray, weights: np.ndarray | None = None, l2: float = 1e-3, iters: int = 50
) -> tuple[float, float]:
    """Platt scaling by Newton's method with a tiny ridge penalty; returns (a, b).

    Numpy only, so refitting needs no extra dependency. Labels are 1 (same) / 0;
    optional per-pair weights (e.g. to give both classes equal total weight).
    """
    x = np.stack([np.asarray(scores, np.float64), np.ones(len(scores))], axis=1)
    y = np.asarray(labels, np.float64)
    sw = np.ones(len(y)) if weights is None else np.asarray(weights, np.float64)
    w = np.zeros(2)
    for _ in range(iters):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (sw * (p - y)) + l2 * w
        hess = (x * (sw * p * (1 - p))[:, None]).T @ x + l2 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return float(w[0]), float(w[1])
