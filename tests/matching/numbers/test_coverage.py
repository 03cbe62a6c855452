"""The candidate lines the reader cuts (every ink mask): a faded number the two first masks break into
pieces is held whole by a line of the third (reader.faint_ink_mask, seventeenth session)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks" / "numbers"))

import coverage  # noqa: E402

from athar.matching.numbers import line_reader, reader  # noqa: E402
from athar.matching.numbers.synthetic import DEV  # noqa: E402


def test_a_card_number_is_held_whole_only_with_the_faint_ink_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(coverage.SEEDS[DEV])
    for _ in range(7):
        coverage.photo(rng, DEV)
    gray, sample = coverage.photo(rng, DEV)  # the dev set's eighth photo: 63867 printed on a card
    which = [t.text for t in sample.numbers].index("63867")
    assert reader.faint_ink_mask in reader.INK_MASKS and line_reader.INK_MASKS == reader.INK_MASKS
    assert coverage.held(gray, sample)[0][which]
    monkeypatch.setattr(line_reader, "INK_MASKS", (reader.ink_mask, reader.contrast_mask))
    assert not coverage.held(gray, sample)[0][which]
