"""Landmarks for faces rolled between the quarter turns (a head lying at 30–60°).

Archive photos are shot from above: a head can lie at any angle, not only at the four quarter
turns the detector is run at. The five-point landmark model is trained on roughly upright faces;
on a face rolled by ~45° it puts the points loosely, and the similarity transform built on them
gives the embedder a crop it does not recognise. So when the landmarks found say the face is
rolled by more than a few degrees, the region around the face is turned upright by that angle,
the landmarks are found again there, and mapped back; then once more from the better angle the
new landmarks give.
Measured in docs/faces.md ("Faces at any angle").
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image

from .datatypes import Box, FloatArray, Landmarker
from .rotation import turn_points

# Eye corners per landmark scheme: (points of the eye on the image's left, of the eye on its right).
EYES = {
    "dlib5": ((2, 3), (0, 1)),
    "arcface5": ((0,), (1,)),
}


def roll_degrees(points: FloatArray, scheme: str) -> float:
    """The face's roll in the image: the angle of the line from the image-left eye to the
    image-right eye, in degrees, positive when the face is turned clockwise as displayed."""
    left_ids, right_ids = EYES[scheme]
    left, right = points[list(left_ids)].mean(0), points[list(right_ids)].mean(0)
    return math.degrees(math.atan2(float(right[1] - left[1]), float(right[0] - left[0])))


def refine_rolled_landmarks(landmarker: Landmarker, image: Image.Image, box: Box, points: FloatArray,
                            scheme: str, above_degrees: float, steps: int = 2) -> FloatArray:
    """Landmarks found again on the face turned upright, when its roll exceeds ``above_degrees``.

    ``image`` is the photo at the face's quarter turn and ``box`` the detection in it. Only a
    square region around the face is turned (cheap on camera-sized photos); the new points are
    kept only if they say the face is closer to upright than the old ones did, so the step cannot
    make a face worse.
    """
    for _ in range(steps):
        roll = roll_degrees(points, scheme)
        if abs(roll) <= above_degrees:
            break
        cx, cy = (box.left + box.right) / 2, (box.top + box.bottom) / 2
        half = max(box.width, box.height) * 1.5
        x0, y0 = int(round(cx - half)), int(round(cy - half))
        region = image.crop((x0, y0, x0 + int(2 * half), y0 + int(2 * half)))
        centre = (cx - x0, cy - y0)
        upright = region.rotate(roll, resample=Image.Resampling.BILINEAR, center=centre)
        local = Box(box.left - x0, box.top - y0, box.right - x0, box.bottom - y0)
        found = landmarker.landmarks(np.asarray(upright), local)
        if abs(roll_degrees(found, scheme)) >= abs(roll):
            break
        back = turn_points(found, -roll, centre)
        points = (back + np.array([x0, y0], dtype=np.float32)).astype(np.float32)
    return points
