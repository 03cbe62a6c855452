"""Training data and training for the number reader's glyph classifier (plain numpy, CPU).

Training photos come from ``synthetic.make_image(style=TRAINING)`` (its own font list and seeds,
never the dev sets' seeds): every candidate the reader would classify is cut out exactly as the
reader cuts it (``reader.glyphs``) and labelled from the generator's per-glyph map — a digit, the
word فرع, or NOISE (background, a fragment of a glyph, or two glyphs run together). The network is
trained with Adam on cross-entropy; ``benchmarks/numbers/train.py`` runs it and writes
``models/digits.npz`` with the threshold chosen on the dev set.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from scipy import ndimage

from athar.matching.numbers.reader import CLASSES, NOISE, PATCH, components, glyphs, ink_mask, lines
from athar.matching.numbers.synthetic import TRAINING, Sample, make_image


def _label(sample: Sample, labels: np.ndarray, label: int, sl_r: slice, sl_c: slice,
           sizes: np.ndarray) -> tuple[int, int]:
    """(class index, glyph id) of one component from the generator's glyph map."""
    assert sample.glyphs is not None
    mine = labels[sl_r, sl_c] == label
    ids = sample.glyphs[sl_r, sl_c][mine]
    hits = ids[ids > 0]
    if len(hits) < 0.3 * mine.sum() or len(hits) == 0:
        return NOISE, 0
    counts = np.bincount(hits)
    glyph = int(counts.argmax())
    top = counts[glyph]
    counts[glyph] = 0
    if counts.max() > 0.25 * top:  # two glyphs run together
        return NOISE, 0
    name = sample.glyph_labels[glyph - 1]
    if name != "WORD" and top < 0.45 * sizes[glyph]:  # a fragment of a glyph
        return NOISE, 0
    return CLASSES.index(name), glyph


def harvest(sample: Sample) -> tuple[np.ndarray, np.ndarray]:
    """Patches and class indices of every candidate the reader would classify in the sample."""
    assert sample.glyphs is not None
    gray = np.asarray(sample.image.convert("L"), np.float32) / 255.0
    labels, kept = components(ink_mask(gray))
    sizes = np.bincount(sample.glyphs.ravel(), minlength=len(sample.glyph_labels) + 1)
    xs, ys = [], []
    for group in lines(kept):
        line = glyphs(labels, kept, group)
        if line is None:
            continue
        by_label = {kept[i][0]: kept[i] for i in group}
        found = [_label(sample, labels, c, by_label[c][1], by_label[c][2], sizes) for c in line.components]
        classes = np.array([f[0] for f in found])
        ids = [f[1] for f in found if f[1] > 0]
        steps = np.sign(np.diff(ids)).sum() if len(ids) >= 2 else 0
        if steps < 0:  # glyphs were written in the other direction: the flipped reading is upright
            xs.append(line.flipped)
            ys.append(classes[::-1])
        else:
            xs.append(line.patches)
            ys.append(classes)
    if not xs:
        return np.zeros((0, PATCH * PATCH), np.float32), np.zeros(0, int)
    return np.concatenate(xs), np.concatenate(ys)


def make_training_set(count: int, seed: int, width: int = 600,
                      progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Patches and classes from ``count`` training photos (85 % of them carry numbers)."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for i in range(count):
        sample = make_image(rng, TRAINING, width, with_numbers=bool(rng.random() < 0.85))
        x, y = harvest(sample)
        xs.append(x)
        ys.append(y)
        if progress:
            progress(i)
    return np.concatenate(xs), np.concatenate(ys)


def train(x: np.ndarray, y: np.ndarray, seed: int = 0, epochs: int = 30, hidden: tuple[int, int] = (192, 96),
          budget_seconds: float = 900.0, log: Callable[[str], None] = print, batch: int = 64,
          lr_max: float = 3e-3) -> dict[str, np.ndarray]:
    """A 2-hidden-layer ReLU network trained with Adam (cosine learning rate from ``lr_max``, weight
    decay 1e-4); stops after ``budget_seconds`` (the machine is shared)."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    std = x.std(axis=0) + 0.1
    sizes = [x.shape[1], *hidden, len(CLASSES)]
    params: list[np.ndarray] = []
    for a, b in zip(sizes[:-1], sizes[1:], strict=True):
        params += [rng.normal(0, np.sqrt(2.0 / a), (a, b)).astype(np.float32), np.zeros(b, np.float32)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    # Classes are unbalanced (NOISE dominates): weight each by the inverse square root of its count.
    counts = np.bincount(y, minlength=len(CLASSES)).astype(np.float32)
    class_weight = 1.0 / np.sqrt(np.maximum(counts, 1.0))
    class_weight *= len(y) / (class_weight[y].sum())
    step = 0
    start = time.time()
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        total = 0.0
        lr = lr_max * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        for s in range(0, len(y), batch):
            idx = order[s:s + batch]
            yb = y[idx]
            xb = (augment(x[idx], rng) - mean) / std
            acts = [xb]
            h = xb
            for i in range(0, len(params), 2):
                h = h @ params[i] + params[i + 1]
                if i < len(params) - 2:
                    h = np.maximum(h, 0.0)
                acts.append(h)
            logits = acts[-1] - acts[-1].max(axis=1, keepdims=True)
            prob = np.exp(logits)
            prob /= prob.sum(axis=1, keepdims=True)
            wb = class_weight[yb]
            total += float(-(np.log(prob[np.arange(len(yb)), yb] + 1e-9) * wb).sum())
            grad = prob
            grad[np.arange(len(yb)), yb] -= 1.0
            grad *= (wb / len(yb))[:, None]
            grads: list[np.ndarray] = [np.zeros(0)] * len(params)
            for i in range(len(params) - 2, -1, -2):
                grads[i] = acts[i // 2].T @ grad + 1e-4 * params[i]
                grads[i + 1] = grad.sum(axis=0)
                if i > 0:
                    grad = (grad @ params[i].T) * (acts[i // 2] > 0)
            step += 1
            for i, g in enumerate(grads):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                mh = m[i] / (1 - 0.9 ** step)
                vh = v[i] / (1 - 0.999 ** step)
                params[i] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        log(f"epoch {epoch + 1}: loss {total / len(y):.4f} ({time.time() - start:.0f} s)")
        if time.time() - start > budget_seconds:
            log("time budget reached")
            break
    out = {"mean": mean.astype(np.float32), "std": std.astype(np.float32)}
    for i in range(0, len(params), 2):
        out[f"w{i // 2}"] = params[i]
        out[f"b{i // 2}"] = params[i + 1]
    return out


def augment(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each patch moved, scaled, turned and sheared a little (what the line fit gets slightly wrong)."""
    out = np.empty_like(x)
    centre = (PATCH - 1) / 2
    for k in range(len(x)):
        angle = rng.normal(0, 0.08)
        scale = rng.uniform(0.88, 1.12)
        shear = rng.normal(0, 0.1)
        c, s = np.cos(angle), np.sin(angle)
        matrix = np.array([[c, -s + shear], [s, c]]) / scale
        offset = centre - matrix @ np.array([centre, centre]) + rng.normal(0, 1.0, 2)
        out[k] = ndimage.affine_transform(x[k].reshape(PATCH, PATCH), matrix, offset=offset, order=1).ravel()
    return out


def accuracy(weights: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray) -> float:
    """Share of patches whose most probable class is right."""
    h = (x - weights["mean"]) / weights["std"]
    for i in range(3):
        h = h @ weights[f"w{i}"] + weights[f"b{i}"]
        if i < 2:
            h = np.maximum(h, 0.0)
    return float((h.argmax(axis=1) == y).mean())
