"""Issue 29's targets on the dev sets, side by side for athar's reader and plain Tesseract.

    nice -n 10 python benchmarks/numbers/make_sets.py /tmp/athar-numbers --count 150
    nice -n 10 python benchmarks/numbers/run.py /tmp/athar-numbers --readers athar tesseract

Prints, per set and reader: numbers found %, returned readings right %, numbers read right %,
photos with a false suggestion among those holding none %, and photos per CPU-second (this
process's and its children's user+system time, so Tesseract's subprocesses count).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
from collections.abc import Callable
from pathlib import Path
from typing import Any

from athar.matching.numbers.evaluation import score

Reader = Callable[[Path], list[dict[str, Any]]]


def cpu_seconds() -> float:
    """User+system CPU of this process and its waited-for children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def reader(name: str, model: Path | None = None, cut_read: str | None = None,
           calibrator: Path | None = None) -> Reader:
    """The reader called ``name``: ``athar`` (the product's) or ``tesseract`` (the plain baseline);
    ``cut_read``: wide members also read cut (``NumberReader.cut_read``: measured, off in the product);
    ``calibrator``: other weights' own calibrator (fitted on them: ``calibrate.py fit --weights``)."""
    if name == "tesseract":
        from benchmarks.numbers.tesseract_baseline import read as tesseract_read
        return tesseract_read
    from athar.matching.numbers.reader import NumberReader
    # Other weights read with their own calibrator, or without one by their hand-made rule (the
    # shipped calibrator was fitted on the shipped weights, and refuses others).
    if model:
        product = NumberReader(model, calibrator=calibrator, cut_read=cut_read)
    elif calibrator:
        product = NumberReader(calibrator=calibrator, cut_read=cut_read)
    else:
        product = NumberReader(cut_read=cut_read)
    return lambda path: [r.as_dict() for r in product.read_path(path)]


def run_set(folder: Path, read: Reader, limit: int | None) -> dict[str, Any]:
    """Read every photo of a set and score it."""
    truth = json.loads((folder / "truth.json").read_text())
    images = truth["images"][:limit] if limit else truth["images"]
    start = cpu_seconds()
    rows = [(row["path"], row["numbers"], read(folder / row["path"])) for row in images]
    spent = cpu_seconds() - start
    result = score(rows)
    return {**result.rates(), "photos_per_cpu_second": round(len(images) / spent, 2) if spent else None,
            "read_by_category": {k: f"{v[1]}/{v[0]}" for k, v in sorted(result.by_category.items())},
            "misses": result.misses[:8], "wrong": result.wrong[:8]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("root", type=Path)
    parser.add_argument("--sets", nargs="*", default=["dev", "independent"])
    parser.add_argument("--readers", nargs="*", default=["athar", "tesseract"])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--model", type=Path, default=None, help="weights other than the product's")
    parser.add_argument("--cut-read", choices=["digit", "wide"], default=None,
                        help="also read wide members cut: read as a digit, or all but فرع (NumberReader.cut_read; off)")
    parser.add_argument("--calibrator", type=Path, default=None,
                        help="a calibrator fitted on --model's weights (without: their hand-made rule)")
    parser.add_argument("--details", action="store_true", help="print some misses and wrong readings")
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    table = []
    for name in args.readers:
        read = reader(name, args.model, args.cut_read, args.calibrator)
        for style in args.sets:
            result = run_set(args.root / style, read, args.limit)
            table.append({"reader": name, "set": style, **result})
            if args.details:
                print(json.dumps({"reader": name, "set": style, "misses": result["misses"],
                                  "wrong": result["wrong"]}, ensure_ascii=False))
    print(f"{'reader':10} {'set':12} {'found%':>7} {'right%':>7} {'read%':>7} {'falsesug%':>9} {'photo/cpu-s':>11}")
    for row in table:
        print(f"{row['reader']:10} {row['set']:12} {row['found_pct']:7} {row['returned_right_pct']:7} "
              f"{row['read_right_pct']:7} {row['false_suggestion_pct']:9} {row['photos_per_cpu_second']!s:>11}"
              f"   ({row['truths']} numbers, {row['photos']} photos, {row['empty_photos']} without)")
    print(json.dumps([{k: v for k, v in row.items() if k not in ("misses", "wrong")} for row in table]))


if __name__ == "__main__":
    main()
