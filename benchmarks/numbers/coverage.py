"""How many written numbers some candidate line of the reader holds whole — before any network reads.

    nice -n 10 python benchmarks/numbers/coverage.py --count 60 [--variant NAME ...]

Regenerates the dev and independent sets' first photos in memory (the seeds of ``make_sets.py``, the
JPEG they are saved with applied too) with the generator's glyph map, cuts every candidate line as
the reader does (``line_reader.frames``: every ink mask, both directions) and counts the truth numbers
whose digits some crop holds whole and in order (``crnn_data.label_line``: a glyph cut by the crop
makes it ambiguous, so the count is strict). No recogniser can read a number no crop holds: this is
the ceiling the masks and the line grouping set (fifteenth session: 52 of the 286 dev numbers).

``--variant`` replaces the product's ink masks (``reader.INK_MASKS``) by one of the variants the
seventeenth session compared (the two masks before it, plus a third): the third mask was chosen on
the dev set's count alone, then on fewer candidate lines.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image
from scipy import ndimage

sys.path.insert(0, str(Path(__file__).parent))
from crnn_data import label_line, token_of  # noqa: E402

from athar.matching.numbers import line_reader  # noqa: E402
from athar.matching.numbers import reader as R  # noqa: E402
from athar.matching.numbers.synthetic import DEV, INDEPENDENT, Sample, make_image  # noqa: E402

SEEDS = {DEV: 2901, INDEPENDENT: 2902}
Mask = Callable[[np.ndarray], np.ndarray]
TWO: tuple[Mask, ...] = (R.ink_mask, R.contrast_mask)


def _closed(mask: Mask) -> Mask:
    return lambda gray: ndimage.binary_closing(mask(gray), structure=np.ones((3, 3), bool))


def _sauvola(window: int, k: float) -> Mask:
    return lambda gray: R.ink_mask(gray, window=window, k=k)


def _contrast(window: int, k: float) -> Mask:
    return lambda gray: R.contrast_mask(gray, window=window, k=k)


VARIANTS: dict[str, tuple[Mask, ...]] = {
    "product": R.INK_MASKS,
    "two": TWO,  # before the seventeenth session
    "closed_ink": (*TWO, _closed(R.ink_mask)),
    "closed_contrast": (*TWO, _closed(R.contrast_mask)),
    "sauvola_51_0.1": (*TWO, _sauvola(51, 0.1)),
    "sauvola_51_0.05": (*TWO, _sauvola(51, 0.05)),
    "sauvola_31_0.1": (*TWO, _sauvola(31, 0.1)),  # = reader.faint_ink_mask
    "contrast_41_0.4": (*TWO, _contrast(41, 0.4)),
    "blurred_ink": (*TWO, lambda gray: R.ink_mask(ndimage.gaussian_filter(gray, 1.5))),
    # a fourth beside the product's three
    "product+contrast_41_0.4": (*R.INK_MASKS, _contrast(41, 0.4)),
    "product+sauvola_51_0.1": (*R.INK_MASKS, _sauvola(51, 0.1)),
    "product+closed_contrast": (*R.INK_MASKS, _closed(R.contrast_mask)),
}


def _holds(tokens: list[int], number: list[int]) -> bool:
    n = len(number)
    return any(tokens[i:i + n] == number for i in range(len(tokens) - n + 1))


def photo(rng: np.random.Generator, style: str) -> tuple[np.ndarray, Sample]:
    """The set's next photo as its file holds it (the JPEG of ``make_sets.py``), grey, and its truth."""
    sample = make_image(rng, style, 1000)
    buffer = io.BytesIO()
    sample.image.save(buffer, "JPEG", quality=92)
    return np.asarray(Image.open(io.BytesIO(buffer.getvalue())).convert("L"), np.float32) / 255.0, sample


def held(gray: np.ndarray, sample: Sample) -> tuple[list[bool], int]:
    """(for each truth number, whether some candidate crop holds it whole; how many lines were cut)."""
    assert sample.glyphs is not None
    frames = line_reader.frames(gray)
    crops = [t for f in frames for g in (f, f.flipped()) if (t := label_line(sample.glyphs, sample.glyph_labels, g))]
    numbers = ([token_of(sample.glyph_labels[g - 1]) for g in truth.glyph_ids] for truth in sample.numbers)
    return [any(_holds(t, number) for t in crops) for number in numbers], len(frames)


def coverage(style: str, count: int) -> dict[str, float]:
    """Numbers held whole by some candidate crop, of the first ``count`` photos of a set."""
    rng = np.random.default_rng(SEEDS[style])
    total = kept = lines = 0
    start = time.process_time()
    for _ in range(count):
        found, cut = held(*photo(rng, style))
        total, kept, lines = total + len(found), kept + sum(found), lines + cut
    return {"numbers": total, "held": kept, "held_pct": round(100 * kept / max(total, 1), 1),
            "lines_per_photo": round(lines / count, 1), "cpu_s": round(time.process_time() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--variant", nargs="*", default=["product"], choices=sorted(VARIANTS))
    args = parser.parse_args()
    for variant in args.variant:
        line_reader.INK_MASKS = VARIANTS[variant]  # the candidate lines' masks (line_reader.candidate_lines)
        for style in (DEV, INDEPENDENT):
            print(json.dumps({"variant": variant, "set": style, **coverage(style, args.count)}), flush=True)


if __name__ == "__main__":
    main()
