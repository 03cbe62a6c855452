"""A calibrated confidence for each candidate number (twentieth session; measured, not shipped:
docs/numbers.md "Figures"): P(reading right) from its evidence, a logistic regression fitted on
training photos, its threshold chosen on dev.

    nice -n 10 python benchmarks/numbers/calibrate.py data /tmp/cal/train0.json --photos 1500 --part 0
    nice -n 10 python benchmarks/numbers/calibrate.py read /tmp/athar-numbers/dev /tmp/cal/dev.json
    nice -n 10 python benchmarks/numbers/calibrate.py fit /tmp/cal/train*.json --out /tmp/cal/calibrator.npz
    nice -n 10 python benchmarks/numbers/calibrate.py threshold /tmp/cal/dev.json --model /tmp/cal/calibrator.npz --right 96 --write
    nice -n 10 python benchmarks/numbers/calibrate.py compare /tmp/athar-numbers --model /tmp/cal/calibrator.npz

Twenty-first session (measured, not shipped): fitted on photos of dev's own generator with other seeds,
and the three-digit rules (``--three``: ``word``, ``list``, a design figure) measured on both readers:

    for s in 2950 2951 2952; do nice -n 10 python benchmarks/numbers/calibrate.py data /tmp/cal2/dev$s.json --photos 600 --style dev --seed $s; done
    nice -n 10 python benchmarks/numbers/calibrate.py fit /tmp/cal2/dev295?.json --l2 0.1 --out /tmp/cal2/calibrator.npz
    nice -n 10 python benchmarks/numbers/calibrate.py threshold /tmp/cal/dev.json --model /tmp/cal2/calibrator.npz --right 96 --write
    nice -n 10 python benchmarks/numbers/calibrate.py compare /tmp/athar-numbers --model /tmp/cal2/calibrator.npz \
        --also 0.68:all 0.61:list 0.61:word shipped:list shipped:word
    nice -n 10 python benchmarks/numbers/calibrate.py threshold /tmp/cal/dev.json --model /tmp/cal2/calibrator.npz --right 96 --three list
    nice -n 10 python benchmarks/numbers/calibrate.py compare /tmp/athar-numbers --model /tmp/cal2/calibrator.npz --also 0.51:list 0.53:list

``EvidenceReader`` is the shipped reader (its weights, ink masks, lines, networks and checks) keeping
every glyph reading of each ink mask with its evidence (``Evidence``) instead of combining them by
the shipped rule (``reader.agreed``); ``calibration_features`` turns a photo's readings into the
model's inputs (``FEATURES``), among them how many of the other ink masks read the same text at the
same place. ``data``: photos of ``synthetic.TRAINING`` (its fonts and damage; seeds 29800 + part:
never the dev sets' 2901–2903, nor the glyph network's (29100–29123) or the line network's
(29500–29530 photos, 29600–29635 renders) training seeds), every reading labelled right when its
text is a truth number's whose box it overlaps (``evaluation.overlap`` ≥ 0.5, as the scoring counts
it). ``read``: the same for a set's photos, its truth kept. ``fit``: the logistic regression
(Newton's method, L2 ``--l2`` on every coefficient but the bias; 20 % of the photos held out, seed 0,
for the log loss and AUC), written to a small calibrator file (``prob_coef``, ``prob_features``).
``threshold``: the set's readings one per place by calibrated confidence (as ``NumberReader.read_all``
keeps them), the threshold with the most numbers found at ≥ ``--right`` % right and ≤ 5 % false
suggestions (on dev only); ``--write`` stores it in the calibrator file. ``compare``: each set read by
the shipped reader, then by the calibrated one, in one process (photos per CPU-second of each).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from athar.matching.numbers.evaluation import overlap, score
from athar.matching.numbers.reader import (
    INK_MASKS,
    MODEL_PATH,
    NumberReader,
    Run,
    _overlap,
    decode_runs,
    gray_for_reading,
    ink_past_run,
    line_frame,
    one_per_place,
)
from athar.matching.numbers.synthetic import BRANCHES, DEV, TRAINING, make_image

SEED = 29800


@dataclass
class Evidence:
    """One glyph reading under one ink mask and what the calibrator weighs (twentieth session)."""

    text: str
    box: list[int]
    kind: str | None
    mask: int           # which of ``INK_MASKS`` read it
    glyph: float        # the glyph network's confidence (``Run.confidence``)
    digit_min: float
    digit_mean: float
    edge: float
    arabic: bool
    past: bool          # ink of no member just past an end of the run (``ink_past_run``)
    checked: bool       # the line recogniser read the line
    line: float         # its confidence in the same text over the same place (0: it reads otherwise)
    partial: bool       # a longer digit run of the line cut wider holds this one (``agreed``'s partial)
    height: float       # the line's character height, pixels


# What the calibrator weighs, in the order of its coefficients (the calibrator file stores the names).
FEATURES = ("bias", "logit_glyph", "logit_digit_min", "logit_digit_mean", "logit_edge", "checked",
            "line_same", "line_conf", "partial", "past", "three", "four", "six_or_more", "arabic",
            "masks_same", "masks_other", "log_height", "branch", "three_no_branch")


def _logit(x: np.ndarray) -> np.ndarray:
    x = np.clip(x, 1e-4, 1 - 1e-4)
    return np.log(x / (1 - x))


def calibration_features(found: Sequence[Evidence]) -> np.ndarray:
    """The calibrator's inputs (``FEATURES``), one row per reading. ``masks_same``: how many other
    ink masks read the same text at the same place (boxes overlapping by half); ``masks_other``:
    how many read another text there."""
    n = len(found)
    x = np.zeros((n, len(FEATURES)))
    if not n:
        return x
    col = {name: i for i, name in enumerate(FEATURES)}
    same = np.zeros(n)
    other = np.zeros(n)
    for i, e in enumerate(found):
        masks_same: set[int] = set()
        masks_other: set[int] = set()
        for f in found:
            if f.mask != e.mask and _overlap(f.box, e.box) >= 0.5:
                (masks_same if f.text == e.text else masks_other).add(f.mask)
        same[i], other[i] = len(masks_same), len(masks_other - masks_same)
    digits = np.array([len(e.text) for e in found])
    branch = np.array([e.kind == "branch" for e in found], float)
    x[:, col["bias"]] = 1.0
    x[:, col["logit_glyph"]] = _logit(np.array([e.glyph for e in found]))
    x[:, col["logit_digit_min"]] = _logit(np.array([e.digit_min for e in found]))
    x[:, col["logit_digit_mean"]] = _logit(np.array([e.digit_mean for e in found]))
    x[:, col["logit_edge"]] = _logit(np.array([e.edge for e in found]))
    x[:, col["checked"]] = [e.checked for e in found]
    x[:, col["line_same"]] = [e.line > 0 for e in found]
    x[:, col["line_conf"]] = [e.line for e in found]
    x[:, col["partial"]] = [e.partial for e in found]
    x[:, col["past"]] = [e.past for e in found]
    x[:, col["three"]] = digits == 3
    x[:, col["four"]] = digits == 4
    x[:, col["six_or_more"]] = digits >= 6
    x[:, col["arabic"]] = [e.arabic for e in found]
    x[:, col["masks_same"]] = same
    x[:, col["masks_other"]] = other
    x[:, col["log_height"]] = np.log(np.maximum([e.height for e in found], 2.0) / 24.0)
    x[:, col["branch"]] = branch
    x[:, col["three_no_branch"]] = (digits == 3) * (1 - branch)
    return x


class Calibration:
    """P(reading right) from a reading's evidence: a logistic regression on ``calibration_features``
    whose coefficients the calibrator file stores (``prob_coef``, ``prob_features``: the names, checked)."""

    def __init__(self, coef: np.ndarray, names: Sequence[str]) -> None:
        if tuple(names) != FEATURES:
            raise ValueError(f"the calibrator's features {tuple(names)} are not this reader's {FEATURES}")
        self.coef = np.asarray(coef, float)

    def probability(self, found: Sequence[Evidence]) -> np.ndarray:
        z = calibration_features(found) @ self.coef
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


class EvidenceReader(NumberReader):
    """The shipped reader (its weights, masks, lines and networks), keeping every glyph reading of
    each ink mask with its evidence instead of combining them by the shipped rule."""

    def evidence(self, image: Image.Image) -> list[Evidence]:
        """Every glyph reading of the photo under each ink mask (boxes in the photo's pixels)."""
        gray, scale = gray_for_reading(image)
        found = self._evidence(gray)
        if scale != 1.0:
            for e in found:
                e.box = [round(v / scale) for v in e.box]
        return found

    def read_calibrated(self, image: Image.Image, calibration: Calibration, threshold: float,
                        three: str = "all") -> list[dict[str, Any]]:
        """The readings the calibrated reader would return: one per place by calibrated confidence
        (as ``NumberReader.read_all``), those at ``threshold`` or above."""
        kept = candidates_of(self.evidence(image), calibration, three)
        return [r for r in kept if r["confidence"] >= threshold]

    def _evidence(self, gray: np.ndarray) -> list[Evidence]:
        """Every glyph reading under each ink mask with its evidence (twentieth session): the glyph
        network's probabilities, ink past the run, and — for a line with a reading at least
        ``agree_from`` sure — the line recogniser's reading of the same place and of the line cut
        wider (``agreed``'s inputs, kept apart instead of multiplied together)."""
        from athar.matching.numbers.line_reader import digit_runs, read_frames

        out: list[Evidence] = []
        for index, make_mask in enumerate(INK_MASKS):
            mask = make_mask(gray)
            for labels, kept, group, runs in self._glyph_lines(mask, gray):
                if not runs:
                    continue
                placed = line_frame(labels, kept, group)
                frame = placed[1]
                checked = bool(self.classifier.lines) and frame is not None and \
                    any(r.confidence >= self.agree_from for r in runs)
                line = read_frames(gray, [frame], self.classifier.lines) if checked else []
                wide = digit_runs(gray, frame, self.classifier.lines) if checked else []
                for r in runs:
                    same = max((lc for lt, lc, lb, _ in line if lt == r.text and _overlap(lb, r.box) >= 0.3),
                               default=0.0)
                    partial = any(len(rt) > len(r.text) and r.text in rt and _overlap(rb, r.box) >= 0.3
                                  for rt, rb in wide)
                    height = frame.height if frame is not None else float(min(r.box[2] - r.box[0], r.box[3] - r.box[1]))
                    out.append(Evidence(r.text, r.box, r.kind, index, r.confidence, r.digit_min, r.digit_mean,
                                        r.edge, r.arabic, ink_past_run(mask, labels, kept, group, r.box, placed),
                                        checked, float(same), partial, float(height)))
        return out

    def _glyph_lines(self, mask: np.ndarray, gray: np.ndarray) -> Iterator[tuple[np.ndarray, list[tuple[int, slice, slice, int]], list[int], list[Run]]]:
        """Each line of one ink mask (labels, kept components, its members) with its digit runs, from
        the reader's own lines (``NumberReader.line_probabilities``)."""
        for labels, kept, group, p, boxes in self.line_probabilities(mask, gray):
            yield labels, kept, group, decode_runs(p, boxes)  # the reader's own decoder


# Branch numbers known (twenty-first session, a design figure only): those ../shared/DOMAIN.md names
# (215, 216, 220, 227, 235, 248, 251, 290, 318) and the synthetic generator's (``synthetic.BRANCHES``,
# which writes every branch number of the sets: restricting to them is partly circular).
KNOWN_BRANCHES = frozenset({"215", "216", "220", "227", "235", "248", "251", "290", "318"} | set(BRANCHES))
THREE = ("all", "word", "list")


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


def data(out: Path, photos: int, part: int, style: str = TRAINING, seed: int | None = None) -> None:
    """Evidence of ``photos`` synthetic photos. ``style`` TRAINING (seed 29800 + part, 700 or 1000 px)
    or DEV (twenty-first session: dev's own generator, 1000 px, saved and read back as JPEG quality 92
    as ``synthetic.write_set`` writes dev; ``seed`` must be none of the sets' 2901–2903)."""
    if seed is None:
        seed = SEED + part
    if seed in (2901, 2902, 2903):
        raise ValueError(f"seed {seed} made a scored set")
    reader = EvidenceReader(MODEL_PATH)
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
                     "evidence": [asdict(e) for e in reader.evidence(image)]})
        if i % 100 == 0:
            print(f"{i + 1}/{photos}", file=sys.stderr, flush=True)
    out.write_text(json.dumps({"seed": seed, "style": style, "photos": rows}))
    n = sum(len(r["evidence"]) for r in rows)
    k = sum(right(e, r["numbers"]) for r in rows for e in r["evidence"])
    print(f"{photos} photos, {n} readings, {k} right -> {out}")


def read(folder: Path, out: Path) -> None:
    reader = EvidenceReader(MODEL_PATH)
    truth = json.loads((folder / "truth.json").read_text())
    rows = []
    for row in truth["images"]:
        with Image.open(folder / row["path"]) as image:
            rows.append({"path": row["path"], "numbers": row["numbers"],
                         "evidence": [asdict(e) for e in reader.evidence(image)]})
    out.write_text(json.dumps({"folder": str(folder), "photos": rows}))
    print(f"{len(rows)} photos -> {out}")


def table(sources: list[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, labels and photo numbers of every reading of these files."""
    xs, ys, photo = [], [], []
    count = 0
    for source in sources:
        for row in json.loads(source.read_text())["photos"]:
            found = [Evidence(**e) for e in row["evidence"]]
            if found:
                xs.append(calibration_features(found))
                ys.append([right(e, row["numbers"]) for e in row["evidence"]])
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


def fit(sources: list[Path], out: Path, l2: float) -> None:
    x, y, photo = table(sources)
    rng = np.random.default_rng(0)
    held_photos = rng.permutation(int(photo.max()) + 1)[: (int(photo.max()) + 1) // 5]
    held = np.isin(photo, held_photos)
    print(f"{len(y)} readings ({int(y.sum())} right) from {int(photo.max()) + 1} photos; {int(held.sum())} held out")
    for lam in sorted({0.1, 1.0, 10.0, l2}):
        w = logistic(x[~held], y[~held], lam)
        p = 1 / (1 + np.exp(-(x[held] @ w)))
        print(f"l2 {lam}: held-out log loss {loss(p, y[held]):.4f}, AUC {auc(p, y[held]):.4f}; "
              f"glyph confidence alone AUC {auc(x[held, FEATURES.index('logit_glyph')], y[held]):.4f}")
    w = logistic(x, y, l2)
    for name, v in zip(FEATURES, w, strict=True):
        print(f"  {name:18} {v:+.3f}")
    np.savez(out, prob_coef=w.astype(np.float64), prob_features=np.array(FEATURES))
    print(f"wrote {out}")


def candidates(rows: list[dict[str, Any]], calibration: Calibration, three: str = "all") -> list[list[dict[str, Any]]]:
    """Each photo's readings, one per place by calibrated confidence (``NumberReader.read_all``)."""
    return [candidates_of([Evidence(**e) for e in row["evidence"]], calibration, three) for row in rows]


def load(model: Path) -> tuple[Calibration, float]:
    """A calibrator file's coefficients and threshold (0 before ``threshold --write``)."""
    with np.load(model) as d:
        return Calibration(d["prob_coef"], [str(n) for n in d["prob_features"]]), float(d.get("threshold", 0.0))


def threshold(source: Path, model: Path, target: float, write: bool, three: str = "all") -> None:
    rows = json.loads(source.read_text())["photos"]
    calibration, _ = load(model)
    every = candidates(rows, calibration, three)
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
    if write and best is not None:
        with np.load(model) as d:
            weights = dict(d)
        weights["threshold"] = np.array(best[0], np.float32)
        np.savez(model, **weights)
        print(f"wrote threshold {best[0]:.3f} to {model}")


def compare(root: Path, model: Path, sets: list[str], three: str = "all", also: Sequence[str] = ()) -> None:
    """Each set read by the shipped reader, then by the calibrated one (this process's CPU time).
    With ``three`` other than ``all`` both readers' suggestions are filtered by ``three_allowed``
    (the shipped reader's after its one per place; a design figure, not the product). ``also``:
    more rows, each ``threshold:rule`` (the calibrated reader) or ``shipped:rule``, read after the timed ones."""
    shipped = NumberReader(MODEL_PATH)
    calibrated = EvidenceReader(MODEL_PATH)
    calibration, cut = load(model)
    readers = {"shipped": lambda image: [r.as_dict() for r in shipped.read(image)
                                         if three_allowed(r.text, r.kind, three)],
               "calibrated": lambda image: calibrated.read_calibrated(image, calibration, cut, three)}
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    d = sub.add_parser("data")
    d.add_argument("out", type=Path)
    d.add_argument("--photos", type=int, default=1000)
    d.add_argument("--part", type=int, default=0)
    d.add_argument("--style", default=TRAINING, choices=[TRAINING, DEV])
    d.add_argument("--seed", type=int, default=None)
    r = sub.add_parser("read")
    r.add_argument("folder", type=Path)
    r.add_argument("out", type=Path)
    f = sub.add_parser("fit")
    f.add_argument("sources", type=Path, nargs="+")
    f.add_argument("--out", type=Path, required=True)
    f.add_argument("--l2", type=float, default=1.0)
    t = sub.add_parser("threshold")
    t.add_argument("source", type=Path)
    t.add_argument("--model", type=Path, required=True)
    t.add_argument("--right", type=float, default=96.0)
    t.add_argument("--write", action="store_true")
    t.add_argument("--three", default="all", choices=THREE)
    c = sub.add_parser("compare")
    c.add_argument("root", type=Path)
    c.add_argument("--model", type=Path, required=True)
    c.add_argument("--sets", nargs="+", default=["dev", "independent", "independent_2903"])
    c.add_argument("--three", default="all", choices=THREE)
    c.add_argument("--also", nargs="*", default=[])
    args = parser.parse_args()
    if args.step == "data":
        data(args.out, args.photos, args.part, args.style, args.seed)
    elif args.step == "read":
        read(args.folder, args.out)
    elif args.step == "fit":
        fit(args.sources, args.out, args.l2)
    elif args.step == "threshold":
        threshold(args.source, args.model, args.right, args.write, args.three)
    else:
        compare(args.root, args.model, args.sets, args.three, args.also)


if __name__ == "__main__":
    main()
