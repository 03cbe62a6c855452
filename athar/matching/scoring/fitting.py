"""Fitting an algorithm's weights on a benchmark set (Fellegi–Sunter style, numpy only).

For each feature level: m = its share among true (person, case) pairs, u = its share among all other
pairs; the weight is log(m / u), smoothed and clipped so no single fact can exclude a case. The face
weight is a logistic fit of true vs other pairs on the cosine similarity, minus the log prior odds of
the fitting sample (so it is a log-likelihood ratio, not a posterior).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from athar.matching.faces.calibration import fit_logistic
from athar.matching.scoring.features import FEATURES

MIN_WEIGHT, MAX_WEIGHT = -5.0, 9.0


def shrunk_log_ratio(m_counts: npt.NDArray[np.float64], u_counts: npt.NDArray[np.float64],
                     alpha: float = 5.0) -> npt.NDArray[np.float64]:
    """log(m/u) with one pseudo-observation per level on each side, shrunk toward 0 by c/(c + α), c
    being how often the level was seen (other pairs rescaled to the number of true pairs): a level
    rare everywhere says little; one common among other pairs and never seen in true pairs is strong
    evidence against."""
    k, n_m, n_u = len(m_counts), m_counts.sum(), u_counts.sum()
    m = (m_counts + 1) / (n_m + k)
    u = (u_counts + 1) / (n_u + k)
    seen = m_counts + u_counts * n_m / max(n_u, 1)
    return np.log(m / u) * seen / (seen + alpha)


def level_weights(true_levels: dict[str, npt.NDArray[np.int8]], other_levels: dict[str, npt.NDArray[np.int8]],
                  alpha: float = 5.0) -> dict[str, dict[str, float]]:
    """log(m/u) per level (shrunk); the "unknown" level is fixed at 0 (no evidence)."""
    out: dict[str, dict[str, float]] = {}
    for feature in FEATURES:
        t, o = true_levels[feature.name], other_levels[feature.name]
        k = len(feature.levels)
        ratio = shrunk_log_ratio(np.bincount(t, minlength=k).astype(float), np.bincount(o, minlength=k).astype(float),
                                 alpha)
        weights = np.clip(ratio, MIN_WEIGHT, MAX_WEIGHT)
        out[feature.name] = {lv: (0.0 if lv == "unknown" else round(float(w), 3))
                             for lv, w in zip(feature.levels, weights)}
    return out


FACE_EDGES = (-1.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 1.0)


def face_weight(true_sims: npt.NDArray[np.float64], other_sims: npt.NDArray[np.float64]) -> dict[str, Any]:
    """The cosine similarity's log-likelihood ratio as monotone knots (binned, shrunk, made
    non-decreasing), interpolated between bin centres; plus a logistic fit for reference."""
    edges = np.array(FACE_EDGES)
    m_counts = np.histogram(true_sims, edges)[0].astype(float)
    u_counts = np.histogram(other_sims, edges)[0].astype(float)
    ratio = np.maximum.accumulate(np.clip(shrunk_log_ratio(m_counts, u_counts, alpha=3.0), MIN_WEIGHT, 14.0))
    centres = [max(-0.2, (a + b) / 2) for a, b in zip(edges[:-1], edges[1:])]
    centres[-1] = 0.85
    scores = np.concatenate([true_sims, other_sims])
    labels = np.concatenate([np.ones(len(true_sims)), np.zeros(len(other_sims))])
    a, b = fit_logistic(scores, labels)
    b -= math.log(len(true_sims) / len(other_sims))
    return {"knots": [[round(float(x), 3), round(float(w), 3)] for x, w in zip(centres, ratio)],
            "a": round(a, 4), "b": round(b, 4), "min": MIN_WEIGHT, "max": 14.0}


def threshold_for_false_matches(absent_top_probabilities: list[float], target: float) -> float:
    """The smallest probability threshold at which at most ``target`` of absent people get a likely
    match (never below 0.5: a likely match must be more likely than not)."""
    probs = sorted(absent_top_probabilities, reverse=True)
    allowed = int(math.floor(target * len(probs)))
    if allowed >= len(probs):
        return 0.5
    return max(0.5, min(0.999, probs[allowed] + 1e-6))


def shortlist_threshold(true_scores_without_photo: list[float], recall: float = 0.9) -> float:
    """The score above which ``recall`` of true cases lie (ranking on facts alone)."""
    if not true_scores_without_photo:
        return 0.0
    return float(np.quantile(np.array(true_scores_without_photo), 1 - recall))


def algorithm_dict(name: str, version: str, weights: dict[str, dict[str, float]], face: dict[str, Any],
                   likely: float, shortlist: float, meta: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "version": version, "prior_in_archive": 0.5, "likely_match_probability": round(likely, 4),
            "shortlist_min_score": round(shortlist, 3), "face": face, "weights": weights, "meta": meta}
