"""The line recogniser's training labels (benchmarks/numbers/crnn_data.py): a line turned upside
down is labelled with what it then shows, never as "no text" (fifteenth session: taught so, an
upright 0, 1, 6, 8, 9, ٠, ١, ٥, ٧ or ٨ was learnt as blank and dropped), and a rendered line whose
damage hid its text is not kept."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks" / "numbers"))

import crnn_data  # noqa: E402

from athar.matching.numbers import lines as L  # noqa: E402

W = {d: 1 + d for d in range(10)}  # Western digit d's token
A = {d: 11 + d for d in range(10)}  # Arabic-Indic digit d's token


def test_an_upside_down_line_reads_its_symmetric_digits_reversed_and_the_rest_as_other():
    # 4880 turned round shows 0 8 8 and an upside-down 4 (no digit)
    assert crnn_data.upside_down([W[4], W[8], W[8], W[0]]) == [W[0], W[8], W[8], L.OTHER]
    # 6 and 9 swap; ٧ and ٨ swap; ٩ turned round is a Western 6; the branch word is no digit
    assert crnn_data.upside_down([W[6], W[9], L.WORD]) == [L.OTHER, W[6], W[9]]
    assert crnn_data.upside_down([A[7], A[8], A[9], A[2]]) == [L.OTHER, W[6], A[7], A[8]]


def test_no_rendered_line_with_text_is_taught_as_no_text():
    rng = np.random.default_rng(5)
    items = [item for item in (crnn_data.rendered(rng, legible=None) for _ in range(60)) if item is not None]
    assert len(items) > 40
    assert all(tokens for _crop, tokens in items)  # the upside-down copies too


def test_a_line_whose_damage_hid_its_text_is_dropped():
    clean = np.zeros((32, 64), np.float32)
    clean[8:24, 10:20] = 1.0
    assert crnn_data.shows(clean, clean) > 0.99
    noise = np.random.default_rng(0).random((32, 64)).astype(np.float32)
    assert crnn_data.shows(noise, clean) < 0.2
    rng = np.random.default_rng(5)
    kept = [crnn_data.rendered(rng, legible=1.01) for _ in range(20)]
    assert all(item is None for item in kept)  # nothing shows its text better than perfectly


def test_training_and_dev_fonts_share_no_family_with_the_independent_set():
    # The independent set's hands and prints must stay unseen (eighteenth session: more training hands).
    from athar.matching.numbers.synthetic import DEV, FONTS, INDEPENDENT, TRAINING

    independent = [f for kind in ("print", "hand") for f in FONTS[INDEPENDENT][kind]]
    families = {"liberation", "sjfonts", "tomsontalks", "fonts-hosny-amiri", "scheherazade"}
    assert {f.split("/")[1] for f in independent} <= families | {"urw-base35", "fonts-arabeyes"}
    theirs = ("NimbusSans", "NimbusRoman", "Z003", "ae_Furat", "ae_Granada")  # its files in folders training shares
    for style in (TRAINING, DEV):
        for font in (f for kind in ("print", "hand") for f in FONTS[style][kind]):
            assert font not in independent
            assert font.split("/")[1] not in families, font
            assert not font.split("/")[-1].startswith(theirs), font


def test_another_hand_keeps_the_old_draws_when_off_and_labels_its_lines_when_on():
    # Twenty-sixth session: ``render --pen`` writes handwritten lines again (pen_warp). Off (pen 0),
    # the draws and so the data of earlier sessions' seeds are unchanged.
    rng_old, rng_new = np.random.default_rng(7), np.random.default_rng(7)
    old = [crnn_data.rendered(rng_old) for _ in range(8)]
    new = [crnn_data.rendered(rng_new, pen=0.0, hand_share=0.5) for _ in range(8)]
    for a, b in zip(old, new, strict=True):
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            assert np.array_equal(a[0], b[0]) and a[1] == b[1]
    rng = np.random.default_rng(3)
    items = [crnn_data.rendered(rng, legible=None, pen=1.0, hand_share=1.0) for _ in range(30)]
    items = [item for item in items if item is not None]
    assert len(items) > 20
    assert all(tokens for _crop, tokens in items)
    assert all(crop.shape[0] == 32 and crop.shape[1] >= 8 for crop, _ in items)


def test_pen_warp_moves_each_glyph_with_its_ink():
    rng = np.random.default_rng(0)
    layer = np.zeros((60, 120), np.float32)
    ids = np.zeros((60, 120), np.int16)
    layer[20:40, 20:26] = 1.0  # a stroke for glyph 1, another for glyph 2
    ids[20:40, 20:26] = 1
    layer[20:40, 80:86] = 1.0
    ids[20:40, 80:86] = 2
    for _ in range(10):
        warped, warped_ids = crnn_data.pen_warp(layer, ids, 24, rng)
        assert warped.shape == layer.shape and warped.dtype == np.float32
        xs1 = np.nonzero(warped_ids == 1)[1]
        xs2 = np.nonzero(warped_ids == 2)[1]
        assert len(xs1) and len(xs2) and xs1.mean() < xs2.mean()  # the order along the line stays
        assert warped[warped_ids > 0].mean() > 0.3  # the glyphs' pixels still hold ink
