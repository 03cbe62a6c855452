"""The reader's speed-ups read the same (twenty-fifth session): the three ink masks with Sauvola's
statistics shared, the character-sized components chosen at once, a line's members projected at
once. Each is checked against the plain computation it replaced."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import ndimage

from athar.matching.numbers import reader as R
from tests.matching.numbers.test_reader import FONT, photo_with_card

pytestmark = pytest.mark.skipif(not FONT.exists(), reason="fonts-dejavu-core is not installed")


def _gray() -> np.ndarray:
    photo, _ = photo_with_card("40581 فرع", 20)
    gray, _scale = R.gray_for_reading(photo)
    return gray


def test_the_ink_masks_are_each_masks_own_and_share_sauvolas_statistics(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ink_masks`` gives each of ``INK_MASKS`` bit for bit, with one pass of window statistics
    for the two Sauvola masks (they differ only by k) and one for the contrast mask."""
    gray = _gray()
    one_by_one = [make(gray) for make in R.INK_MASKS]
    calls = []
    plain = R._local_mean_std

    def counted(g: np.ndarray, window: int) -> tuple[np.ndarray, np.ndarray]:
        calls.append(window)
        return plain(g, window)

    monkeypatch.setattr(R, "_local_mean_std", counted)
    shared = R.ink_masks(gray)
    assert len(shared) == len(one_by_one) == 3
    for a, b in zip(shared, one_by_one, strict=True):
        assert a.dtype == bool and np.array_equal(a, b)
    assert sorted(calls) == [25, 31]
    assert not np.array_equal(shared[0], shared[2])  # k 0.2 and k 0.1 do differ


def _components_one_by_one(mask: np.ndarray) -> list[tuple[int, slice, slice, int]]:
    """``components``' choice as it was written before, one component at a time."""
    labels, count = ndimage.label(mask, structure=np.ones((3, 3), bool))
    areas = np.bincount(labels.ravel())
    kept = []
    for index, sl in enumerate(ndimage.find_objects(labels), start=1):
        h, w = sl[0].stop - sl[0].start, sl[1].stop - sl[1].start
        side, area = max(h, w), int(areas[index])
        if 3 <= side <= 110 and area >= 6 and area >= 0.06 * h * w and min(h, w) >= 2 or \
                (2 <= side < 3 and area >= 4):
            kept.append((index, sl[0], sl[1], area))
    return kept


def test_components_keeps_the_character_sized_ones_as_one_by_one() -> None:
    mask = np.zeros((300, 400), bool)
    mask[10:12, 10:12] = True        # a 2×2 dot: kept (an Arabic-Indic zero)
    mask[10:11, 20:22] = True        # a 1×2 speck: not
    mask[10, 30] = True              # one pixel: not
    mask[40:80, 10:35] = True        # a character: kept
    mask[100:101, 10:60] = True      # a hair line, one pixel thin: not
    mask[120:122, 10:300] = True     # a long stroke, longer than 110: not
    ii = np.arange(100)
    mask[150 + ii, 150 + ii] = True  # a thin diagonal: too little of its box inked
    mask[150 + ii, 151 + ii] = True
    mask[200:203, 10:13] = True      # 3×3: kept
    mask[200:202, 20:23] = True      # 2×3: kept
    mask[220:330, 300:311] = True    # cut by the border, 80 high: kept
    labels, kept = R.components(mask)
    assert kept == _components_one_by_one(mask)
    assert [k[3] for k in kept] == [4, 1000, 9, 6, 880]
    assert R.components(np.zeros((5, 5), bool))[1] == []
    noisy = np.random.default_rng(1).random((200, 300)) > 0.7
    assert R.components(noisy)[1] == _components_one_by_one(noisy)


def test_a_whole_members_box_is_its_pixels_bounds() -> None:
    """``glyphs`` boxes each whole member by its own pixels (the members' extents are computed all
    at once), in reading order along the line."""
    gray = _gray()
    mask = R.ink_mask(gray)
    labels, kept = R.components(mask)
    seen = 0
    for group in R.lines(kept):
        line = R.glyphs(labels, kept, group)
        if line is None:
            continue
        for label, box, count in zip(line.components, line.boxes, line.pieces, strict=True):
            assert count == 1
            ys, xs = np.nonzero(labels == label)
            assert list(box) == [xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]
            seen += 1
    assert seen >= 5


def test_the_reader_reads_the_card_as_before() -> None:
    """The photo's evidence is the same whichever way the masks are made (``ink_masks`` or each
    of ``INK_MASKS`` in turn)."""
    photo, _ = photo_with_card("40581", 20)
    reader = R.NumberReader()
    found = reader.evidence(photo)
    gray, _scale = R.gray_for_reading(photo)
    line_from = reader.calibration.line_from if reader.calibration is not None else 0.0
    one_by_one = [e for index, make in enumerate(R.INK_MASKS)
                  for e in reader._evidence(index, make(gray), gray, line_from)]
    assert repr(found) == repr(one_by_one)
    assert any(e.text == "40581" for e in found)


def test_member_extents_are_each_members_own() -> None:
    """``member_extents`` (``glyphs`` and ``lines.frame_of``) gives each member's extent along and
    across the line, its pixels' u and its box, as one member at a time would."""
    rng = np.random.default_rng(4)
    pts = [(rng.integers(0, 500, n), rng.integers(0, 300, n)) for n in (1, 7, 40, 3)]
    mean, ux, uy = np.array([250.5, 140.25]), 0.8, -0.6
    ext, us, box = R.member_extents(pts, mean, ux, uy)
    for (x, y), e, u, b in zip(pts, ext, us, box, strict=True):
        along = (x - mean[0]) * ux + (y - mean[1]) * uy
        across = -(x - mean[0]) * uy + (y - mean[1]) * ux
        assert list(e) == [along.min(), along.max(), across.min(), across.max()]
        assert np.array_equal(u, along)
        assert list(b) == [x.min(), y.min(), x.max() + 1, y.max() + 1]
