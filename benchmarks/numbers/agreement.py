"""The glyph reader's readings confirmed by the line recogniser's, the fifth session's rule (a
measurement; the product's rule is ``reader.NumberReader._agree``).

    nice -n 10 python benchmarks/numbers/agreement.py /tmp/athar-numbers \
        --lines /tmp/crnn/E.npz --glyphs /tmp/crnn/glyphs.npz   # crnn_* arrays only; the glyph network only

Reads every photo of both sets with both readers, every candidate kept, then keeps a glyph
reading when its confidence is at least the glyph reader's threshold, or at least ``lo`` and the
line recogniser read the same text over an overlapping box (intersection over the smaller box
≥ 0.3) with confidence at least ``tc``. ``lo`` and ``tc`` are chosen on the dev set (most numbers
found with ≥ 95 % right and ≤ 5 % false suggestions) and applied unchanged to the independent set.
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path
from typing import Any

from athar.matching.numbers.evaluation import overlap, score
from athar.matching.numbers.reader import MODEL_PATH, NumberReader

Rows = list[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]]


def read(folder: Path, reader: NumberReader) -> Rows:
    truth = json.loads((folder / "truth.json").read_text())
    return [
        (row["path"], row["numbers"], [r.as_dict() for r in reader.read_all_path(folder / row["path"])])
        for row in truth["images"]
    ]


def combine(glyph: Rows, line: Rows, hi: float, lo: float, tc: float) -> dict[str, Any]:
    rows = []
    for (path, numbers, gs), (_p, _n, cs) in zip(glyph, line, strict=True):
        kept = [
            g
            for g in gs
            if g["confidence"] >= hi
            or (
                g["confidence"] >= lo
                and any(
                    c["text"] == g["text"] and c["confidence"] >= tc and overlap(g["box"], c["box"]) >= 0.3 for c in cs
                )
            )
        ]
        rows.append((path, numbers, kept))
    return score(rows).rates()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("root", type=Path)
    parser.add_argument("--lines", type=Path, required=True)
    parser.add_argument("--glyphs", type=Path, default=MODEL_PATH, help="the glyph reader's weights and threshold")
    args = parser.parse_args()
    glyph_reader, line_reader = NumberReader(args.glyphs, calibrator=None), NumberReader(args.lines, calibrator=None)
    glyph_reader.classifier.lines = {}  # the glyph reader alone (the product's file holds a line network too)
    hi = glyph_reader.threshold
    sets = {s: (read(args.root / s, glyph_reader), read(args.root / s, line_reader)) for s in ("dev", "independent")}
    grid = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    best = None
    for lo, tc in itertools.product(grid, grid):
        rates = combine(*sets["dev"], hi, lo, tc)
        if (
            rates["returned_right_pct"] >= 95
            and rates["false_suggestion_pct"] <= 5
            and (best is None or rates["found_pct"] > best[2]["found_pct"])
        ):
            best = (lo, tc, rates)
    if best is None:
        print("no setting meets the targets on dev")
        return
    keys = ("found_pct", "returned_right_pct", "read_right_pct", "false_suggestion_pct")
    for name, (glyph, line) in sets.items():
        alone = combine(glyph, line, hi, 2.0, 2.0)
        both = combine(glyph, line, hi, best[0], best[1])
        print(
            f"{name}: glyph reader alone {[alone[k] for k in keys]}; "
            f"with agreement (lo {best[0]}, tc {best[1]}) {[both[k] for k in keys]}"
        )


if __name__ == "__main__":
    main()
