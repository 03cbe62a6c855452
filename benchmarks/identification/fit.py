"""Fit the algorithm's weights on a dev set (see athar/matching/scoring/fitting.py) and write
``athar/matching/scoring/algorithms/<name>.json``. Called by ``run.py --fit``."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import numpy as np

from athar.matching.scoring import FEATURES
from athar.matching.scoring.algorithm import Algorithm
from athar.matching.scoring.fitting import (
    algorithm_dict,
    face_weight,
    level_weights,
    shortlist_threshold,
    threshold_for_false_matches,
)

OUT = Path(__file__).resolve().parents[2] / "athar" / "matching" / "scoring" / "algorithms"
VERSION = "1.3"  # 1.3: the detainee number also compared with numbers archivists confirmed in photos
FALSE_MATCH_TARGET = 0.02
REFINE = {"time": -0.01}  # chosen on dev by hand among 0, -0.01, -0.03 (age refinements did not help)  # fitted on dev; the product promise is 0.05 (margin for larger archives)


def _levels(data: dict) -> tuple[dict, dict, np.ndarray, np.ndarray]:
    table = data["table"]
    true_lv = {f.name: [] for f in FEATURES}
    other_lv = {f.name: [] for f in FEATURES}
    true_sims, other_sims = [], []
    rng = np.random.default_rng(0)
    for person, probe, pos in zip(data["people"], data["probes"], data["truth"]):
        if pos is None:
            continue
        others = rng.choice(np.delete(np.arange(len(table)), pos), size=min(300, len(table) - 1), replace=False)
        for f in FEATURES:
            lv = f.compare(person, table)
            true_lv[f.name].append(lv[pos:pos + 1])
            other_lv[f.name].append(lv[others])
        if person.has_photo:
            sims = data["faces"].similarities(probe)
            if not np.isnan(sims[pos]):
                true_sims.append(sims[pos])
            other_sims.extend(s for s in sims[others] if not np.isnan(s))
    cat = lambda d: {k: np.concatenate(v).astype(np.int64) for k, v in d.items()}  # noqa: E731
    return cat(true_lv), cat(other_lv), np.array(true_sims), np.array(other_sims)


def confirmed_number_weight(number: dict[str, float]) -> float:
    """The dev set has no confirmed readings (it is made of cases.csv facts), so this level cannot
    be fitted: a number archivists confirmed on the body weighs as much as the strongest fitted
    same-number level (it is at least as reliable as a number from a folder name). Not a veto either
    way: a confirmed number that differs falls to ``different``."""
    return max(number.get("same_number_same_facility", 0.0), number.get("same_number", 0.0))


def fit_and_write(data: dict, root: Path, name: str) -> None:
    true_lv, other_lv, ts, os_ = _levels(data)
    weights, face = level_weights(true_lv, other_lv), face_weight(ts, os_)
    weights["number"]["confirmed_same_number"] = confirmed_number_weight(weights["number"])
    face["model"], face["pipeline"] = data["faces"].model, data.get("pipeline", "arcface")
    draft = Algorithm.from_dict({**algorithm_dict("athar-ident", VERSION, weights, face, 0.5, 0.0, {}),
                                 "refine": REFINE})
    table, absent_top, true_scores = data["table"], [], []
    for person, probe, pos in zip(data["people"], data["probes"], data["truth"]):
        sims = data["faces"].similarities(probe) if person.has_photo else None
        scores, _ = draft.score(person, table, sims)
        if pos is None:
            absent_top.append(float(draft.probabilities(scores).max()))
        elif not person.has_photo:
            true_scores.append(float(scores[pos]))
    likely = threshold_for_false_matches(absent_top, FALSE_MATCH_TARGET)
    meta = {"fitted_on": f"benchmarks/identification dev set ({root.name}): {len(table)} cases, "
                         f"{len(data['people'])} reports, LFW dev identities",
            "fitted_at": dt.date.today().isoformat(), "false_match_target_on_dev": FALSE_MATCH_TARGET,
            "shortlist": "cases scoring at least shortlist_min_score on the facts: 90% of true cases on dev",
            "true_pairs": int(len(true_lv["sex"])), "other_pairs": int(len(other_lv["sex"])),
            "face_pairs": [int(len(ts)), int(len(os_))]}
    out = algorithm_dict("athar-ident", VERSION, weights, face, likely, shortlist_threshold(true_scores), meta)
    out["refine"] = REFINE
    (OUT / f"{name}.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT / (name + '.json')}")
