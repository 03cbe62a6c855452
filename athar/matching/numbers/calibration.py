"""The number reader's calibrated confidence (issue 29; twenty-second session): P(reading right).

Each glyph reading of a photo, under each ink mask, comes with its evidence (``Evidence``: what the
glyph network, the line recogniser and the ink around it say). A logistic regression on
``FEATURES`` of that evidence gives the probability that the reading is right; the reader keeps the
most probable reading of each place and returns those at or above the calibrator's threshold.

The calibrator is a small JSON file in ``models/`` (``calibrator.json``): the algorithm version,
the feature names in the order of the coefficients (checked on loading), the coefficients, the
threshold chosen on dev, and the sha256 of the weights file whose networks it was fitted on (a
calibrator fitted on other networks is refused). It is made by ``benchmarks/numbers/calibrate.py``
(``fit``, then ``threshold --write``); its provenance is in ``models/PROVENANCE.md``.

Plain Python and numpy: no Django.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from athar.matching.numbers.evaluation import overlap

CALIBRATOR_PATH = Path(__file__).with_name("models") / "calibrator.json"
ALGORITHM = "numbers-calibration-1"  # the features below and their meaning; a change is a new version

# What the calibrator weighs, in the order of its coefficients (the calibrator file stores the names).
FEATURES = ("bias", "logit_glyph", "logit_digit_min", "logit_digit_mean", "logit_edge", "checked",
            "line_same", "line_conf", "partial", "past", "three", "four", "six_or_more", "arabic",
            "masks_same", "masks_other", "log_height", "branch", "three_no_branch")


@dataclass
class Evidence:
    """One glyph reading under one ink mask and what the calibrator weighs (``FEATURES``)."""

    text: str
    box: list[int]
    kind: str | None
    mask: int           # which of the reader's ``INK_MASKS`` read it
    glyph: float        # the glyph network's confidence (``reader.Run.confidence``)
    digit_min: float
    digit_mean: float
    edge: float
    arabic: bool
    past: bool          # ink of no member just past an end of the run (``reader.ink_past_run``)
    checked: bool       # the line recogniser read the line
    line: float         # its confidence in the same text over the same place (0: it reads otherwise)
    partial: bool       # a longer digit run of the line cut wider holds this one
    height: float       # the line's character height, pixels


def _logit(x: np.ndarray) -> np.ndarray:
    x = np.clip(x, 1e-4, 1 - 1e-4)
    return np.log(x / (1 - x))


def _masks_agreeing(found: Sequence[Evidence]) -> tuple[np.ndarray, np.ndarray]:
    """For each reading, how many other ink masks read the same text at the same place (boxes
    overlapping by half) and how many read only another text there."""
    same = np.zeros(len(found))
    other = np.zeros(len(found))
    for i, e in enumerate(found):
        masks_same: set[int] = set()
        masks_other: set[int] = set()
        for f in found:
            if f.mask != e.mask and overlap(f.box, e.box) >= 0.5:
                (masks_same if f.text == e.text else masks_other).add(f.mask)
        same[i], other[i] = len(masks_same), len(masks_other - masks_same)
    return same, other


def calibration_features(found: Sequence[Evidence]) -> np.ndarray:
    """The calibrator's inputs (``FEATURES``), one row per reading of one photo (the masks are
    compared within the photo, so pass all of a photo's readings together)."""
    x = np.zeros((len(found), len(FEATURES)))
    if not found:
        return x
    col = {name: i for i, name in enumerate(FEATURES)}
    same, other = _masks_agreeing(found)
    digits = np.array([len(e.text) for e in found])
    branch = np.array([e.kind == "branch" for e in found], float)
    x[:, col["bias"]] = 1.0
    x[:, col["logit_glyph"]] = _logit(np.array([e.glyph for e in found]))
    x[:, col["logit_digit_min"]] = _logit(np.array([e.digit_min for e in found]))
    x[:, col["logit_digit_mean"]] = _logit(np.array([e.digit_mean for e in found]))
    x[:, col["logit_edge"]] = _logit(np.array([e.edge for e in found]))
    x[:, col["checked"]] = [e.checked for e in found]
    x[:, col["line_same"]] = [e.line > 0 for e in found]
    x[:, col["line_conf"]] = [e.line for e in found]
    x[:, col["partial"]] = [e.partial for e in found]
    x[:, col["past"]] = [e.past for e in found]
    x[:, col["three"]] = digits == 3
    x[:, col["four"]] = digits == 4
    x[:, col["six_or_more"]] = digits >= 6
    x[:, col["arabic"]] = [e.arabic for e in found]
    x[:, col["masks_same"]] = same
    x[:, col["masks_other"]] = other
    x[:, col["log_height"]] = np.log(np.maximum([e.height for e in found], 2.0) / 24.0)
    x[:, col["branch"]] = branch
    x[:, col["three_no_branch"]] = (digits == 3) * (1 - branch)
    return x


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Calibration:
    """P(reading right) from a reading's evidence: a logistic regression on ``calibration_features``,
    and the threshold at which a reading is suggested to a person."""

    def __init__(self, coef: Sequence[float], names: Sequence[str], threshold: float = 0.0,
                 weights_sha256: str = "", algorithm: str = ALGORITHM) -> None:
        if tuple(names) != FEATURES:
            raise ValueError(f"the calibrator's features {tuple(names)} are not this reader's {FEATURES}")
        if algorithm != ALGORITHM:
            raise ValueError(f"the calibrator is of algorithm {algorithm!r}, this reader's is {ALGORITHM!r}")
        self.coef = np.asarray(coef, float)
        if self.coef.shape != (len(FEATURES),):
            raise ValueError(f"{len(self.coef)} coefficients for {len(FEATURES)} features")
        self.threshold = float(threshold)
        self.weights_sha256 = weights_sha256

    def probability(self, found: Sequence[Evidence]) -> np.ndarray:
        """P(right) of each reading of one photo."""
        z = calibration_features(found) @ self.coef
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))

    def as_dict(self) -> dict[str, Any]:
        return {"algorithm": ALGORITHM, "features": list(FEATURES),
                "coefficients": [float(v) for v in self.coef], "threshold": self.threshold,
                "weights_sha256": self.weights_sha256}

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.as_dict(), indent=1) + "\n")

    @classmethod
    def load(cls, path: Path = CALIBRATOR_PATH, weights: Path | None = None) -> Calibration:
        """The calibrator in ``path``; with ``weights``, refused unless fitted on that weights file."""
        data = json.loads(path.read_text())
        calibration = cls(data["coefficients"], data["features"], data.get("threshold", 0.0),
                          data.get("weights_sha256", ""), data.get("algorithm", ""))
        if weights is not None and calibration.weights_sha256 != sha256_of(weights):
            raise ValueError(f"{path.name} was fitted on other weights than {weights.name} "
                             "(pass no calibrator to read with the weights' own rule)")
        return calibration
