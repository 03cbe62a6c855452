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
