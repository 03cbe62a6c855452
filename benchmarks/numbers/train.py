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

Twenty-ninth session: ``data`` stores each window's ``piece`` flag (a character-wide piece of a
member wider than a character, the windows ``NumberReader(cut_read=…)`` reads); ``fit --no-pieces``
trains on members whole, as the shipped perceptron was; ``fit`` and ``held-out`` (any weights
file's perceptron, split as ``fit`` splits) print held-out accuracy on whole members and how cut
pieces labelled a digit are read (as a digit, as that digit, as no character):

    for part in 0 1 2 3; do nice -n 10 python benchmarks/numbers/train.py data /tmp/nsess/train/p$part.npz --photos 200 --part $part; done
    nice -n 10 python benchmarks/numbers/train.py fit /tmp/nsess/train/p[0-3].npz --seconds 150 --epochs 20 \
        --hidden 384 192 --out /tmp/nsess/train/glyph29.npz     # --no-pieces: the control
    nice -n 10 python benchmarks/numbers/train.py held-out /tmp/nsess/train/p[0-3].npz --model athar/matching/numbers/models/digits.npz
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from athar.matching.numbers.evaluation import score
from athar.matching.numbers.reader import MODEL_PATH, NOISE, PATCH, WORD, Classifier, NumberReader, forward
from athar.matching.numbers.training import accuracy, make_training_set, train


def data(out: Path, photos: int, part: int) -> None:
    x, y, piece = make_training_set(
        photos, seed=29100 + part,
        progress=lambda i: print(f"{i + 1}/{photos}", file=sys.stderr) if i % 50 == 0 else None)
    np.savez_compressed(out, x=(x * 255).round().astype(np.uint8), y=y.astype(np.int16), piece=piece)
    print(f"{len(y)} patches ({int(piece.sum())} cut pieces), classes {np.bincount(y).tolist()} -> {out}")


def load_parts(sources: list[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The mask channel, classes and piece flags of ``data``'s files, and the split: indices used
    for training and held out (10 %, seed 1). Files written before the twenty-ninth session have no
    piece flags: their windows count as whole members."""
    xs, ys, ps = [], [], []
    for source in sources:
        with np.load(source) as d:
            xs.append(d["x"][:, :PATCH * PATCH].astype(np.float32) / 255.0)  # the mask channel
            ys.append(d["y"].astype(int))
            ps.append(d["piece"].astype(bool) if "piece" in d.files else np.zeros(len(d["y"]), bool))
    x, y, piece = np.concatenate(xs), np.concatenate(ys), np.concatenate(ps)
    rng = np.random.default_rng(1)
    order = rng.permutation(len(y))
    return x, y, piece, order[len(y) // 10:], order[: len(y) // 10]


def fit(sources: list[Path], seconds: float, epochs: int, hidden: list[int], out: Path = MODEL_PATH,
        pieces: bool = True) -> None:
    """The perceptron on the mask channel of every window of ``sources``; ``pieces`` False: the cut
    pieces left out of training (what the shipped perceptron was trained on: members whole)."""
    x, y, piece, used, held = load_parts(sources)
    if not pieces:
        used = used[~piece[used]]
    print(f"{len(y)} patches from {len(sources)} parts ({int(piece.sum())} cut pieces), "
          f"classes {np.bincount(y, minlength=22).tolist()}; training on {len(used)}")
    weights = train(x[used], y[used], epochs=epochs, budget_seconds=seconds, hidden=tuple(hidden), batch=128)
    report(weights, x, y, piece, held)
    weights["threshold"] = np.array(0.9, np.float32)
    np.savez_compressed(out, **weights)  # type: ignore[arg-type]
    print(f"wrote {out} ({out.stat().st_size} bytes)")


def report(weights: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray, piece: np.ndarray, held: np.ndarray) -> None:
    """Held-out accuracy on whole members and how cut pieces are read, apart."""
    whole, cut = held[~piece[held]], held[piece[held]]
    print(f"held-out glyph accuracy {accuracy(weights, x[whole], y[whole]):.3f} on {len(whole)} whole members")
    print(piece_report(weights, x[cut], y[cut]))


def held_out(sources: list[Path], model: Path) -> None:
    """``report`` for a weights file's perceptron (``w0 …``) on ``data``'s files, split as ``fit`` splits them."""
    x, y, piece, _used, held = load_parts(sources)
    report(Classifier(model).mlp, x, y, piece, held)


def piece_report(weights: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray) -> str:
    """How a network reads cut pieces: accuracy over all, and of those labelled a digit the share
    read as a digit at all and as no character (the twenty-eighth session's finding: 62 of 69)."""
    if not len(y):
        return "no cut pieces held out"
    read = forward(weights, x).argmax(axis=1)
    digit = y < WORD
    if not digit.any():
        return f"cut pieces: accuracy {(read == y).mean():.3f} on {len(y)}, none labelled a digit"
    return (f"cut pieces: accuracy {(read == y).mean():.3f} on {len(y)}; of the {int(digit.sum())} labelled a digit "
            f"read as a digit {(read[digit] < WORD).mean():.3f}, as that digit {(read[digit] == y[digit]).mean():.3f}, "
            f"as no character {(read[digit] == NOISE).mean():.3f}")


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
    np.savez_compressed(model, **weights)
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
    f.add_argument("--no-pieces", dest="pieces", action="store_false",
                   help="train on members whole only, as the shipped perceptron was (cut pieces held out)")
    h = sub.add_parser("held-out", help="a weights file's held-out accuracy on data files, whole members and cut pieces apart")
    h.add_argument("sources", type=Path, nargs="+")
    h.add_argument("--model", type=Path, default=MODEL_PATH)
    t = sub.add_parser("threshold")
    t.add_argument("folder", type=Path)
    t.add_argument("--model", type=Path, default=MODEL_PATH)
    args = parser.parse_args()
    if args.step == "data":
        data(args.out, args.photos, args.part)
    elif args.step == "fit":
        fit(args.sources, args.seconds, args.epochs, args.hidden, args.out, args.pieces)
    elif args.step == "held-out":
        held_out(args.sources, args.model)
    else:
        threshold(args.folder, args.model)


if __name__ == "__main__":
    main()
