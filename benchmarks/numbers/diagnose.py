"""Where the number reader loses the numbers it misses, stage by stage, per generator.

    nice -n 10 python benchmarks/numbers/diagnose.py --count 80

Regenerates the dev sets' first photos in memory (same seeds as ``make_sets.py``, so the same
pixels up to the JPEG the files are saved with, which is applied here too) together with the
generator's glyph map, runs the reader's stages and puts every truth number in the first stage
that loses it:

A number reaches a stage when any of the reader's ink masks carries it there:

- ``ink``: one of its digits is mostly not ink (the binarisation lost it);
- ``segmentation``: a digit is not one clean connected component (merged with a neighbour or
  broken into pieces);
- ``grouping``: its digits' components are not all in one line;
- ``recognition``: they are, but no candidate reading over it has the right text;
- ``threshold``: a candidate has the right text but below the threshold;
- ``read``: returned, right.

A number with a right candidate counts as ``threshold`` or ``read`` whatever its components (a
reader may read a number whose digits blur merged: the line recogniser reads whole lines, and a
convolutional glyph network's reader cuts a member wider than a character that reads as none into
character-wide windows; the shipped perceptron's reader cuts nothing, twenty-eighth session); only
numbers without one are put in the first lost stage. ``--cut-read`` reads with
``NumberReader.cut_read`` (measured, off in the product).
"""

from __future__ import annotations

import argparse
import io
import json
from collections import Counter
from typing import Any

import numpy as np
from PIL import Image

from athar.matching.numbers.evaluation import overlap
from athar.matching.numbers.reader import INK_MASKS, NumberReader, components, lines
from athar.matching.numbers.synthetic import DEV, INDEPENDENT, Sample, make_image

SEEDS = {DEV: 2901, INDEPENDENT: 2902}
STAGES = ["ink", "segmentation", "grouping", "recognition", "threshold", "read"]


def _stage_on_mask(sample: Sample, mask: np.ndarray, truth: Any) -> str:
    """How far one ink mask carries a truth number: ink, segmentation, grouping or "lines"."""
    assert sample.glyphs is not None
    labels, kept = components(mask)
    group_of: dict[int, int] = {}
    for g, group in enumerate(lines(kept)):
        for i in group:
            group_of[kept[i][0]] = g
    kept_labels = {k[0] for k in kept}
    comps = []
    for glyph in truth.glyph_ids:
        pixels = sample.glyphs == glyph
        size = int(pixels.sum())
        if size == 0:
            continue
        if mask[pixels].mean() < 0.5:
            return "ink"
        under = labels[pixels]
        under = under[under > 0]
        counts = np.bincount(under)
        best = int(counts.argmax())
        others = sample.glyphs[labels == best]
        others = others[(others > 0) & (others != glyph)]
        if best not in kept_labels or counts[best] < 0.6 * size or len(others) > 0.25 * counts[best]:
            return "segmentation"
        comps.append(best)
    groups = {group_of.get(c, -1) for c in comps}
    return "grouping" if -1 in groups or len(groups) > 1 else "lines"


def diagnose(sample: Sample, reader: NumberReader) -> list[tuple[str, dict[str, Any]]]:
    """(stage, truth) for every number of the sample; a number reaches a stage when any of the
    reader's ink masks carries it there."""
    buffer = io.BytesIO()
    sample.image.save(buffer, "JPEG", quality=92)
    image = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")
    gray = np.asarray(image.convert("L"), np.float32) / 255.0
    masks = [mask(gray) for mask in INK_MASKS]
    candidates = [r.as_dict() for r in reader.read_all(image)]
    order = ["ink", "segmentation", "grouping", "lines"]
    out = []
    for truth in sample.numbers:
        t = truth.as_dict()
        near = [c for c in candidates if overlap(c["box"], t["box"]) >= 0.5]
        right = [c for c in near if c["text"] == t["text"]]
        if right:  # read (or read below the threshold) even where a digit was not one component
            stage = "read" if max(c["confidence"] for c in right) >= reader.threshold else "threshold"
        else:
            stage = max((_stage_on_mask(sample, m, truth) for m in masks), key=order.index)
            if stage == "lines":
                stage = "recognition"
        out.append((stage, t))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=80)
    parser.add_argument("--sets", nargs="*", default=[DEV, INDEPENDENT])
    parser.add_argument("--cut-read", choices=["digit", "wide"], default=None,
                        help="also read wide members cut: read as a digit, or all but فرع (NumberReader.cut_read; off)")
    args = parser.parse_args()
    reader = NumberReader(cut_read=args.cut_read)
    for style in args.sets:
        rng = np.random.default_rng(SEEDS[style])
        stages: Counter[str] = Counter()
        by_kind: dict[str, Counter[str]] = {}
        for _ in range(args.count):
            sample = make_image(rng, style, 1000)
            for stage, t in diagnose(sample, reader):
                stages[stage] += 1
                key = f"{t['carrier']}/{'hand' if t['hand'] else 'print'}/{t['script']}"
                by_kind.setdefault(key, Counter())[stage] += 1
        total = sum(stages.values())
        print(json.dumps({"set": style, "numbers": total,
                          "stages": {s: f"{stages[s]} ({100 * stages[s] / max(total, 1):.0f} %)" for s in STAGES},
                          "by_kind": {k: dict(v) for k, v in sorted(by_kind.items())}}))


if __name__ == "__main__":
    main()
