"""How the glyph reader's and the line recogniser's readings are combined, measured on the dev sets
(seventh session; a measurement, the product's rule is ``reader.NumberReader._agree``).

    nice -n 10 python benchmarks/numbers/rules.py /tmp/athar-numbers --model /tmp/n7/big.npz

Reads every photo of both sets once with the given weights (a glyph network and ``crnn_*`` arrays),
keeping, for every line the glyph reader reads, its glyph readings and — where one of them is at
least ``--floor`` sure — the line recogniser's readings of the same line. Then, for every rule
(``from``: the glyph confidence from which a line is checked; ``doubt``: ``AGREE_DOUBT``; ``alone``:
the factor on a line recogniser's reading of a checked line kept as a candidate of its own, 0 for
none; ``partial``: the factor on a glyph reading that a longer digit run of the line cut wider
contains, 1 for not checked — eleventh session), sweeps the threshold as ``train.py threshold`` does. The rule and threshold are chosen on
the dev set only (most found with ≥ 95 % right, or ``--right``, and ≤ 5 % false suggestions) and the independent
set is scored with them unchanged.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from athar.matching.numbers.evaluation import score
from athar.matching.numbers.reader import Candidate, NumberReader, agreed, one_per_place


class Recorder(NumberReader):
    """The product's reader, recording each glyph line's readings and the line recogniser's."""

    def __init__(self, model: Path, floor: float) -> None:
        super().__init__(model, calibrator=None)  # the hand-made rule is what this searches
        self.floor = floor
        self.records: list[tuple[list[Candidate], list[Candidate], list[tuple[str, list[int]]]]] = []

    def _agree(self, gray, labels, kept, group, readings):  # type: ignore[no-untyped-def]
        from athar.matching.numbers import lines as L
        from athar.matching.numbers.line_reader import digit_runs, points, read_frames

        frame = L.frame_of(points(labels, kept, group))
        line = read_frames(gray, [frame], self.classifier.lines) if frame is not None else []
        runs = digit_runs(gray, frame, self.classifier.lines) if frame is not None else []
        self.records.append((list(readings), line, runs))
        return []  # recorded; not returned

    def photo(self, path: Path) -> list[tuple[list[Candidate], list[Candidate], list[tuple[str, list[int]]]]]:
        self.records = []
        self.agree_from = self.floor
        with Image.open(path) as image:
            rest = self.read_all(image)  # lines with no reading at the floor: glyph readings only
        return [*self.records, ([(r.text, r.confidence, r.box, r.kind) for r in rest], [], [])]


def combine(records: list[tuple[list[Candidate], list[Candidate], list[tuple[str, list[int]]]]], start: float,
            doubt: float, alone: float, partial: float = 1.0, unconfirmed: float = 1.0) -> list[dict[str, Any]]:
    """The photo's readings under one rule, as the product combines them (``reader.agreed``: only
    lines with a glyph reading at ``start`` are checked) and keeps one per place."""
    found: list[Candidate] = []
    for glyphs, line, runs in records:
        checked = any(g >= start for _t, g, _b, _k in glyphs)
        found.extend(agreed(glyphs, line, start, doubt, alone, runs if partial < 1 else None, partial, unconfirmed)
                     if checked else glyphs)
    return [{"text": t, "confidence": c, "box": b, "kind": k} for t, c, b, k in one_per_place(found)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("root", type=Path)
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--floor", type=float, default=0.1)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--right", type=float, default=95.0,
                        help="the share of returned readings right that the rule must keep on dev (%%)")
    parser.add_argument("--write", action="store_true", help="store the rule and threshold chosen on dev in the file")
    args = parser.parse_args()
    reader = Recorder(args.model, args.floor)
    product_rule = (reader.agree_from, reader.agree_doubt, reader.agree_alone, reader.agree_partial,
                    reader.agree_unconfirmed, reader.threshold)
    sets = {}
    for name in ("dev", "independent"):
        truth = json.loads((args.root / name / "truth.json").read_text())["images"][: args.limit]
        start = time.process_time()
        sets[name] = [(row["path"], row["numbers"], reader.photo(args.root / name / row["path"])) for row in truth]
        print(f"{name}: read in {time.process_time() - start:.0f} CPU-s", flush=True)
    thresholds = [*np.arange(0.30, 0.99, 0.02), 0.99, 0.995, 0.998]
    best = None
    for start_, doubt, alone, partial, unconfirmed in itertools.product(
        [0.1, 0.2, 0.3, 0.5], [1.0, 0.5, 0.3, 0.1], [0.0, 0.8, 0.9, 1.0], [1.0, 0.5, 0.0], [1.0, 0.9]
    ):
        if start_ < args.floor:
            continue
        combined = [(p, n, combine(recs, start_, doubt, alone, partial, unconfirmed)) for p, n, recs in sets["dev"]]
        for t in thresholds:
            rates = score([(p, n, [r for r in rs if r["confidence"] >= t]) for p, n, rs in combined]).rates()
            if rates["returned_right_pct"] >= args.right and rates["false_suggestion_pct"] <= 5 and (
                best is None or rates["found_pct"] > best[1]["found_pct"]
            ):
                best = ((start_, doubt, alone, partial, unconfirmed, float(t)), rates)
        print(f"from {start_} doubt {doubt} alone {alone} partial {partial} unconfirmed {unconfirmed}: "
              f"best so far {best}", flush=True)
    if best is None:
        print("no rule meets the targets on dev")
        return
    (start_, doubt, alone, partial, unconfirmed, t) = best[0]
    for name, rows in sets.items():
        combined = [(p, n, [r for r in combine(recs, start_, doubt, alone, partial, unconfirmed) if r["confidence"] >= t])
                    for p, n, recs in rows]
        print(f"{name} with from {start_} doubt {doubt} alone {alone} partial {partial} unconfirmed {unconfirmed} "
              f"threshold {t:.3f}: {score(combined).rates()}")
    f0, d0, a0, p0, u0, t0 = product_rule
    for name, rows in sets.items():  # the file's own rule and threshold, for comparison
        combined = [(p, n, [r for r in combine(recs, f0, d0, a0, p0, u0) if r["confidence"] >= t0])
                    for p, n, recs in rows]
        print(f"{name} with the file's rule (from {f0}, doubt {d0}, alone {a0}, partial {p0}, unconfirmed {u0}, "
              f"threshold {t0:.3f}): {score(combined).rates()}")
    if args.write:
        with np.load(args.model) as d:
            weights = dict(d)
        weights.update(threshold=np.array(t, np.float32), agree_from=np.array(start_, np.float32),
                       agree_doubt=np.array(doubt, np.float32), agree_alone=np.array(alone, np.float32),
                       agree_partial=np.array(partial, np.float32),
                       agree_unconfirmed=np.array(unconfirmed, np.float32))
        np.savez_compressed(args.model, **weights)  # type: ignore[arg-type]
        print(f"wrote the rule and threshold to {args.model}")


if __name__ == "__main__":
    main()
