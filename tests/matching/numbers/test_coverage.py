"""The candidate lines the reader cuts (every ink mask): a faded number the two first masks break into
pieces is held whole by a line of the third (reader.faint_ink_mask, seventeenth session)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks" / "numbers"))

import coverage  # noqa: E402

from athar.matching.numbers import line_reader, reader  # noqa: E402
from athar.matching.numbers.synthetic import DEV, make_image  # noqa: E402


def _dev_photo(index: int) -> tuple[np.ndarray, object]:
    rng = np.random.default_rng(coverage.SEEDS[DEV])
    for _ in range(index):
        make_image(rng, DEV, 1000)
    sample = make_image(rng, DEV, 1000)
    buffer = io.BytesIO()
    sample.image.save(buffer, "JPEG", quality=92)
    return np.asarray(Image.open(io.BytesIO(buffer.getvalue())).convert("L"), np.float32) / 255.0, sample


def _held(gray: np.ndarray, sample: object, text: str) -> bool:
    truth = next(t for t in sample.numbers if t.text == text)  # type: ignore[attr-defined]
    number = [coverage.token_of(sample.glyph_labels[g - 1]) for g in truth.glyph_ids]  # type: ignore[attr-defined]
    crops = [t for f in line_reader.frames(gray) for g in (f, f.flipped())
             if (t := coverage.label_line(sample.glyphs, sample.glyph_labels, g))]  # type: ignore[attr-defined]
    return any(coverage._holds(t, number) for t in crops)


def test_a_faded_card_number_is_held_whole_only_with_the_faint_ink_mask(monkeypatch) -> None:
    gray, sample = _dev_photo(7)  # the dev set's eighth photo: 63867 printed on a card
    assert reader.faint_ink_mask in reader.INK_MASKS and line_reader.INK_MASKS == reader.INK_MASKS
    assert _held(gray, sample, "63867")
    monkeypatch.setattr(line_reader, "INK_MASKS", (reader.ink_mask, reader.contrast_mask))
    assert not _held(gray, sample, "63867")
