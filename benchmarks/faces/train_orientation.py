"""Train the upright-face classifier (athar/matching/faces/orientation.py) on LFW dev.

For photos of dev identities, degraded at random (single degradations and pairs;
no quarter turns), we run the pipeline's detection at all four turns; the crops of
the main face at turn 0 are "upright", at other turns "not upright". Logistic
regression (numpy Newton, ridge) on 24×24 grey crops. Validated on other dev photos.

    nice .venv/bin/python benchmarks/faces/train_orientation.py --n 2000
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import degrade  # noqa: E402
from lfw_split import LFW, _bucket  # noqa: E402

from athar.matching.faces.orientation import WEIGHTS, orientation_features  # noqa: E402
from athar.matching.faces.pipeline import FacePipeline  # noqa: E402
from athar.matching.faces.rotation import rotate_cw  # noqa: E402

CONDS = ["clean", "low_light", "grey_cast", "blur", "jpeg", "small", "tilt", "closed_eyes", "swelling", "noise"]


def samples(pipe: FacePipeline, path: Path, rng: random.Random) -> tuple[list[np.ndarray], list[int], list[int]]:
    img = Image.open(path).convert("RGB")
    for c in rng.sample(CONDS, rng.choice((1, 2, 3))):
        img = degrade.apply(c, img, rng)
    work, seen = pipe.prepare(img)
    cands = pipe._candidates(seen)
    if not cands:
        return [], [], []
    main = max((c for c in cands if c.rotation == 0), key=lambda c: c.det.box.area, default=None)
    if main is None:
        return [], [], []
    feats, labels, rots = [], [], []
    for c in cands:
        if c.original_box.iou(main.original_box) > 0.3:
            rimg = rotate_cw(work, c.rotation)
            pts = pipe.model.landmarker.landmarks(np.asarray(rimg), c.det.box)
            feats.append(orientation_features(rimg, pts))
            labels.append(int(c.rotation == 0))
            rots.append(c.rotation)
    return feats, labels, rots


def fit(x: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        g = x.T @ (p - y) + l2 * w
        h = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(x.shape[1])
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--l2", type=float, default=10.0)
    args = ap.parse_args()
    files = sorted(p for p in LFW.glob("*/*.jpg") if _bucket(p.parent.name) % 2 == 0)
    random.Random(11).shuffle(files)
    pipe = FacePipeline("arcface")
    data: list[tuple[list[np.ndarray], list[int]]] = []
    for i, f in enumerate(files[: args.n]):
        fx, fy, _ = samples(pipe, f, random.Random(i))
        data.append((fx, fy))
    cut = int(len(data) * 0.8)
    xtr = np.array([v for fx, _ in data[:cut] for v in fx])
    ytr = np.array([v for _, fy in data[:cut] for v in fy], dtype=np.float64)
    w = fit(xtr.astype(np.float64), ytr, args.l2)
    right = total = 0
    for fx, fy in data[cut:]:
        if fx and 1 in fy:
            total += 1
            right += int(fy[int(np.argmax(np.array(fx) @ w))] == 1)
    print(f"train crops {len(xtr)} (upright {int(ytr.sum())}); held-out photos {total}: right turn {right / max(total, 1):.3f}")
    WEIGHTS.parent.mkdir(exist_ok=True)
    np.savez(WEIGHTS, w=w.astype(np.float32))
    print(f"saved {WEIGHTS}")


if __name__ == "__main__":
    main()
