"""Face alignment: a similarity transform from five landmarks to a fixed template.

Embedders are trained on faces warped to a template (ArcFace's 112×112 five-point
layout, dlib's chip). We estimate rotation+scale+shift by least squares (Umeyama)
and warp with Pillow, so no OpenCV is needed.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from .datatypes import FloatArray

# ArcFace 112×112 template: left eye, right eye, nose tip, left and right mouth corner
# (left/right as seen in the image). Same numbers as the faceplugin package's fr_feature.js.
ARCFACE_112 = np.array(
    [
        [38.2946, 51.6963],
        [73.5318, 51.5014],
        [56.0252, 71.7366],
        [41.5493, 92.3655],
        [70.7299, 92.2041],
    ],
    dtype=np.float32,
)


def similarity_matrix(src: FloatArray, dst: FloatArray) -> FloatArray:
    """2×3 matrix mapping ``src`` points onto ``dst`` (Umeyama, no reflection)."""
    src64, dst64 = src.astype(np.float64), dst.astype(np.float64)
    mu_s, mu_d = src64.mean(0), dst64.mean(0)
    s, d = src64 - mu_s, dst64 - mu_d
    cov = d.T @ s / len(src64)
    u, sig, vt = np.linalg.svd(cov)
    sign = np.ones(2)
    if np.linalg.det(u) * np.linalg.det(vt) < 0:
        sign[-1] = -1
    rot = u @ np.diag(sign) @ vt
    var_s = (s**2).sum() / len(src64)
    scale = float((sig * sign).sum() / var_s) if var_s > 0 else 1.0
    shift = mu_d - scale * rot @ mu_s
    return np.hstack([scale * rot, shift[:, None]]).astype(np.float32)


def warp(image: Image.Image, matrix: FloatArray, size: int) -> Image.Image:
    """Apply a 2×3 forward matrix; Pillow wants the inverse (output → input)."""
    full = np.vstack([matrix.astype(np.float64), [0.0, 0.0, 1.0]])
    inv = np.linalg.inv(full)[:2].ravel()
    return image.transform(
        (size, size), Image.Transform.AFFINE, tuple(float(v) for v in inv), Image.Resampling.BILINEAR
    )


def align_to_template(
    image: Image.Image, points: FloatArray, template: FloatArray, size: int
) -> Image.Image:
    """Warp the face so its landmarks land on ``template`` in a ``size``×``size`` crop."""
    return warp(image, similarity_matrix(points, template), size)
