"""Which quarter-turn makes a face upright: a small linear model on the face region.

Detectors also fire on upside-down and sideways faces (on clean LFW the ONNX
detector finds 98 % of faces turned 180°, often with full confidence), so the turn
cannot be read from the detector. For a detected face we cut the square around its
box, look at it in all four turns, and score each with logistic regression on
gradient-orientation histograms and a 16×16 grey thumbnail, trained on degraded LFW
dev photos (benchmarks/faces/train_orientation.py). Weights are float arrays in
``orientation_data/upright_v2.json`` (plain JSON, no pickles).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image

from .datatypes import Box, FloatArray
from .rotation import ROTATIONS

WEIGHTS = Path(__file__).resolve().parent / "orientation_data" / "upright_v2.json"
SIDE = 32
CELLS = 4
BINS = 8


def face_square(image: Image.Image, box: Box, margin: float = 1.3) -> Image.Image:
    """A grey SIDE×SIDE square centred on the box, ``margin`` times its longer side."""
    side = max(box.width, box.height) * margin
    cx, cy = (box.left + box.right) / 2, (box.top + box.bottom) / 2
    crop = image.convert("L").crop((int(cx - side / 2), int(cy - side / 2), int(cx + side / 2), int(cy + side / 2)))
    return crop.resize((SIDE, SIDE), Image.Resampling.BOX)


def _features(grey: np.ndarray) -> FloatArray:
    g = (grey - grey.mean()) / (grey.std() + 1e-3)
    gy, gx = np.gradient(g)
    mag, ang = np.hypot(gx, gy), np.arctan2(gy, gx) % (2 * np.pi)
    bins = np.minimum((ang / (2 * np.pi) * BINS).astype(int), BINS - 1)
    c = SIDE // CELLS
    hog = np.zeros((CELLS, CELLS, BINS), np.float32)
    for i in range(CELLS):
        for j in range(CELLS):
            sl = (slice(i * c, (i + 1) * c), slice(j * c, (j + 1) * c))
            hog[i, j] = np.bincount(bins[sl].ravel(), mag[sl].ravel(), BINS)
    hog /= np.linalg.norm(hog) + 1e-6
    thumb = g.reshape(16, 2, 16, 2).mean((1, 3)).ravel() / 4
    return np.concatenate([hog.ravel() * 4, thumb, [1.0]]).astype(np.float32)


def turn_features(square: Image.Image) -> FloatArray:
    """Features of the square turned clockwise by 0, 90, 180 and 270 degrees (4 rows)."""
    a = np.asarray(square, dtype=np.float32)
    return np.stack([_features(np.rot90(a, -r // 90)) for r in ROTATIONS])


@lru_cache(maxsize=1)
def _weights() -> FloatArray | None:
    if not WEIGHTS.is_file():
        return None
    return np.asarray(json.loads(WEIGHTS.read_text(encoding="utf-8"))["w"], dtype=np.float32)


def upright_logits(image: Image.Image, box: Box) -> dict[int, float]:
    """Log-odds per clockwise turn that the face is upright after it (0 without weights)."""
    w = _weights()
    if w is None:
        return {r: 0.0 for r in ROTATIONS}
    scores = turn_features(face_square(image, box)) @ w
    return {r: float(s) for r, s in zip(ROTATIONS, scores)}
