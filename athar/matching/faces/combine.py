"""How several photos of a person and several faces of a case become one score.

A family may send several photos (probe vectors); a case (one body) has several
photos and possibly several faces per photo (another body in frame). Measured on
LFW dev (docs/faces.md, benchmarks/faces/combine_bench.py): averaging the probe
vectors, then taking the best match over the case's faces ("mean-max") ranked best;
the max over every pair was close behind, mean of all cosines clearly worse
(a second body in frame drags the mean down).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from .datatypes import FloatArray

Method = Literal["mean-max", "max-max", "mean-cos", "mean-mean"]
DEFAULT_METHOD: Method = "mean-max"


def _unit(v: FloatArray) -> FloatArray:
    v = np.asarray(v, dtype=np.float32)
    return v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-12)


def probe_vector(probe_vectors: FloatArray) -> FloatArray:
    """The mean of a person's unit vectors, renormalised: one query for the index."""
    return _unit(_unit(np.atleast_2d(probe_vectors)).mean(0))


def score_case(probe_vectors: FloatArray, case_vectors: FloatArray, method: Method = DEFAULT_METHOD) -> float:
    """Cosine similarity of a person (several photos) with a case (several faces)."""
    p, c = _unit(np.atleast_2d(probe_vectors)), _unit(np.atleast_2d(case_vectors))
    if len(p) == 0 or len(c) == 0:
        return -1.0
    if method == "mean-max":
        return float((c @ probe_vector(p)).max())
    if method == "max-max":
        return float((p @ c.T).max())
    if method == "mean-cos":
        return float((p @ c.T).mean())
    if method == "mean-mean":
        return float(probe_vector(c) @ probe_vector(p))
    raise ValueError(f"unknown combination method {method!r}")
