"""An algorithm: a named, versioned, weighted list of features, and the ranking it produces.

Weights are log-likelihood ratios per feature level, stored as JSON in ``algorithms/`` (no pickles)
and fitted by ``benchmarks/identification/fit.py``. A case's *score* is the sum of its weights
(naive Bayes); its *probability* is the posterior that this case is the person, given every case
in the table and a prior that the person is in the archive at all:

    P(case i) = (π/N)·e^{Lᵢ} / ((1 − π) + (π/N)·Σⱼ e^{Lⱼ})

so two strong candidates share the probability, and a bigger archive needs stronger evidence.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from athar.matching.scoring.facts import CaseTable, PersonFacts
from athar.matching.scoring.features import FEATURES, REFINEMENTS, Feature

DEFAULT_ALGORITHM = "athar-ident-v1"


@dataclass(frozen=True)
class Reason:
    """One feature's contribution to one case: its weight and what it compared."""

    feature: str
    level: str
    weight: float
    detail: str

    def as_dict(self) -> dict[str, Any]:
        return {"feature": self.feature, "level": self.level, "weight": round(self.weight, 2), "detail": self.detail}


@dataclass
class Candidate:
    case_id: int
    rank: int
    score: float
    probability: float
    likely_match: bool
    reasons: list[Reason]


@dataclass
class Ranking:
    """One person against every case: the ranked candidates, the decision, and the shortlist."""

    person_id: str
    algorithm: str
    version: str
    cases: int
    candidates: list[Candidate]
    likely_match: bool
    shortlist: int
    scores: npt.NDArray[np.float64] = field(repr=False)
    probabilities: npt.NDArray[np.float64] = field(repr=False)
    order: npt.NDArray[np.int64] = field(repr=False)

    def rank_of(self, position: int) -> int:
        """1-based rank of the case at a table position (ties ranked pessimistically)."""
        return int((self.scores > self.scores[position]).sum() + (self.scores == self.scores[position]).sum())


@dataclass(frozen=True)
class Algorithm:
    name: str
    version: str
    weights: dict[str, dict[str, float]]
    face: dict[str, Any]  # weights and knots (floats), and the face model and pipeline names
    prior_in_archive: float
    likely_match_probability: float
    shortlist_min_score: float
    meta: dict[str, Any]
    refine: dict[str, float] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Algorithm:
        return cls(raw["name"], raw["version"], raw["weights"], raw["face"], raw["prior_in_archive"],
                   raw["likely_match_probability"], raw["shortlist_min_score"], raw.get("meta", {}),
                   raw.get("refine", {}))

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "weights": self.weights, "face": self.face,
                "prior_in_archive": self.prior_in_archive, "likely_match_probability": self.likely_match_probability,
                "shortlist_min_score": self.shortlist_min_score, "meta": self.meta,
                **({"refine": self.refine} if self.refine else {})}

    def level_weights(self, feature: Feature) -> npt.NDArray[np.float64]:
        table = self.weights.get(feature.name, {})
        return np.array([float(table.get(level, 0.0)) for level in feature.levels])

    def face_weight(self, similarity: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Cosine similarity to a log-likelihood ratio (monotone knots, or linear), NaN (no face) gives 0."""
        f = self.face
        if f.get("knots"):
            xs, ws = zip(*f["knots"])
            weight = np.interp(np.nan_to_num(similarity, nan=0.0), xs, ws)
        else:
            weight = np.clip(f["a"] * similarity + f["b"], f["min"], f["max"])
        return np.where(np.isnan(similarity), 0.0, weight)

    def score(self, person: PersonFacts, table: CaseTable,
              face: npt.NDArray[np.float64] | None = None) -> tuple[npt.NDArray[np.float64], dict[str, Any]]:
        """Total weight per case, and each feature's level array (for explanations)."""
        total = np.zeros(len(table))
        levels: dict[str, Any] = {}
        for feature in FEATURES:
            lv = feature.compare(person, table)
            total += self.level_weights(feature)[lv] + self._refinement(feature.name, person, table)
            levels[feature.name] = lv
        if face is not None and person.has_photo:
            total += self.face_weight(face)
        return total, levels

    def _refinement(self, name: str, person: PersonFacts, table: CaseTable) -> npt.NDArray[np.float64] | float:
        """A small continuous term within a level (e.g. −0.1 per year from the estimate's middle)."""
        per_unit = float(self.refine.get(name, 0.0))
        return per_unit * REFINEMENTS[name](person, table) if per_unit and name in REFINEMENTS else 0.0

    def probabilities(self, scores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Posterior per case (see the module docstring), computed stably in log space."""
        n = max(len(scores), 1)
        log_prior = math.log(self.prior_in_archive / n)
        log_absent = math.log(1 - self.prior_in_archive)
        top = max(float(scores.max()) + log_prior, log_absent) if len(scores) else log_absent
        denom = math.exp(log_absent - top) + float(np.exp(scores + log_prior - top).sum())
        return np.exp(scores + log_prior - top) / denom

    def rank(self, person: PersonFacts, table: CaseTable, face: npt.NDArray[np.float64] | None = None,
             limit: int = 20, include: tuple[int, ...] = ()) -> Ranking:
        """Rank every case for one person; explain the first ``limit`` (and the ``include`` case ids)."""
        scores, levels = self.score(person, table, face)
        probs = self.probabilities(scores)
        order = np.argsort(-scores, kind="stable")
        wanted = list(order[:limit]) + [table.position[c] for c in include if c in table.position]
        seen: set[int] = set()
        candidates = []
        for pos in wanted:
            if int(pos) in seen:
                continue
            seen.add(int(pos))
            rank = int(np.nonzero(order == pos)[0][0]) + 1
            candidates.append(self._candidate(person, table, int(pos), rank, scores, probs, levels, face))
        likely = bool(len(scores)) and float(probs[order[0]]) >= self.likely_match_probability
        shortlist = int((scores >= self.shortlist_min_score).sum())
        return Ranking(person.person_id, self.name, self.version, len(table), candidates, likely, shortlist,
                       scores, probs, order)

    def _candidate(self, person: PersonFacts, table: CaseTable, pos: int, rank: int,
                   scores: npt.NDArray[np.float64], probs: npt.NDArray[np.float64], levels: dict[str, Any],
                   face: npt.NDArray[np.float64] | None) -> Candidate:
        record = table.records[pos]
        reasons = []
        if person.has_photo and face is not None:
            sim = float(face[pos])
            if math.isnan(sim):
                reasons.append(Reason("face", "no_face", 0.0, "no usable face found in this case's photos"))
            else:
                reasons.append(Reason("face", "similarity", float(self.face_weight(np.array([sim]))[0]),
                                      f"face similarity {sim:.2f} with the family's photos"))
        elif not person.has_photo:
            reasons.append(Reason("face", "no_photo", 0.0, "no photo of the person: ranked on the other facts"))
        for feature in FEATURES:
            level = feature.levels[int(levels[feature.name][pos])]
            weight = float(self.level_weights(feature)[int(levels[feature.name][pos])])
            refined = self._refinement(feature.name, person, _row(table, pos))
            weight += float(refined[0]) if isinstance(refined, np.ndarray) else 0.0
            reasons.append(Reason(feature.name, level, weight, feature.explain(level, person, record)))
        reasons.sort(key=lambda r: -abs(r.weight))
        p = float(probs[pos])
        return Candidate(record.case_id, rank, float(scores[pos]), p,
                         rank == 1 and p >= self.likely_match_probability, reasons)


def _row(table: CaseTable, pos: int) -> CaseTable:
    """A one-case view of the columns the refinements read (no re-parsing)."""
    from dataclasses import replace

    sl = slice(pos, pos + 1)
    return replace(table, records=table.records[sl], case_ids=table.case_ids[sl], facility=table.facility[sl],
                   agency=table.agency[sl], sex=table.sex[sl], age_min=table.age_min[sl], age_max=table.age_max[sl],
                   photo_month=table.photo_month[sl], photo_tolerance=table.photo_tolerance[sl],
                   number=table.number[sl], confirmed=table.confirmed[sl], mark_matrix=table.mark_matrix[sl], has_marks=table.has_marks[sl])


@cache
def load_algorithm(name: str = DEFAULT_ALGORITHM) -> Algorithm:
    """A shipped algorithm by name (``algorithms/<name>.json``)."""
    path = resources.files("athar.matching.scoring").joinpath(f"algorithms/{name}.json")
    if not path.is_file():
        raise ValueError(f"unknown ranking algorithm {name!r}")
    return Algorithm.from_dict(json.loads(path.read_text(encoding="utf-8")))
