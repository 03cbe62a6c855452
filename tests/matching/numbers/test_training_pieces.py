"""The twenty-ninth session's tooling (measured, not shipped unless docs/numbers.md says so): the
glyph network's training windows carry a flag for the cut pieces of wide members
(``training.harvest``), which ``benchmarks/numbers/train.py fit --no-pieces`` leaves out, and the
calibrator's evidence is read and fitted with weights other than the shipped ones
(``calibrate.py --weights``), each evidence file naming the weights that read it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from athar.matching.numbers.reader import CLASSES, INK_MASKS, MODEL_PATH, PATCH
from athar.matching.numbers.synthetic import Sample
from athar.matching.numbers.training import harvest
from benchmarks.numbers import calibrate
from benchmarks.numbers import train as train_script


def ring(mask: np.ndarray, x0: int, y0: int = 80, w: int = 30, h: int = 36, t: int = 4) -> None:
    """A "0"-like outline: ink masks find strokes, not the inside of a solid block."""
    mask[y0:y0 + h, x0:x0 + w] = True
    mask[y0 + t:y0 + h - t, x0 + t:x0 + w - t] = False


def merged_pair_line() -> Sample:
    """Five glyphs on a line, the first two touching (one component 60 px wide, 36 high: wider
    than 1.35 line heights, cut into two windows, one per glyph)."""
    glyph_map = np.zeros((200, 420), np.int32)
    for i, x0 in enumerate([100, 130, 175, 220, 265]):
        outline = np.zeros_like(glyph_map, bool)
        ring(outline, x0)
        glyph_map[outline & (glyph_map == 0)] = i + 1
    pixels = np.full((200, 420, 3), 235, np.uint8)
    pixels[glyph_map > 0] = 20
    return Sample(Image.fromarray(pixels), [], glyph_map, ["W3", "W5", "W1", "W7", "W8"])


def test_the_pieces_of_a_merged_pair_are_flagged_and_labelled_as_their_digits():
    x, y, piece = harvest(merged_pair_line())
    assert len(x) == len(y) == len(piece)
    names = [CLASSES[c] for c in y]
    # Each ink mask: the line's members whole (the merged pair is "two glyphs run together"),
    # then the wide member cut, each piece the digit it covers.
    per_mask = ["NOISE", "W1", "W7", "W8", "W3", "W5"]
    assert names == per_mask * len(INK_MASKS)
    assert piece.tolist() == [False, False, False, False, True, True] * len(INK_MASKS)


def parts(tmp_path: Path, with_flags: bool) -> list[Path]:
    """Two data files of 40 random windows: the first with piece flags (every fourth) when asked,
    the second as files were written before the twenty-ninth session."""
    rng = np.random.default_rng(0)
    out = []
    for k, flagged in enumerate([with_flags, False]):
        n = 40
        x = rng.integers(0, 256, (n, 2 * PATCH * PATCH)).astype(np.uint8)
        y = rng.integers(0, len(CLASSES), n).astype(np.int16)
        path = tmp_path / f"p{k}.npz"
        if flagged:
            np.savez_compressed(path, x=x, y=y, piece=np.arange(n) % 4 == 0)
        else:
            np.savez_compressed(path, x=x, y=y)
        out.append(path)
    return out


def test_files_without_piece_flags_count_as_whole_members(tmp_path):
    sources = parts(tmp_path, with_flags=True)
    x, y, piece, used, held = train_script.load_parts(sources)
    assert x.shape == (80, PATCH * PATCH) and len(y) == 80
    assert piece[:40].tolist() == (np.arange(40) % 4 == 0).tolist()
    assert not piece[40:].any()
    assert sorted([*used, *held]) == list(range(80)) and len(held) == 8


@pytest.mark.parametrize("pieces", [True, False])
def test_fit_leaves_the_cut_pieces_out_only_when_asked(tmp_path, monkeypatch, pieces):
    sources = parts(tmp_path, with_flags=True)
    _x, _y, piece, used, _held = train_script.load_parts(sources)
    seen: dict[str, np.ndarray] = {}

    def fake_train(x, y, **_kwargs):
        seen["x"] = x
        return {}

    monkeypatch.setattr(train_script, "train", fake_train)
    monkeypatch.setattr(train_script, "report", lambda *args: None)
    train_script.fit(sources, seconds=1, epochs=1, hidden=[4], out=tmp_path / "out.npz", pieces=pieces)
    expected = used if pieces else used[~piece[used]]
    assert len(seen["x"]) == len(expected)
    assert (len(expected) < len(used)) is not pieces


def test_the_calibrator_is_not_fitted_on_evidence_read_with_other_weights(tmp_path):
    evidence = tmp_path / "dev2950.json"
    evidence.write_text(json.dumps({"weights_sha256": "0" * 64, "cut_read": None, "photos": []}))
    with pytest.raises(SystemExit, match="other weights"):
        calibrate.fit([evidence], tmp_path / "calibrator.json", 0.1, weights=MODEL_PATH)
    assert not (tmp_path / "calibrator.json").exists()


def test_evidence_files_name_the_weights_and_the_cut_that_read_them():
    assert calibrate.provenance(MODEL_PATH, "wide") == {
        "weights_sha256": calibrate.sha256_of(MODEL_PATH), "cut_read": "wide"}
    reader = calibrate.evidence_reader(MODEL_PATH, "wide")
    assert reader.cut_read == "wide" and reader.calibration is None
