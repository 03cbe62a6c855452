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


@pytest.mark.parametrize("degrees", [30, 45, 135, 300])
def test_marked_pixel_maps_back_from_a_photo_turned_by_any_angle(degrees: int) -> None:
    from athar.matching.faces.rotation import points_from_turned, turn_cw_any

    w, h, x, y = 120, 80, 90, 20
    a = np.zeros((h, w, 3), np.uint8)
    a[y - 1 : y + 2, x - 1 : x + 2] = 255  # a 3×3 mark: survives bilinear resampling
    turned = turn_cw_any(Image.fromarray(a), degrees)
    grey = np.asarray(turned).sum(2)
    v, u = np.unravel_index(grey.argmax(), grey.shape)
    back = points_from_turned(np.array([[u + 0.5, v + 0.5]], np.float32), degrees, w, h, turned.width, turned.height)
    assert np.allclose(back[0], [x + 0.5, y + 0.5], atol=1.5)


def test_turning_by_any_angle_turns_the_same_way_as_the_quarter_turns() -> None:
    from athar.matching.faces.rotation import turn_cw_any

    a = np.zeros((30, 50, 3), np.uint8)
    a[5:8, 40:43] = 255
    quarter, anyway = rotate_cw(Image.fromarray(a), 90), turn_cw_any(Image.fromarray(a), 90)
    assert quarter.size == anyway.size
    assert np.unravel_index(np.asarray(quarter).sum(2).argmax(), (50, 30)) == \
        np.unravel_index(np.asarray(anyway).sum(2).argmax(), (50, 30))
