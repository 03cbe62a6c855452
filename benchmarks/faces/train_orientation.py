"""Train the upright-face classifier (athar/matching/faces/orientation.py) on LFW dev.

Dev photos are degraded at random (1–3 of the single degradations, no quarter turns),
then turned by a random quarter turn. The pipeline detects the face at all turns;
the square around its box is scored in all four turns: the one that undoes the turn
is "upright", the other three are not. Logistic regression (numpy Newton, ridge).
Held-out dev photos measure how often the right turn wins, alone and with the
detector's logit added with weight λ (the pipeline's rule).

    nice .venv/bin/python benchmarks/faces/train_orientation.py --n 1500
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import degrade  # noqa: E402
from identity_split import LFW, _bucket  # noqa: E402

from athar.matching.faces.orientation import WEIGHTS, face_square, turn_features  # noqa: E402
from athar.matching.faces.pipeline import FacePipeline  # noqa: E402
from athar.matching.faces.rotation import ROTATIONS, rotate_cw  # noqa: E402

CONDS = ["clean", "low_light", "grey_cast", "blur", "jpeg", "small", "tilt", "closed_eyes", "swelling", "noise"]


def sample(pipe: FacePipeline, path: Path, rng: random.Random) -> tuple[np.ndarray, int, dict[int, float]] | None:
    """(4×F features, index of the right turn, detector logit per turn) or None."""
    img = Image.open(path).convert("RGB")
    for c in rng.sample(CONDS, rng.choice((1, 2, 3))):
        img = degrade.apply(c, img, rng)
    turn = rng.choice(ROTATIONS)
    img = rotate_cw(img, turn)  # the face now needs (360 - turn) to be upright
    work, seen = pipe.prepare(img)
    cands = pipe._candidates(seen)
    if not cands:
        return None
    cx, cy = img.width / 2, img.height / 2
    main = min(cands, key=lambda c: abs((c.original_box.left + c.original_box.right) / 2 - cx) + abs((c.original_box.top + c.original_box.bottom) / 2 - cy))
    group = sorted((c for c in cands if c.original_box.overlap(main.original_box) >= 0.5), key=lambda c: -c.strength)
    det: dict[int, float] = {}
    for c in group:
        det.setdefault(c.rotation, c.strength)
    right = ROTATIONS.index((360 - turn) % 360)
    return turn_features(face_square(work, group[0].original_box)), right, det


def fit(x: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(40):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        g = x.T @ (p - y) + l2 * w
        h = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(x.shape[1])
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def accuracy(data: list[tuple[np.ndarray, int, dict[int, float]]], w: np.ndarray, lam: float, detected_only: bool) -> float:
    right = 0
    for feats, r, det in data:
        s = feats @ w
        scores = {k: s[i] + lam * det.get(k, 0.0) for i, k in enumerate(ROTATIONS) if (k in det or not detected_only)}
        right += int(max(scores, key=scores.__getitem__) == ROTATIONS[r]) if scores else 0
    return right / max(len(data), 1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1500)
    ap.add_argument("--l2", type=float, default=1.0)
    args = ap.parse_args()
    files = sorted(p for p in LFW.glob("*/*.jpg") if _bucket(p.parent.name) % 2 == 0)
    random.Random(11).shuffle(files)
    pipe = FacePipeline("arcface")
    data = [s for i, f in enumerate(files[: args.n]) if (s := sample(pipe, f, random.Random(i))) is not None]
    cut = int(len(data) * 0.8)
    x = np.concatenate([d[0] for d in data[:cut]]).astype(np.float64)
    y = np.concatenate([np.eye(4)[d[1]] for d in data[:cut]])
    w = fit(x, y, args.l2)
    held = data[cut:]
    print(f"train photos {cut}, held-out {len(held)}")
    for lam in (0.0, 0.1, 0.25, 0.5, 1.0):
        print(f"λ={lam}: right turn {accuracy(held, w, lam, True):.3f} (among detected turns), {accuracy(held, w, lam, False):.3f} (all turns)")
    WEIGHTS.parent.mkdir(exist_ok=True)
    WEIGHTS.write_text(json.dumps({
        "name": "upright-linear", "version": "2",
        "description": "Linear upright-face classifier over turn features (benchmarks/faces/train_orientation.py).",
        "w": [float(v) for v in w.astype(np.float32)],
    }), encoding="utf-8")
    print(f"saved {WEIGHTS}")


if __name__ == "__main__":
    main()
