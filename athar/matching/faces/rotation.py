"""Quarter-turn rotations and mapping boxes/points back to the original photo.

Archive photos are shot from above, so a face can be at 0/90/180/270 degrees. We
rotate the whole photo clockwise by ``r`` degrees, detect upright faces, and map the
results back so every stored box is in the coordinates of the photo as uploaded.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from .datatypes import Box, FloatArray

ROTATIONS = (0, 90, 180, 270)

_TRANSPOSE = {
    90: Image.Transpose.ROTATE_270,  # Pillow's ROTATE_n is counter-clockwise
    180: Image.Transpose.ROTATE_180,
    270: Image.Transpose.ROTATE_90,
}


def rotate_cw(image: Image.Image, rotation: int) -> Image.Image:
    """The photo turned clockwise by ``rotation`` degrees (a multiple of 90)."""
    return image if rotation == 0 else image.transpose(_TRANSPOSE[rotation])


def points_to_original(points: FloatArray, rotation: int, width: int, height: int) -> FloatArray:
    """Map (x, y) points from the rotated photo back to the original ``width``×``height`` one."""
    u, v = points[:, 0], points[:, 1]
    if rotation == 0:
        x, y = u, v
    elif rotation == 90:
        x, y = v, height - u
    elif rotation == 180:
        x, y = width - u, height - v
    elif rotation == 270:
        x, y = width - v, u
    else:
        raise ValueError(f"rotation must be one of {ROTATIONS}")
    return np.stack([x, y], axis=1).astype(np.float32)


def box_to_original(box: Box, rotation: int, width: int, height: int) -> Box:
    """Map a box from the rotated photo back to the original one."""
    corners = np.array([[box.left, box.top], [box.right, box.bottom]], dtype=np.float32)
    pts = points_to_original(corners, rotation, width, height)
    (x1, y1), (x2, y2) = pts.min(0), pts.max(0)
    return Box(float(x1), float(y1), float(x2), float(y2))
