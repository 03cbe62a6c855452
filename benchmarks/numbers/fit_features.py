"""The twenty-seventh session's calibrator (measured, not shipped): the shipped calibrator's features
(``calibration.FEATURES``) and four more from ``lines.text_fit`` — how near the line recogniser's
columns come to a glyph reading's text, whatever its best path reads there.

A glyph reading the line recogniser's best path reads no number over (``Evidence.line`` 0, no other
text) was as unsure to the calibrator as one it contradicts; ``text_fit`` tells them apart (dev: of
the checked glyph readings whose text fits within 0.01 of the best path, 87 % right; fitting 1–3
short, 43 %; more than 6 short, 3 %). The four features:

- ``fit`` (glyph readings of a line the line recogniser read: ``Evidence.fit``, at most 0), and
  ``fit_near`` (that fit ≥ ``FIT_NEAR``);
- ``lo_other_fit`` (the line recogniser's own readings: the fit of the glyph text it replaces, same
  ink mask, over its place; ``NO_FIT`` when that glyph reading was not weighed) and ``lo_other_near``.

Evidence gathered with ``calibrate.py data/read --fit`` (the product's ``NumberReader.evidence(fit=
True)``); the logistic regression, its held-out photos and the threshold rule are ``calibrate.py``'s::

    for s in 2950 2951 2952; do python benchmarks/numbers/calibrate.py data /tmp/n27/cal1/dev$s.json \\
        --photos 600 --style dev --seed $s --line-from 0 --fit; done
    python benchmarks/numbers/calibrate.py read /tmp/athar-numbers/dev /tmp/n27/cal1/dev.json --line-from 0 --fit
    python benchmarks/numbers/fit_features.py fit /tmp/n27/cal1/dev295?.json --out /tmp/n27/cal1/fit.json
    python benchmarks/numbers/fit_features.py threshold /tmp/n27/cal1/dev.json --model /tmp/n27/cal1/fit.json --right 96 --write
    python benchmarks/numbers/fit_features.py score /tmp/athar-numbers --model /tmp/n27/cal1/fit.json

``score`` reads each set's photos with the product's evidence and scores the suggestions as
``run.py`` does (no speed: ``run.py`` on the reader patched to weigh the features gave the same
figures, docs/numbers.md, twenty-seventh session).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from athar.matching.numbers.calibration import (
    FEATURES,
    GLYPH,
    LINE,
    NO_FIT,
    Evidence,
    calibration_features,
    sha256_of,
)
from athar.matching.numbers.evaluation import overlap, score
from athar.matching.numbers.reader import MODEL_PATH, NumberReader, one_per_place
from benchmarks.numbers.calibrate import auc, best_threshold, logistic, loss, photo_evidence
from benchmarks.numbers.calibrate import table as calibrate_table

FIT_FEATURES = ("fit", "fit_near", "lo_other_fit", "lo_other_near")
ALL_FEATURES = (*FEATURES, *FIT_FEATURES)
FIT_NEAR = -1.0  # a fit at least this: the line recogniser's columns all but read the text
LINE_FROM = 0.0  # the shipped calibrator's lines (every line the glyph network reads a number on)


def other_fit(e: Evidence, found: Sequence[Evidence]) -> float:
    """The fit of the glyph reading a line recogniser's reading replaces (``other_text`` over its
    place, same ink mask), at most 0; ``NO_FIT`` when no weighed glyph reading of that text is there."""
    fits = [min(f.fit, 0.0) for f in found if f.source == GLYPH and f.mask == e.mask and f.checked
            and f.text == e.other_text and overlap(f.box, e.box) >= 0.3]
    return max(fits, default=NO_FIT)


def fit_features(found: Sequence[Evidence]) -> np.ndarray:
    """``FIT_FEATURES`` of each reading of one photo (0 where they do not apply)."""
    x = np.zeros((len(found), len(FIT_FEATURES)))
    for i, e in enumerate(found):
        if e.source == GLYPH and e.checked:
            fit = min(max(e.fit, NO_FIT), 0.0)
            x[i, 0], x[i, 1] = fit, float(fit >= FIT_NEAR)
        elif e.source == LINE and e.other_text:
            fit = other_fit(e, found)
            x[i, 2], x[i, 3] = fit, float(fit >= FIT_NEAR)
    return x


def features(found: Sequence[Evidence]) -> np.ndarray:
    """The calibrator's inputs (``ALL_FEATURES``) for the readings of one photo."""
    return np.concatenate([calibration_features(found), fit_features(found)], axis=1)


def table(sources: list[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, labels and photo numbers of every reading of these evidence files."""
    return calibrate_table(sources, LINE_FROM, featurize=features)


def probabilities(found: Sequence[Evidence], coef: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(features(found) @ coef, -30, 30)))


def suggestions(found: Sequence[Evidence], coef: np.ndarray) -> list[dict[str, Any]]:
    """Every place's most probable reading (``NumberReader.read_all``), whatever its probability."""
    chances = probabilities(found, coef) if found else np.zeros(0)
    kept = one_per_place([(e.text, float(c), e.box, e.kind) for e, c in zip(found, chances, strict=True)])
    return [{"text": t, "confidence": c, "box": b, "kind": k} for t, c, b, k in kept]


def fit(sources: list[Path], out: Path, l2: float) -> None:
    """``calibrate.py fit`` with the four more features; both held-out figures printed."""
    x, y, photo = table(sources)
    rng = np.random.default_rng(0)
    held = np.isin(photo, rng.permutation(int(photo.max()) + 1)[: (int(photo.max()) + 1) // 5])
    print(f"{len(y)} readings ({int(y.sum())} right) from {int(photo.max()) + 1} photos; {int(held.sum())} held out")
    base = list(range(len(FEATURES)))
    for name, columns in (("shipped features", base), ("with the fit", list(range(len(ALL_FEATURES))))):
        w = logistic(x[~held][:, columns], y[~held], l2)
        p = 1 / (1 + np.exp(-(x[held][:, columns] @ w)))
        print(f"{name}: held-out log loss {loss(p, y[held]):.4f}, AUC {auc(p, y[held]):.4f}")
    w = logistic(x, y, l2)
    for name, v in zip(ALL_FEATURES, w, strict=True):
        print(f"  {name:20} {v:+.3f}")
    out.write_text(json.dumps({"features": list(ALL_FEATURES), "coefficients": [float(v) for v in w],
                               "threshold": 0.0, "weights_sha256": sha256_of(MODEL_PATH)}, indent=1) + "\n")
    print(f"wrote {out}")


def load(model: Path) -> tuple[np.ndarray, float]:
    data = json.loads(model.read_text())
    if tuple(data["features"]) != ALL_FEATURES:
        raise ValueError(f"{model} weighs other features than {ALL_FEATURES}")
    return np.asarray(data["coefficients"], float), float(data["threshold"])


def threshold(source: Path, model: Path, target: float, write: bool) -> None:
    """``calibrate.py threshold``: the most found at ≥ ``target`` % right and ≤ 5 % false suggestions."""
    coef, _ = load(model)
    rows = json.loads(source.read_text())["photos"]
    every = [suggestions(photo_evidence(row, LINE_FROM), coef) for row in rows]
    best = best_threshold(rows, every, target)
    if write and best is not None:
        data = json.loads(model.read_text())
        data["threshold"] = round(best[0], 3)
        model.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote threshold {data['threshold']:.3f} to {model}")


def score_sets(root: Path, model: Path, sets: list[str]) -> None:
    """Each set's photos read with the product's evidence (``fit=True``), scored as ``run.py`` does."""
    coef, cut = load(model)
    reader = NumberReader(MODEL_PATH, calibrator=None)
    for name in sets:
        rows = []
        for row in json.loads((root / name / "truth.json").read_text())["images"]:
            with Image.open(root / name / row["path"]) as image:
                found = reader.evidence(image, LINE_FROM, fit=True)
            rows.append((row["path"], row["numbers"], [c for c in suggestions(found, coef) if c["confidence"] >= cut]))
        result = score(rows)
        print(json.dumps({"set": name, **result.rates(), "wrong": result.wrong}, ensure_ascii=False), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    f = sub.add_parser("fit")
    f.add_argument("sources", type=Path, nargs="+")
    f.add_argument("--out", type=Path, required=True)
    f.add_argument("--l2", type=float, default=0.1)
    t = sub.add_parser("threshold")
    t.add_argument("source", type=Path)
    t.add_argument("--model", type=Path, required=True)
    t.add_argument("--right", type=float, default=96.0)
    t.add_argument("--write", action="store_true")
    s = sub.add_parser("score")
    s.add_argument("root", type=Path)
    s.add_argument("--model", type=Path, required=True)
    s.add_argument("--sets", nargs="+", default=["dev", "independent", "independent_2903"])
    args = parser.parse_args()
    if args.step == "fit":
        fit(args.sources, args.out, args.l2)
    elif args.step == "threshold":
        threshold(args.source, args.model, args.right, args.write)
    else:
        score_sets(args.root, args.model, args.sets)


if __name__ == "__main__":
    main()
