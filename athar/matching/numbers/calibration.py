"""The number reader's calibrated confidence (issue 29; twenty-second session): P(reading right).

Each glyph reading of a photo, under each ink mask, comes with its evidence (``Evidence``: what the
glyph network, the line recogniser and the ink around it say). Since the twenty-fourth session the
line recogniser's own readings are candidates too (``source`` ``"line"``: a text no glyph reading of
the line reads at its place), with their own evidence (``line_candidates``): the line recogniser's
confidence, what the glyph network reads there instead, the ink around them. A logistic regression
on ``FEATURES`` of that evidence — one block of coefficients for glyph readings, one for the line
recogniser's — gives the probability that the reading is right; the reader keeps the most probable
reading of each place and returns those at or above the calibrator's threshold. The calibrator also
says which lines the line recogniser reads (``line_from``: those whose best glyph reading is at
least that sure; −1, every line), since it was fitted on the evidence of those lines.

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
from rapidfuzz.distance import Hamming

from athar.matching.numbers.evaluation import overlap

CALIBRATOR_PATH = Path(__file__).with_name("models") / "calibrator.json"
ALGORITHM = "numbers-calibration-2"  # the features below and their meaning; a change is a new version
GLYPH, LINE = "glyph", "line"  # who proposed a reading (``Evidence.source``)
EVERY_LINE = -1.0  # ``line_from`` that has the line recogniser read every line, with a glyph reading or not
NO_FIT = -20.0  # ``lines.text_fit`` of a text the line does not hold at all (its floor), or not weighed

# What the calibrator weighs, in the order of its coefficients (the calibrator file stores the names).
# The glyph readings' block (each 0 on the line recogniser's readings), then "line_only" and the
# line recogniser's block ("lo_": each 0 on glyph readings).
GLYPH_FEATURES = ("logit_glyph", "logit_digit_min", "logit_digit_mean", "logit_edge", "checked",
                  "line_same", "line_conf", "line_other", "partial", "past", "three", "four", "six_or_more",
                  "arabic", "masks_same", "masks_other", "log_height", "branch", "three_no_branch")
LINE_FEATURES = ("line_only", "lo_logit_line", "lo_logit_line_glyph", "lo_glyph_other", "lo_logit_glyph_other",
                 "lo_longer", "lo_shorter", "lo_one_digit", "lo_partial", "lo_past", "lo_three", "lo_four",
                 "lo_six_or_more", "lo_masks_same", "lo_masks_other", "lo_log_height", "lo_branch")
FEATURES = ("bias", *GLYPH_FEATURES, *LINE_FEATURES)
_COLUMN = {name: i for i, name in enumerate(FEATURES)}  # a feature's column in the inputs


@dataclass
class Evidence:
    """One reading under one ink mask and what the calibrator weighs (``FEATURES``): a glyph reading
    (``source`` ``GLYPH``) or the line recogniser's own (``LINE``: the glyph fields are then 0)."""

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
    source: str = GLYPH
    other: float = 0.0  # the other reader's best confidence in another text over this place (0: none)
    other_text: str = ""  # that text
    line_glyph: float = EVERY_LINE  # the best glyph reading's confidence on the line (−1: none)
    fit: float = NO_FIT  # a glyph reading's text against the line recogniser's columns (``lines.text_fit``),
    # gathered only when asked (``NumberReader.evidence(fit=True)``; twenty-seventh session, not weighed)


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


def line_candidates(runs: Sequence[tuple[str, float, list[int]]], line: Sequence[tuple[str, float, list[int], str | None]],
                    ) -> list[tuple[str, float, list[int], str | None, float, str]]:
    """The line recogniser's readings of a line that no glyph reading of it (``runs``: text,
    confidence, box) reads alike over its place (boxes overlapping by 0.3 of the smaller): each
    with the best confidence of a glyph reading of another text there and that text (0 and "": the
    glyph network read nothing there). A reading both read alike is already a glyph reading's
    evidence (``Evidence.line``)."""
    out = []
    for text, confidence, box, kind in line:
        here = [(g, t) for t, g, b in runs if overlap(b, box) >= 0.3]
        if any(t == text for _, t in here):
            continue
        g, t = max(here, default=(0.0, ""))
        out.append((text, confidence, box, kind, g, t))
    return out


def _one_digit_apart(a: str, b: str) -> bool:
    return len(a) == len(b) and Hamming.distance(a, b) == 1


def _line_block(x: np.ndarray, found: Sequence[Evidence], same: np.ndarray, other: np.ndarray) -> None:
    """The line recogniser's readings' features (``LINE_FEATURES``), in place (0 on glyph readings)."""
    col = _COLUMN
    on = np.array([e.source == LINE for e in found], float)
    digits = np.array([len(e.text) for e in found])
    has_other = np.array([e.other_text != "" for e in found], float)
    x[:, col["line_only"]] = on
    x[:, col["lo_logit_line"]] = on * _logit(np.array([e.line for e in found]))
    x[:, col["lo_logit_line_glyph"]] = on * np.array([float(_logit(np.array(e.line_glyph))) if e.line_glyph >= 0
                                                      else -10.0 for e in found])
    x[:, col["lo_glyph_other"]] = on * has_other
    x[:, col["lo_logit_glyph_other"]] = on * has_other * _logit(np.array([e.other for e in found]))
    x[:, col["lo_longer"]] = on * [len(e.text) > len(e.other_text) > 0 and e.other_text in e.text for e in found]
    x[:, col["lo_shorter"]] = on * [len(e.other_text) > len(e.text) and e.text in e.other_text for e in found]
    x[:, col["lo_one_digit"]] = on * [_one_digit_apart(e.text, e.other_text) for e in found]
    x[:, col["lo_partial"]] = on * [e.partial for e in found]
    x[:, col["lo_past"]] = on * [e.past for e in found]
    x[:, col["lo_three"]] = on * (digits == 3)
    x[:, col["lo_four"]] = on * (digits == 4)
    x[:, col["lo_six_or_more"]] = on * (digits >= 6)
    x[:, col["lo_masks_same"]] = on * same
    x[:, col["lo_masks_other"]] = on * other
    x[:, col["lo_log_height"]] = on * np.log(np.maximum([e.height for e in found], 2.0) / 24.0)
    x[:, col["lo_branch"]] = on * [e.kind == "branch" for e in found]


def calibration_features(found: Sequence[Evidence]) -> np.ndarray:
    """The calibrator's inputs (``FEATURES``), one row per reading of one photo (the masks are
    compared within the photo, so pass all of a photo's readings together)."""
    x = np.zeros((len(found), len(FEATURES)))
    if not found:
        return x
    col = _COLUMN
    same, other = _masks_agreeing(found)
    _line_block(x, found, same, other)
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
    x[:, col["line_other"]] = [e.other if e.source == GLYPH else 0.0 for e in found]
    glyph = np.array([e.source == GLYPH for e in found], float)
    x[:, [col[name] for name in GLYPH_FEATURES]] *= glyph[:, None]
    return x


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Calibration:
    """P(reading right) from a reading's evidence: a logistic regression on ``calibration_features``,
    and the threshold at which a reading is suggested to a person."""

    def __init__(self, coef: Sequence[float], names: Sequence[str], threshold: float = 0.0,
                 weights_sha256: str = "", algorithm: str = ALGORITHM, line_from: float = EVERY_LINE) -> None:
        if tuple(names) != FEATURES:
            raise ValueError(f"the calibrator's features {tuple(names)} are not this reader's {FEATURES}")
        if algorithm != ALGORITHM:
            raise ValueError(f"the calibrator is of algorithm {algorithm!r}, this reader's is {ALGORITHM!r}")
        self.coef = np.asarray(coef, float)
        if self.coef.shape != (len(FEATURES),):
            raise ValueError(f"{len(self.coef)} coefficients for {len(FEATURES)} features")
        self.threshold = float(threshold)
        self.weights_sha256 = weights_sha256
        self.line_from = float(line_from)  # the lines the line recogniser reads (fitted on their evidence)

    def probability(self, found: Sequence[Evidence]) -> np.ndarray:
        """P(right) of each reading of one photo."""
        z = calibration_features(found) @ self.coef
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))

    def as_dict(self) -> dict[str, Any]:
        return {"algorithm": ALGORITHM, "features": list(FEATURES),
                "coefficients": [float(v) for v in self.coef], "threshold": self.threshold,
                "weights_sha256": self.weights_sha256, "line_from": self.line_from}

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.as_dict(), indent=1) + "\n")

    @classmethod
    def load(cls, path: Path = CALIBRATOR_PATH, weights: Path | None = None) -> Calibration:
        """The calibrator in ``path``; with ``weights``, refused unless fitted on that weights file."""
        data = json.loads(path.read_text())
        calibration = cls(data["coefficients"], data["features"], data.get("threshold", 0.0),
                          data.get("weights_sha256", ""), data.get("algorithm", ""),
                          data.get("line_from", EVERY_LINE))
        if weights is not None and calibration.weights_sha256 != sha256_of(weights):
            raise ValueError(f"{path.name} was fitted on other weights than {weights.name} "
                             "(pass no calibrator to read with the weights' own rule)")
        return calibration
