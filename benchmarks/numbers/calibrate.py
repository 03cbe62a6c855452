"""The number reader's calibrated confidence (``athar/matching/numbers/calibration.py``): how the
shipped calibrator (``models/calibrator.json``) was made, and the measurements that led to it
(docs/numbers.md "Figures"). P(reading right) from a reading's evidence, a logistic regression
fitted on photos drawn like dev's, its threshold chosen on dev.

Twenty-fourth session (shipped): the line recogniser's own readings are candidates with their own
evidence (``calibration.LINE_FEATURES``); the lines it reads (``--line-from``: those whose best glyph
reading is at least that sure, −1 every line) are chosen on dev and stored in the calibrator. ``fit``
and ``threshold`` take evidence gathered on more lines and ``restrict`` it (a preview: the line
recogniser's batches pad crops to the widest, so a line's reading depends a little on the lines read
with it; the shipped calibrator was fitted on evidence gathered with its own ``--line-from``):

    for s in 2950 2951 2952; do nice -n 10 python benchmarks/numbers/calibrate.py data /tmp/n24/cal0/dev$s.json --photos 600 --style dev --seed $s --line-from 0; done
    nice -n 10 python benchmarks/numbers/calibrate.py fit /tmp/n24/cal0/dev295?.json --l2 0.1 --line-from 0 --out /tmp/n24/cal0/calibrator.json
    nice -n 10 python benchmarks/numbers/calibrate.py read /tmp/athar-numbers/dev /tmp/n24/cal0/dev.json --line-from 0
    nice -n 10 python benchmarks/numbers/calibrate.py threshold /tmp/n24/cal0/dev.json --model /tmp/n24/cal0/calibrator.json --right 96 --write
    cp /tmp/n24/cal0/calibrator.json athar/matching/numbers/models/calibrator.json

Twenty-seventh session (measured, not shipped): ``data`` and ``read`` with ``--fit`` keep each glyph
reading's ``lines.text_fit`` (``NumberReader.evidence(fit=True)``), which ``fit_features.py`` weighs
with four more features (docs/numbers.md, twenty-seventh session).

Twenty-ninth session (measured; docs/numbers.md): ``data``, ``read``, ``fit`` and ``threshold`` take
``--weights`` (weights other than the shipped ones: here the perceptron retrained with cut pieces),
``data`` and ``read`` ``--cut-read`` (the evidence of a reader that cuts wide members); each evidence
file names the weights' sha256 and the cut it was read with, and ``fit`` refuses files read with
other weights:

    for s in 2950 2951 2952; do nice -n 10 python benchmarks/numbers/calibrate.py data /tmp/nsess/cal/dev$s.json --photos 600 --style dev --seed $s --line-from 0 --weights /tmp/nsess/new29.npz --cut-read wide; done
    nice -n 10 python benchmarks/numbers/calibrate.py read /tmp/athar-numbers/dev /tmp/nsess/cal/dev.json --line-from 0 --weights /tmp/nsess/new29.npz --cut-read wide
    nice -n 10 python benchmarks/numbers/calibrate.py fit /tmp/nsess/cal/dev295?.json --l2 0.1 --line-from 0 --weights /tmp/nsess/new29.npz --out /tmp/nsess/cal/calibrator.json
    nice -n 10 python benchmarks/numbers/calibrate.py threshold /tmp/nsess/cal/dev.json --model /tmp/nsess/cal/calibrator.json --right 96 --write --weights /tmp/nsess/new29.npz

Twenty-second session: the twenty-first session's calibrator rebuilt by its own commands,
written as JSON, and copied into the product (algorithm ``numbers-calibration-1``, glyph readings only):

    for s in 2950 2951 2952; do nice -n 10 python benchmarks/numbers/calibrate.py data /tmp/cal2/dev$s.json --photos 600 --style dev --seed $s; done
    nice -n 10 python benchmarks/numbers/calibrate.py fit /tmp/cal2/dev295?.json --l2 0.1 --out /tmp/cal2/calibrator.json
    nice -n 10 python benchmarks/numbers/calibrate.py read /tmp/athar-numbers/dev /tmp/cal/dev.json
    nice -n 10 python benchmarks/numbers/calibrate.py threshold /tmp/cal/dev.json --model /tmp/cal2/calibrator.json --right 96 --write
    cp /tmp/cal2/calibrator.json athar/matching/numbers/models/calibrator.json

Twentieth session (measured, not shipped; fitted on ``synthetic.TRAINING`` photos):

    nice -n 10 python benchmarks/numbers/calibrate.py data /tmp/cal/train0.json --photos 1500 --part 0
    nice -n 10 python benchmarks/numbers/calibrate.py fit /tmp/cal/train*.json --out /tmp/cal/calibrator.json
    nice -n 10 python benchmarks/numbers/calibrate.py compare /tmp/athar-numbers --model /tmp/cal/calibrator.json

Twenty-first session (measured, not shipped): the three-digit rules (``--three``: ``word``,
``list``, a design figure) measured on both readers:

    nice -n 10 python benchmarks/numbers/calibrate.py compare /tmp/athar-numbers --model /tmp/cal2/calibrator.json \
        --also 0.68:all 0.61:list 0.61:word shipped:list shipped:word
    nice -n 10 python benchmarks/numbers/calibrate.py threshold /tmp/cal/dev.json --model /tmp/cal2/calibrator.json --right 96 --three list
    nice -n 10 python benchmarks/numbers/calibrate.py compare /tmp/athar-numbers --model /tmp/cal2/calibrator.json --also 0.51:list 0.53:list

(Those sessions wrote the calibrator as an npz file, ``prob_coef`` and ``prob_features``; the
twenty-second writes the product's JSON with the same numbers.)

The evidence is the product's (``NumberReader.evidence``: every glyph reading of each ink mask
and the line recogniser's own readings, each with its ``calibration.Evidence``, read without a
calibrator, so it does not depend on one; ``--line-from`` the lines the line recogniser reads), and
so are the features (``calibration.calibration_features``) and the model (``Calibration``).
``data``: photos of ``synthetic.TRAINING`` (its fonts and damage; seeds 29800 + part: never the
dev sets' 2901–2903, nor the glyph network's (29100–29123) or the line network's (29500–29530
photos, 29600–29635 renders) training seeds) or, with ``--style dev --seed S``, of dev's own
generator; every reading labelled right when its text is a truth number's whose box it overlaps
(``evaluation.overlap`` ≥ 0.5, as the scoring counts it). ``read``: the same for a set's photos,
its truth kept. ``fit``: the logistic regression (Newton's method, L2 ``--l2`` on every
coefficient but the bias; 20 % of the photos held out, seed 0, for the log loss and AUC), written
as a calibrator file (JSON, with the sha256 of the weights it was fitted on). ``threshold``: the
set's readings one per place by calibrated confidence (as ``NumberReader.read_all`` keeps them),
the threshold with the most numbers found at ≥ ``--right`` % right and ≤ 5 % false suggestions (on
dev only); ``--write`` stores it in the calibrator file. ``compare``: each set read by the
hand-made rule, then by the calibrated reader, in one process (photos per CPU-second of each).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from athar.matching.numbers.calibration import (
    EVERY_LINE,
    FEATURES,
    LINE,
    Calibration,
    Evidence,
    calibration_features,
    sha256_of,
)
from athar.matching.numbers.evaluation import overlap, score
from athar.matching.numbers.reader import MODEL_PATH, NumberReader, one_per_place
from athar.matching.numbers.synthetic import BRANCHES, DEV, TRAINING, make_image

SEED = 29800


def evidence_reader(weights: Path = MODEL_PATH, cut_read: str | None = None) -> NumberReader:
    """The weights (the shipped ones by default) read without a calibrator: the evidence does not
    depend on one. ``cut_read``: wide members also read cut (``NumberReader.cut_read``, twenty-ninth
    session: the evidence of a reader that cuts)."""
    return NumberReader(weights, calibrator=None, cut_read=cut_read)


def provenance(weights: Path, cut_read: str | None) -> dict[str, Any]:
    """What an evidence file was read with, stored in it (``fit`` checks the weights)."""
    return {"weights_sha256": sha256_of(weights), "cut_read": cut_read}


# Branch numbers known (twenty-first session, a design figure only): those ../shared/DOMAIN.md names
# (215, 216, 220, 227, 235, 248, 251, 290, 318) and the synthetic generator's (``synthetic.BRANCHES``,
# which writes every branch number of the sets: restricting to them is partly circular).
KNOWN_BRANCHES = frozenset({"215", "216", "220", "227", "235", "248", "251", "290", "318"} | set(BRANCHES))
THREE = ("all", "word", "list")


def restrict(found: list[Evidence], line_from: float) -> list[Evidence]:
    """The evidence the reader would gather reading only the lines whose best glyph reading is at
    least ``line_from`` sure, from evidence gathered reading more of them (``data --line-from`` lower):
    the line recogniser's readings of the other lines go, and their glyph readings were not checked."""
    out = []
    for e in found:
        if e.line_glyph >= line_from:
            out.append(e)
        elif e.source != LINE:
            out.append(replace(e, checked=False, line=0.0, partial=False, other=0.0, other_text=""))
    return out


def photo_evidence(row: dict[str, Any], line_from: float) -> list[Evidence]:
    return restrict([Evidence(**e) for e in row["evidence"]], line_from)


def three_allowed(text: str, kind: str | None, rule: str) -> bool:
    """Whether a reading may be suggested under the three-digit ``rule``: ``all`` (every one),
    ``word`` (a three-digit reading only when a word follows it: ``kind`` branch), ``list`` (a
    three-digit reading only when it is a known branch number, ``KNOWN_BRANCHES``)."""
    if len(text) != 3 or rule == "all":
        return True
    if rule == "word":
        return kind == "branch"
    return text in KNOWN_BRANCHES


def candidates_of(found: list[Evidence], calibration: Calibration, three: str = "all") -> list[dict[str, Any]]:
    """One reading per place by calibrated confidence (``NumberReader.read_all``'s ``one_per_place``);
    readings ``three`` does not allow get confidence 0 first (``three_allowed``), so their place may keep another."""
    chances = calibration.probability(found) if found else np.zeros(0)
    chances = np.array([c if three_allowed(e.text, e.kind, three) else 0.0
                        for e, c in zip(found, chances, strict=True)])
    kept = one_per_place([(e.text, float(c), e.box, e.kind) for e, c in zip(found, chances, strict=True)])
    return [{"text": t, "confidence": c, "box": b, "kind": k} for t, c, b, k in kept]


def right(e: dict[str, Any], truth: list[dict[str, Any]]) -> bool:
    return any(t["text"] == e["text"] and overlap(e["box"], t["box"]) >= 0.5 for t in truth)


def data(out: Path, photos: int, part: int, style: str = TRAINING, seed: int | None = None,
         line_from: float = EVERY_LINE, fit: bool = False, weights: Path = MODEL_PATH,
         cut_read: str | None = None) -> None:
    """Evidence of ``photos`` synthetic photos. ``style`` TRAINING (seed 29800 + part, 700 or 1000 px)
    or DEV (twenty-first session: dev's own generator, 1000 px, saved and read back as JPEG quality 92
    as ``synthetic.write_set`` writes dev; ``seed`` must be none of the sets' 2901–2903)."""
    if seed is None:
        seed = SEED + part
    if seed in (2901, 2902, 2903):
        raise ValueError(f"seed {seed} made a scored set")
    reader = evidence_reader(weights, cut_read)
    rng = np.random.default_rng(seed)
    rows: list[dict[str, Any]] = []
    for i in range(photos):
        if style == TRAINING:
            sample = make_image(rng, TRAINING, width=int(rng.choice([700, 1000])))
            image = sample.image
        else:
            sample = make_image(rng, style, 1000)
            buffer = io.BytesIO()
            sample.image.save(buffer, format="JPEG", quality=92)
            image = Image.open(io.BytesIO(buffer.getvalue()))
        truth = [t.as_dict() for t in sample.numbers]
        rows.append({"path": f"{style}-{seed}-{i:05d}", "numbers": truth,
                     "evidence": [asdict(e) for e in reader.evidence(image, line_from, fit)]})
        if i % 100 == 0:
            print(f"{i + 1}/{photos}", file=sys.stderr, flush=True)
    out.write_text(json.dumps({"seed": seed, "style": style, "line_from": line_from, **provenance(weights, cut_read),
                               "photos": rows}))
    n = sum(len(r["evidence"]) for r in rows)
    k = sum(right(e, r["numbers"]) for r in rows for e in r["evidence"])
    print(f"{photos} photos, {n} readings, {k} right -> {out}")


def read(folder: Path, out: Path, line_from: float = EVERY_LINE, fit: bool = False, weights: Path = MODEL_PATH,
         cut_read: str | None = None) -> None:
    reader = evidence_reader(weights, cut_read)
    truth = json.loads((folder / "truth.json").read_text())
    rows = []
    for row in truth["images"]:
        with Image.open(folder / row["path"]) as image:
            rows.append({"path": row["path"], "numbers": row["numbers"],
                         "evidence": [asdict(e) for e in reader.evidence(image, line_from, fit)]})
    out.write_text(json.dumps({"folder": str(folder), "line_from": line_from, **provenance(weights, cut_read),
                               "photos": rows}))
    print(f"{len(rows)} photos -> {out}")


def table(sources: list[Path], line_from: float = EVERY_LINE,
          featurize: Callable[[list[Evidence]], np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features (``featurize``, the calibrator's by default), labels and photo numbers of every reading
    of these files (``restrict``-ed)."""
    featurize = featurize or calibration_features
    xs, ys, photo = [], [], []
    count = 0
    for source in sources:
        for row in json.loads(source.read_text())["photos"]:
            found = photo_evidence(row, line_from)
            if found:
                xs.append(featurize(found))
                ys.append([right(asdict(e), row["numbers"]) for e in found])
                photo.append(np.full(len(found), count))
            count += 1
    return np.concatenate(xs), np.concatenate(ys).astype(float), np.concatenate(photo)


def logistic(x: np.ndarray, y: np.ndarray, l2: float, steps: int = 50) -> np.ndarray:
    """Coefficients maximising the log likelihood minus l2·|w|² (not the bias), Newton's method."""
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[FEATURES.index("bias")] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) + 2 * penalty * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(2 * penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def auc(p: np.ndarray, y: np.ndarray) -> float:
    order = np.argsort(p)
    ranks = np.empty(len(p))
    ranks[order] = np.arange(1, len(p) + 1)
    pos = y == 1
    return float((ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum()))


def loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def fit(sources: list[Path], out: Path, l2: float, line_from: float = EVERY_LINE, weights: Path = MODEL_PATH) -> None:
    digest = sha256_of(weights)
    for source in sources:
        recorded = json.loads(source.read_text()).get("weights_sha256", digest)  # files before the 29th session: unchecked
        if recorded != digest:
            raise SystemExit(f"{source} was read with other weights than {weights}")
    x, y, photo = table(sources, line_from)
    rng = np.random.default_rng(0)
    held_photos = rng.permutation(int(photo.max()) + 1)[: (int(photo.max()) + 1) // 5]
    held = np.isin(photo, held_photos)
    print(f"{len(y)} readings ({int(y.sum())} right) from {int(photo.max()) + 1} photos; {int(held.sum())} held out")
    line = x[:, FEATURES.index("line_only")] == 1
    print(f"the line recogniser's own: {int(line.sum())} readings, {int(y[line].sum())} right")
    for lam in sorted({0.1, 1.0, 10.0, l2}):
        w = logistic(x[~held], y[~held], lam)
        p = 1 / (1 + np.exp(-(x[held] @ w)))
        print(f"l2 {lam}: held-out log loss {loss(p, y[held]):.4f}, AUC {auc(p, y[held]):.4f}; "
              f"glyph confidence alone AUC {auc(x[held, FEATURES.index('logit_glyph')], y[held]):.4f}")
    w = logistic(x, y, l2)
    for name, v in zip(FEATURES, w, strict=True):
        print(f"  {name:18} {v:+.3f}")
    Calibration(w.tolist(), FEATURES, weights_sha256=digest, line_from=line_from).save(out)
    print(f"wrote {out}")


def candidates(rows: list[dict[str, Any]], calibration: Calibration, three: str = "all") -> list[list[dict[str, Any]]]:
    """Each photo's readings, one per place by calibrated confidence (``NumberReader.read_all``),
    from the lines the calibrator has the line recogniser read (``restrict``)."""
    return [candidates_of(photo_evidence(row, calibration.line_from), calibration, three) for row in rows]


def load(model: Path, weights: Path = MODEL_PATH) -> tuple[Calibration, float]:
    """A calibrator file (``calibration.Calibration``) fitted on ``weights`` and its threshold (0
    before ``threshold --write``)."""
    calibration = Calibration.load(model, weights)
    return calibration, calibration.threshold


def best_threshold(rows: list[dict[str, Any]], every: list[list[dict[str, Any]]],
                   target: float) -> tuple[float, dict[str, Any]] | None:
    """Of thresholds 0.30 to 0.998, the one that finds the most of ``rows``' numbers with ≥ ``target`` %
    of the returned readings right and ≤ 5 % false suggestions (``every``: each row's candidates with
    their confidence); each threshold's rates printed."""
    best = None
    for t in [*np.arange(0.30, 0.99, 0.01), 0.99, 0.995, 0.998]:
        rates = score([(r["path"], r["numbers"], [c for c in cs if c["confidence"] >= t])
                       for r, cs in zip(rows, every, strict=True)]).rates()
        print(f"threshold {t:.3f}: found {rates['found_pct']} right {rates['returned_right_pct']} "
              f"false {rates['false_suggestion_pct']} ({rates['returned']} returned)")
        if rates["returned_right_pct"] >= target and rates["false_suggestion_pct"] <= 5 and (
                best is None or rates["found_pct"] > best[1]["found_pct"]):
            best = (float(t), rates)
    print(f"chosen: {best}")
    return best


def threshold(source: Path, model: Path, target: float, write: bool, three: str = "all",
              weights: Path = MODEL_PATH) -> None:
    rows = json.loads(source.read_text())["photos"]
    calibration, _ = load(model, weights)
    every = candidates(rows, calibration, three)
    best = best_threshold(rows, every, target)
    if write and best is not None:
        calibration.threshold = round(best[0], 3)
        calibration.save(model)
        print(f"wrote threshold {calibration.threshold:.3f} to {model}")


def compare(root: Path, model: Path, sets: list[str], three: str = "all", also: Sequence[str] = ()) -> None:
    """Each set read by the hand-made rule (``NumberReader(calibrator=None)``, the shipped reader
    until the twenty-second session), then by the calibrated one (this process's CPU time).
    With ``three`` other than ``all`` both readers' suggestions are filtered by ``three_allowed``
    (the shipped reader's after its one per place; a design figure, not the product). ``also``:
    more rows, each ``threshold:rule`` (the calibrated reader) or ``shipped:rule``, read after the timed ones."""
    shipped = NumberReader(MODEL_PATH, calibrator=None)
    calibration, cut = load(model)
    calibrated = NumberReader(MODEL_PATH, calibrator=model)

    def read_calibrated(image: Image.Image) -> list[dict[str, Any]]:
        if three == "all":  # the product's own path
            return [r.as_dict() for r in calibrated.read(image)]
        return [r for r in candidates_of(calibrated.evidence(image), calibration, three) if r["confidence"] >= cut]

    readers = {"shipped": lambda image: [r.as_dict() for r in shipped.read(image)
                                         if three_allowed(r.text, r.kind, three)],
               "calibrated": read_calibrated}
    table = []
    for name in sets:
        truth = json.loads((root / name / "truth.json").read_text())["images"]
        for label, read_one in readers.items():
            start = time.process_time()
            rows = []
            for row in truth:
                with Image.open(root / name / row["path"]) as image:
                    rows.append((row["path"], row["numbers"], read_one(image)))
            spent = time.process_time() - start
            result = score(rows)
            table.append((label, name, result.rates(), len(truth) / spent))
            print(json.dumps({"reader": label, "set": name, "wrong": result.wrong}, ensure_ascii=False), flush=True)
        # Other thresholds and three-digit rules on one more reading of each photo (no speed).
        if also:
            kept = []
            for row in truth:
                with Image.open(root / name / row["path"]) as image:
                    kept.append(([r.as_dict() for r in shipped.read(image)], calibrated.evidence(image)))
        for extra in also:
            at, _, rule = extra.partition(":")
            rule = rule or "all"
            rows = []
            for row, (said, found) in zip(truth, kept, strict=True):
                if at == "shipped":
                    got = [r for r in said if three_allowed(r["text"], r["kind"], rule)]
                else:
                    got = [r for r in candidates_of(found, calibration, rule) if r["confidence"] >= float(at)]
                rows.append((row["path"], row["numbers"], got))
            result = score(rows)
            table.append((f"{at}:{rule}", name, result.rates(), float("nan")))
            print(json.dumps({"reader": extra, "set": name, "wrong": result.wrong}, ensure_ascii=False), flush=True)
    print(f"threshold {cut:.3f}")
    print(f"{'reader':10} {'set':17} {'found%':>7} {'right%':>7} {'read%':>7} {'falsesug%':>9} {'photo/cpu-s':>11}")
    for label, name, rates, speed in table:
        print(f"{label:10} {name:17} {rates['found_pct']:7} {rates['returned_right_pct']:7} {rates['read_right_pct']:7} "
              f"{rates['false_suggestion_pct']:9} {speed:11.2f}   ({rates['returned']} returned)")


def _reading_options(step: argparse.ArgumentParser, cut: bool = True) -> None:
    """``--weights`` (and ``--cut-read``): what the evidence of a step is, or was, read with."""
    step.add_argument("--weights", type=Path, default=MODEL_PATH, help="glyph and line weights other than the shipped")
    if cut:
        step.add_argument("--cut-read", choices=["digit", "wide"], default=None,
                          help="also read wide members cut (NumberReader.cut_read; off in the product)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    d = sub.add_parser("data")
    d.add_argument("out", type=Path)
    d.add_argument("--photos", type=int, default=1000)
    d.add_argument("--part", type=int, default=0)
    d.add_argument("--style", default=TRAINING, choices=[TRAINING, DEV])
    d.add_argument("--seed", type=int, default=None)
    d.add_argument("--line-from", type=float, default=EVERY_LINE)
    d.add_argument("--fit", action="store_true", help="keep each glyph reading's lines.text_fit (fit_features.py)")
    _reading_options(d)
    r = sub.add_parser("read")
    r.add_argument("folder", type=Path)
    r.add_argument("out", type=Path)
    r.add_argument("--line-from", type=float, default=EVERY_LINE)
    r.add_argument("--fit", action="store_true", help="keep each glyph reading's lines.text_fit (fit_features.py)")
    _reading_options(r)
    f = sub.add_parser("fit")
    f.add_argument("sources", type=Path, nargs="+")
    f.add_argument("--out", type=Path, required=True)
    f.add_argument("--l2", type=float, default=1.0)
    f.add_argument("--line-from", type=float, default=EVERY_LINE,
                   help="fit on the evidence of the lines whose best glyph reading is at least this sure (-1: all)")
    _reading_options(f, cut=False)
    t = sub.add_parser("threshold")
    t.add_argument("source", type=Path)
    t.add_argument("--model", type=Path, required=True)
    t.add_argument("--right", type=float, default=96.0)
    t.add_argument("--write", action="store_true")
    t.add_argument("--three", default="all", choices=THREE)
    _reading_options(t, cut=False)
    c = sub.add_parser("compare")
    c.add_argument("root", type=Path)
    c.add_argument("--model", type=Path, required=True)
    c.add_argument("--sets", nargs="+", default=["dev", "independent", "independent_2903"])
    c.add_argument("--three", default="all", choices=THREE)
    c.add_argument("--also", nargs="*", default=[])
    args = parser.parse_args()
    if args.step == "data":
        data(args.out, args.photos, args.part, args.style, args.seed, args.line_from, args.fit, args.weights,
             args.cut_read)
    elif args.step == "read":
        read(args.folder, args.out, args.line_from, args.fit, args.weights, args.cut_read)
    elif args.step == "fit":
        fit(args.sources, args.out, args.l2, args.line_from, args.weights)
    elif args.step == "threshold":
        threshold(args.source, args.model, args.right, args.write, args.three, args.weights)
    else:
        compare(args.root, args.model, args.sets, args.three, args.also)


if __name__ == "__main__":
    main()
