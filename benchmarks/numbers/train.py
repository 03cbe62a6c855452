"""Train the number reader's glyph classifier and choose its threshold on the dev set.

    nice -n 10 python benchmarks/numbers/train.py data /tmp/athar-numbers/p0.npz --photos 250 --part 0
    nice -n 10 python benchmarks/numbers/train_cnn.py /tmp/athar-numbers/p*.npz --seconds 1200
    nice -n 10 python benchmarks/numbers/train.py threshold /tmp/athar-numbers/dev

``data`` renders training photos (``synthetic.TRAINING`` fonts and damage, seed 29100 + part;
never the dev sets' seeds) and cuts out every window the reader classifies, as the reader does,
under each of its ink masks: two channels (the component's mask, the grey ink darkness), members
whole and wide members also cut into character-wide pieces; ``train_cnn.py`` trains the
convolutional network the reader uses (torch, training only); ``fit`` trains the older perceptron
on the mask channel alone (numpy, CPU, bounded by ``--seconds`` of this process's CPU time, seed 0;
10 % of patches held out, seed 1) — both write ``athar/matching/numbers/models/digits.npz``;
``threshold`` reads the dev set with every candidate kept and stores in the same file the lowest
confidence threshold at which ≥ 95 % of returned readings are right and ≤ 5 % of number-free photos
get a suggestion (the most numbers found under both).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from athar.matching.numbers.evaluation import score
from athar.matching.numbers.reader import MODEL_PATH, PATCH, NumberReader
from athar.matching.numbers.training import accuracy, make_training_set, train


def data(out: Path, photos: int, part: int) -> None:
    x, y = make_training_set(photos, seed=29100 + part,
                             progress=lambda i: print(f"{i + 1}/{photos}", file=sys.stderr) if i % 50 == 0 else None)
    np.savez_compressed(out, x=(x * 255).round().astype(np.uint8), y=y.astype(np.int16))
    print(f"{len(y)} patches, classes {np.bincount(y).tolist()} -> {out}")


def fit(sources: list[Path], seconds: float, epochs: int, hidden: list[int], out: Path = MODEL_PATH) -> None:
    xs, ys = [], []
    for source in sources:
        with np.load(source) as d:
            xs.append(d["x"][:, :PATCH * PATCH].astype(np.float32) / 255.0)  # the mask channel
            ys.append(d["y"].astype(int))
    x, y = np.concatenate(xs), np.concatenate(ys)
    rng = np.random.default_rng(1)
    order = rng.permutation(len(y))
    held = order[: len(y) // 10]
    used = order[len(y) // 10:]
    print(f"{len(y)} patches from {len(sources)} parts, classes {np.bincount(y, minlength=22).tolist()}")
    weights = train(x[used], y[used], epochs=epochs, budget_seconds=seconds, hidden=tuple(hidden), batch=128)
    print(f"held-out glyph accuracy {accuracy(weights, x[held], y[held]):.3f} on {len(held)} patches")
    weights["threshold"] = np.array(0.9, np.float32)
    np.savez_compressed(out, **weights)  # type: ignore[arg-type]
    print(f"wrote {out} ({out.stat().st_size} bytes)")


def threshold(folder: Path, model: Path = MODEL_PATH) -> None:
    truth = json.loads((folder / "truth.json").read_text())
    reader = NumberReader(model, calibrator=None)  # the threshold of the weights' own rule
    every = [(row["path"], row["numbers"], [r.as_dict() for r in reader.read_all_path(folder / row["path"])])
             for row in truth["images"]]
    best = None
    for t in [*np.arange(0.30, 0.99, 0.02), 0.99, 0.995, 0.998]:
        rows = [(p, numbers, [r for r in readings if r["confidence"] >= t]) for p, numbers, readings in every]
        rates = score(rows).rates()
        print(f"threshold {t:.2f}: {rates}")
        ok = rates["returned_right_pct"] >= 95 and rates["false_suggestion_pct"] <= 5
        if ok and (best is None or rates["found_pct"] > best[1]["found_pct"]):
            best = (float(t), rates)
    chosen = best[0] if best else 0.98
    with np.load(model) as d:
        weights = dict(d)
    weights["threshold"] = np.array(chosen, np.float32)
    np.savez_compressed(model, **weights)  # type: ignore[arg-type]
    print(f"chosen threshold {chosen:.2f}: {best[1] if best else 'no threshold meets both targets'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="step", required=True)
    d = sub.add_parser("data")
    d.add_argument("out", type=Path)
    d.add_argument("--photos", type=int, default=1000)
    d.add_argument("--part", type=int, default=0)
    f = sub.add_parser("fit")
    f.add_argument("sources", type=Path, nargs="+")
    f.add_argument("--seconds", type=float, default=600)
    f.add_argument("--epochs", type=int, default=30)
    f.add_argument("--hidden", type=int, nargs="+", default=[256, 128])
    f.add_argument("--out", type=Path, default=MODEL_PATH)
    t = sub.add_parser("threshold")
    t.add_argument("folder", type=Path)
    t.add_argument("--model", type=Path, default=MODEL_PATH)
    args = parser.parse_args()
    if args.step == "data":
        data(args.out, args.photos, args.part)
    elif args.step == "fit":
        fit(args.sources, args.seconds, args.epochs, args.hidden, args.out)
    else:
        threshold(args.folder, args.model)


if __name__ == "__main__":
    main()
