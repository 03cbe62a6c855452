"""A face quality score in [0, 1]: how much a match on this face can be trusted.

Four parts, each in [0, 1], combined by geometric mean so that one very bad part
(a 20-pixel face, a smear) pulls the whole score down:

- ``size``: shorter box side in original pixels; 0 at ≤ 20 px, 1 at ≥ 100 px.
- ``sharpness``: variance of a Laplacian on the grey aligned crop, v / (v + 150);
  clean LFW faces score ~0.8, a 3-pixel blur ~0.2.
- ``contrast``: standard deviation of the grey aligned crop / 50, capped at 1.
- ``detector``: the detector's confidence.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from .datatypes import Box


def _laplacian_var(grey: np.ndarray) -> float:
    g = grey.astype(np.float32)
    lap = -4 * g[1:-1, 1:-1] + g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:]
    return float(lap.var())


def quality_parts(box: Box, crop: Image.Image, detector_score: float) -> dict[str, float]:
    """The four documented parts, each clipped to [0, 1]."""
    grey = np.asarray(crop.convert("L"))
    side = min(box.width, box.height)
    v = _laplacian_var(grey)
    return {
        "size": float(np.clip((side - 20) / 80, 0, 1)),
        "sharpness": v / (v + 150.0),
        "contrast": float(np.clip(grey.std() / 50.0, 0, 1)),
        "detector": float(np.clip(detector_score, 0, 1)),
    }


def combine_quality(parts: dict[str, float]) -> float:
    """Geometric mean of the parts (with a small floor so a zero does not hide the rest)."""
    vals = np.clip(np.array(list(parts.values()), dtype=np.float64), 1e-3, 1.0)
    return float(np.exp(np.log(vals).mean()))
