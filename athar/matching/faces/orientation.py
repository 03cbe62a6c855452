"""Which quarter-turn makes a face upright: a small linear model on the aligned crop.

Detectors also fire on upside-down and sideways faces (on clean LFW the ONNX
detector finds 98 % of faces turned 180°), and on grey, blurred archive photos its
confidence no longer tells the turns apart (72 % right). For each turn at which a
face was detected we align a 24×24 grey crop (ArcFace layout, dlib's points) and
score "upright" with logistic regression trained on degraded LFW dev photos
(benchmarks/faces/train_orientation.py). Weights are a float array in
``orientation_data/upright_v1.npz`` (loaded without pickles).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image

from .align import align_to_template
from .datatypes import FloatArray
from .onnx_models import DLIB5_IN_ARCFACE_112

WEIGHTS = Path(__file__).resolve().parent / "orientation_data" / "upright_v1.npz"
SIDE = 24


def orientation_features(image: Image.Image, dlib5_points: FloatArray) -> FloatArray:
    """Standardised 24×24 grey aligned crop, flattened, plus a bias term."""
    crop = align_to_template(image, dlib5_points, DLIB5_IN_ARCFACE_112, 112).convert("L")
    a = np.asarray(crop.resize((SIDE, SIDE), Image.Resampling.BOX), dtype=np.float32).ravel()
    a = (a - a.mean()) / (a.std() + 1e-3)
    return np.append(a, 1.0).astype(np.float32)


@lru_cache(maxsize=1)
def _weights() -> FloatArray | None:
    if not WEIGHTS.is_file():
        return None
    with np.load(WEIGHTS, allow_pickle=False) as z:
        return np.asarray(z["w"], dtype=np.float32)


def upright_logit(image: Image.Image, dlib5_points: FloatArray) -> float:
    """Log-odds that the aligned face is upright (0.0 when no weights are installed)."""
    w = _weights()
    return float(orientation_features(image, dlib5_points) @ w) if w is not None else 0.0
