"""The named baseline of issue 19 (benchmarks/faces/simple_baseline.py) and the second degradation
model (degrade_b.py): every face change is measured against them, so they must do what they say."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks" / "faces"))


def test_the_baseline_finds_one_face_at_a_quarter_turn_and_none_on_a_blank_sheet(face_a: Image.Image) -> None:
    from simple_baseline import baseline

    pipe = baseline()
    upright = pipe.vectors(face_a)
    turned = pipe.vectors(face_a.rotate(90, expand=True))
    assert upright.shape == (1, 512) and turned.shape == (1, 512)
    assert float(upright[0] @ turned[0]) > 0.9  # the same face, turned back by the quarter turns
    assert pipe.vectors(Image.new("RGB", (250, 250), (120, 120, 120))).shape == (0, 512)


def test_the_baseline_prefers_the_central_large_face(face_a: Image.Image, face_b: Image.Image) -> None:
    from simple_baseline import baseline

    pipe = baseline()
    sheet = Image.new("RGB", (700, 400), (128, 128, 128))
    sheet.paste(face_a, (225, 75))  # centre
    sheet.paste(face_b.resize((150, 150)), (540, 10))  # corner, smaller
    chosen = pipe.vectors(sheet)
    assert float(chosen[0] @ pipe.vectors(face_a)[0]) > float(chosen[0] @ pipe.vectors(face_b)[0])


def test_the_second_degradation_model_is_seeded_and_turns_by_any_angle(face_a: Image.Image) -> None:
    import degrade_b

    one = degrade_b.apply_b(face_a, random.Random(7))
    angle = degrade_b.LAST["angle"]
    two = degrade_b.apply_b(face_a, random.Random(7))
    assert np.array_equal(np.asarray(one), np.asarray(two))
    assert 0 <= angle < 360
    angles = set()
    for seed in range(12):
        degrade_b.apply_b(face_a, random.Random(seed))
        angles.add(round(degrade_b.LAST["angle"]) % 90)
    assert len(angles) > 6  # not only quarter turns
