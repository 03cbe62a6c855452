"""Face similarity of one person against every case, vectorised ("mean-max", as
``athar.matching.faces.combine.score_case``): the mean of the person's photo vectors against the best
of each case's faces. Cases without a usable face get NaN (the face feature is then neutral)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from athar.matching.faces.calibration import load_calibration
from athar.matching.faces.combine import probe_vector


@dataclass
class CaseFaces:
    """Every case face as one matrix; ``owner`` is each row's case position in the CaseTable."""

    matrix: npt.NDArray[np.float32]
    owner: npt.NDArray[np.int64]
    cases: int
    model: str = ""

    @classmethod
    def build(cls, per_case: dict[int, npt.NDArray[np.float32]], cases: int, dim: int, model: str = "") -> CaseFaces:
        """``per_case``: case position → (k, dim) unit vectors."""
        items = sorted((pos, v) for pos, v in per_case.items() if len(v))
        if not items:
            return cls(np.zeros((0, dim), np.float32), np.zeros(0, np.int64), cases, model)
        matrix = np.concatenate([np.atleast_2d(v).astype(np.float32) for _, v in items])
        matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
        owner = np.concatenate([np.full(len(np.atleast_2d(v)), pos) for pos, v in items]).astype(np.int64)
        return cls(matrix, owner, cases, model)

    def similarities(self, probe_vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """Cosine of the person's mean vector with each case's best face; NaN without faces."""
        out = np.full(self.cases, np.nan)
        if len(self.owner) == 0 or len(probe_vectors) == 0:
            return out
        sims = self.matrix @ probe_vector(np.asarray(probe_vectors, np.float32))
        best = np.full(self.cases, -np.inf)
        np.maximum.at(best, self.owner, sims.astype(np.float64))
        return on_one_photo_scale(np.where(np.isinf(best), np.nan, best), len(probe_vectors), self.model)


def on_one_photo_scale(sims: npt.NDArray[np.float64], photos: int, model: str) -> npt.NDArray[np.float64]:
    """Scores of a several-photo query, moved to the one-photo score with the same calibrated odds.

    The mean vector of several photos of a person scores higher against their own case than one
    photo does, and strangers' cases barely higher (benchmarks/faces/several_photos.py): the face
    weight of the ranking algorithm was fitted on one photo, so a several-photo score goes through the
    face calibration's two fits (``a1·s1 + b1 = a2·s2 + b2``). Unchanged for one photo, or when the
    model has no several-photo fit."""
    if photos < 2 or not model:
        return sims
    try:
        one = load_calibration(model)
    except FileNotFoundError:
        return sims
    several = one.for_photos(photos)
    if several is one:
        return sims
    return (several.a * sims + several.b - one.b) / one.a
