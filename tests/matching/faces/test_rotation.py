from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from athar.matching.faces.datatypes import Box
from athar.matching.faces.rotation import ROTATIONS, box_to_original, points_to_original, rotate_cw


@pytest.mark.parametrize("rotation", ROTATIONS)
def test_marked_pixel_maps_back(rotation: int) -> None:
    w, h, x, y = 50, 30, 7, 20
    a = np.zeros((h, w), np.uint8)
    a[y, x] = 255
    r = np.asarray(rotate_cw(Image.fromarray(a), rotation))
    v, u = np.argwhere(r == 255)[0]
    # pixel centres: +0.5 so continuous coordinates map exactly
    back = points_to_original(np.array([[u + 0.5, v + 0.5]], np.float32), rotation, w, h)
    assert np.allclose(back[0], [x + 0.5, y + 0.5])


def test_box_round_trip_is_a_box() -> None:
    b = box_to_original(Box(10, 5, 30, 25), 90, 100, 60)
    assert b.width == pytest.approx(20) and b.height == pytest.approx(20)
