"""The twenty-seventh session's measurement (not shipped): ``lines.text_fit`` kept as each glyph
reading's evidence when asked (``NumberReader.evidence(fit=True)``), and the four features
``benchmarks/numbers/fit_features.py`` weighs with the shipped calibrator's."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from athar.matching.numbers.calibration import LINE, NO_FIT, Evidence
from athar.matching.numbers.reader import NumberReader
from benchmarks.numbers.fit_features import ALL_FEATURES, FIT_FEATURES, features
from tests.matching.numbers.test_reader import FONT, photo_with_card


def evidence(text: str = "52817", mask: int = 0, box: list[int] | None = None, **changes: Any) -> Evidence:
    base = Evidence(text=text, box=box or [100, 100, 200, 140], kind=None, mask=mask, glyph=0.9, digit_min=0.9,
                    digit_mean=0.95, edge=1.0, arabic=False, past=False, checked=True, line=0.8, partial=False,
                    height=24.0)
    return replace(base, **changes)


def line_reading(text: str = "52811", **changes: Any) -> Evidence:
    return evidence(text, source=LINE, glyph=0.0, digit_min=0.0, digit_mean=0.0, edge=0.0, **changes)


def column(name: str) -> int:
    return ALL_FEATURES.index(name)


def lp(tokens: list[int], sure: float = 0.99) -> np.ndarray:
    """Log-probabilities whose best path is ``tokens`` (0 blank, digit d is d + 1)."""
    from athar.matching.numbers import lines as L

    p = np.full((len(tokens), len(L.TOKENS)), (1 - sure) / (len(L.TOKENS) - 1))
    p[np.arange(len(tokens)), tokens] = sure
    return np.log(p)


@pytest.mark.skipif(not FONT.exists(), reason="fonts-dejavu-core is not installed")
def test_a_glyph_reading_carries_how_near_the_line_recognisers_columns_come_to_its_text(monkeypatch):
    """Twenty-seventh session: asked for it (``fit=True``), each glyph reading of a line the line
    recogniser read keeps ``lines.text_fit`` of its text against that line's columns (either way
    round), whatever the best path's own reading; a line it did not read gives ``NO_FIT``, and so
    does every reading when not asked (the product's reading: no cost, the same evidence)."""
    from athar.matching.numbers import line_reader

    photo, _ = photo_with_card("52817", 20)
    digits = [0, 6, 0, 3, 0, 9, 0, 2, 0, 8, 0]  # _ 5 _ 2 _ 8 _ 1 _ 7 _
    asked: list[bool] = []
    for columns, near in ((digits, True), (digits[:-3] + [3, 0, 0], False)):  # 52817, then 52812 (nothing read)
        def read_each(gray: object, frames: list[object], weights: object,
                      paths: list[object] | None = None, columns: list[int] = columns) -> list[list[object]]:
            asked.append(paths is not None)
            if paths is not None:
                paths.extend((lp(columns), lp([0] * len(columns))) for _ in frames)
            return [[] for _ in frames]

        monkeypatch.setattr(line_reader, "read_each", read_each)
        glyph = [e for e in NumberReader(calibrator=None).evidence(photo, line_from=0.0, fit=True)
                 if e.text == "52817" and e.checked]
        assert glyph, "the glyph network reads the card"
        for e in glyph:
            assert (e.fit > -0.01) if near else (-9.0 < e.fit < -5.0), (columns, e.fit)
        asked.clear()
        plain = NumberReader(calibrator=None).evidence(photo, line_from=0.0)
        assert plain and all(e.fit == NO_FIT for e in plain)
        assert asked and not any(asked)  # not asked: the line recogniser's columns are not even kept
    unread = [e for e in NumberReader(calibrator=None).evidence(photo, line_from=1.01, fit=True) if e.source != LINE]
    assert unread and all(e.fit == NO_FIT and not e.checked for e in unread)


def test_the_fit_features_weigh_checked_glyph_readings_only():
    found = [
        evidence("52817", fit=-0.2),
        evidence("52817", mask=1, fit=-4.0),
        evidence("52817", mask=2, checked=False, line=0.0, fit=NO_FIT),
        line_reading("52811", line=0.7),
        evidence("4321", box=[500, 500, 600, 540], fit=0.003),  # both scripts' digit on one column
    ]
    x = features(found)
    assert list(x[:, column("fit")]) == pytest.approx([-0.2, -4.0, 0.0, 0.0, 0.0])
    assert list(x[:, column("fit_near")]) == [1, 0, 0, 0, 1]


def test_a_line_reading_knows_how_near_its_columns_come_to_the_glyph_text_it_replaces():
    found = [
        evidence("52817", fit=-0.2),
        evidence("52817", mask=1, fit=-6.0),
        line_reading("52811", line=0.7, other=0.9, other_text="52817"),
        line_reading("52811", mask=1, line=0.7, other=0.9, other_text="52817"),
        line_reading("52811", mask=2, line=0.7, other=0.9, other_text="52817"),  # no glyph reading of its mask
        line_reading("4321", box=[500, 500, 600, 540]),  # the glyphs read nothing there
        evidence("2817", mask=1, fit=0.0),  # another glyph text there: not the one replaced
    ]
    x = features(found)
    assert list(x[:, column("lo_other_fit")]) == pytest.approx([0.0, 0.0, -0.2, -6.0, NO_FIT, 0.0, 0.0])
    assert list(x[:, column("lo_other_near")]) == [0, 0, 1, 0, 0, 0, 0]


def test_the_four_features_follow_the_shipped_calibrators():
    assert ALL_FEATURES[-len(FIT_FEATURES):] == FIT_FEATURES
    x = features([evidence("52817", fit=-0.5), line_reading("52811", other=0.9, other_text="52817")])
    assert x.shape == (2, len(ALL_FEATURES))
