"""Fit the score → probability calibration and the likely-match threshold (dev split only).

Reads the embeddings cached by identification.py for the dev split (run it first
with --conditions all), then:

1. Platt scaling on pairs: genuine = a probe and its own case, impostor = a probe and
   any other case; classes weighted equally (the probability is for an even prior).
2. The likely-match threshold: the score t whose per-pair impostor exceedance q(t)
   keeps the chance that *any* of N cases beats t, 1 − (1 − q)^N, at or below 5 %,
   with N = 11,000 (about the number of bodies in the Caesar archive), so the rule
   holds for the real archive size, not only for the 640-case benchmark gallery.

    nice .venv/bin/python benchmarks/faces/fit_calibration.py --model arcface
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from identification import ALL_CONDITIONS, cache_dir  # noqa: E402

from athar.matching.faces.calibration import Calibration, calibration_path, fit_logistic  # noqa: E402
from athar.matching.faces.evaluation import score_matrix  # noqa: E402
from athar.matching.faces.models_registry import get_face_model  # noqa: E402


def load(path: Path) -> list[np.ndarray]:
    z = np.load(path, allow_pickle=False)
    return [z["vecs"][z["owner"] == i] for i in range(int(z["n"]))]


def pair_scores(folder: Path, tag: str, present: int, conditions: list[str] | None = None) -> tuple[np.ndarray, np.ndarray, list[str]]:
    probes = [p[:1] for p in load(folder / f"{tag}-probes.npz")]
    gen, imp, used = [], [], []
    for cond in conditions or ALL_CONDITIONS:
        path = folder / f"{tag}-{cond}.npz"
        if not path.exists():
            continue
        s = score_matrix(probes, load(path))
        mask = np.ones_like(s, dtype=bool)
        mask[np.arange(present), np.arange(present)] = False
        ok = np.array([len(p) > 0 for p in probes])
        gen.append(s[np.arange(present), np.arange(present)][ok[:present]])
        imp.append(s[mask & ok[:, None]])
        used.append(cond)
    return np.concatenate(gen), np.concatenate(imp), used


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="arcface")
    ap.add_argument("--tag", default="dev-300-400")
    ap.add_argument("--present", type=int, default=240)
    ap.add_argument("--archive-cases", type=int, default=11_000)
    ap.add_argument("--target-fmr", type=float, default=0.05)
    ap.add_argument("--conditions", nargs="*", default=None,
                    help="cached conditions to fit on (default: every one cached; the shipped fit used: clean archive)")
    args = ap.parse_args()
    model = get_face_model(args.model)
    gen, imp, used = pair_scores(cache_dir(model), args.tag, args.present, args.conditions)
    scores = np.concatenate([gen, imp])
    labels = np.concatenate([np.ones(len(gen)), np.zeros(len(imp))])
    weights = np.concatenate([np.full(len(gen), 0.5 / len(gen)), np.full(len(imp), 0.5 / len(imp))])
    a, b = fit_logistic(scores, labels, weights * len(scores))
    q_max = 1 - (1 - args.target_fmr) ** (1 / args.archive_cases)
    t = float(np.quantile(imp, 1 - q_max))
    prob_t = 1 / (1 + math.exp(-(a * t + b)))
    cal = Calibration(
        model_name=model.name,
        model_version=model.version,
        a=round(a, 6),
        b=round(b, 6),
        threshold=round(prob_t, 6),
        method=(
            "Platt scaling (logistic regression, numpy Newton, ridge 1e-3) of the case score "
            "(cosine, mean-max combination), genuine and impostor pairs weighted equally; threshold = "
            f"impostor-score quantile 1-{q_max:.2e}, so that P(any of {args.archive_cases} cases is a false "
            f"likely match) <= {args.target_fmr}"
        ),
        data=(
            f"LFW deep-funneled, dev split of identities (benchmarks/faces/identity_split.py), {args.tag}: "
            f"{len(gen)} genuine and {len(imp)} impostor pairs; clean family photo vs archive photo under "
            f"conditions {', '.join(used)}"
        ),
    )
    old = calibration_path(model.name)
    if old.exists():  # the several-photo fit (several_photos.py --fit) is kept; refit it after a pipeline change
        cal = dataclasses.replace(cal, several=json.loads(old.read_text(encoding="utf-8")).get("several"))
    cal.save(calibration_path(model.name))
    print(f"a={a:.3f} b={b:.3f} score threshold={t:.4f} probability threshold={prob_t:.4f}")
    print(f"genuine pairs {len(gen)}: share above threshold {(gen >= t).mean():.3f}")
    print(f"impostor pairs {len(imp)}: share above threshold {(imp >= t).mean():.2e}")
    print(f"saved {calibration_path(model.name)}")


if __name__ == "__main__":
    main()
