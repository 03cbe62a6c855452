"""Quarter-turn rotations and mapping boxes/points back to the original photo.

Archive photos are shot from above, so a face can be at 0/90/180/270 degrees. We
rotate the whole photo clockwise by ``r`` degrees, detect upright faces, and map the
results back so every stored box is in the coordinates of the photo as uploaded.
A head can also lie between two quarter turns: ``turn_cw_any`` and ``points_from_turned``
serve the pipeline's diagonal pass (the photo turned by 45°, then its quarter turns).
"""

from __future__ import annotations

import math

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


def turn_cw_any(image: Image.Image, degrees: float) -> Image.Image:
    """The photo turned clockwise by any angle, enlarged to hold all of it; the new corners
    are filled with the photo's median colour (a hard black edge would draw false faces)."""
    fill = tuple(int(v) for v in np.median(np.asarray(image.convert("RGB")).reshape(-1, 3), axis=0))
    return image.rotate(-degrees, resample=Image.Resampling.BILINEAR, expand=True, fillcolor=fill)


def turn_points(points: FloatArray, degrees: float, centre: tuple[float, float],
                to_centre: tuple[float, float] | None = None) -> FloatArray:
    """Points turned counter-clockwise as displayed (image y points down) about ``centre``, as
    ``Image.rotate(degrees, center=centre)`` turns the pixels; ``to_centre``: where the centre
    lands (a frame that grew or shrank), ``centre`` itself by default."""
    a = math.radians(degrees)
    cx, cy = centre
    ox, oy = centre if to_centre is None else to_centre
    u, v = points[:, 0] - cx, points[:, 1] - cy
    return np.stack([ox + u * math.cos(a) + v * math.sin(a), oy - u * math.sin(a) + v * math.cos(a)], axis=1).astype(np.float32)


def points_from_turned(points: FloatArray, degrees: float, width: int, height: int,
                       turned_width: int, turned_height: int) -> FloatArray:
    """Map points of ``turn_cw_any(photo, degrees)`` back to the ``width``×``height`` photo: the
    photo was turned clockwise about its centre, so turn the points back counter-clockwise."""
    return turn_points(points, degrees, (turned_width / 2, turned_height / 2), (width / 2, height / 2))
