"""Training data for the number reader's glyph network, and the older perceptron's training (numpy).

Training photos come from ``synthetic.make_image(style=TRAINING)`` (its own font list and seeds,
never the dev sets' seeds): every window the reader would classify is cut out exactly as the
reader cuts it (``reader.glyphs``: the component's mask and the grey ink darkness; members whole,
and members wider than a character also cut into pieces) and labelled from the generator's
per-glyph map at the window's ink pixels — a digit, the word فرع, or NOISE (background, a fragment
of a glyph, a piece of the word, or two glyphs run together). The convolutional network the reader
uses is trained with torch by ``benchmarks/numbers/train_cnn.py`` (training only); ``train`` below
is the older perceptron on the mask channel. ``benchmarks/numbers/train.py`` writes the data and
chooses the threshold on the dev set.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from scipy import ndimage

from athar.matching.numbers.reader import (
    CLASSES,
    INK_MASKS,
    NOISE,
    PATCH,
    Glyphs,
    blobs,
    components,
    features,
    forward,
    glyphs,
    lines,
)
from athar.matching.numbers.synthetic import TRAINING, Sample, make_image


def _label(sample: Sample, xs: np.ndarray, ys: np.ndarray, sizes: np.ndarray, piece: bool) -> tuple[int, int]:
    """(class index, glyph id) of one window from the generator's glyph map at its ink pixels."""
    assert sample.glyphs is not None
    if len(xs) == 0:
        return NOISE, 0
    ids = sample.glyphs[ys, xs]
    hits = ids[ids > 0]
    if len(hits) < 0.3 * len(ids) or len(hits) == 0:
        return NOISE, 0
    counts = np.bincount(hits)
    glyph = int(counts.argmax())
    top = counts[glyph]
    counts[glyph] = 0
    if counts.max() > (0.35 if piece else 0.25) * top:  # two glyphs run together
        return NOISE, 0
    name = sample.glyph_labels[glyph - 1]
    if name == "WORD" and piece:  # a piece of the word is not the word
        return NOISE, 0
    if name != "WORD" and top < 0.45 * sizes[glyph]:  # a fragment of a glyph
        return NOISE, 0
    return CLASSES.index(name), glyph


def harvest(sample: Sample) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Patches, class indices and piece flags of every window the reader would classify in the
    sample: each line's members whole (flag False), and the wide ones also cut into character-wide
    pieces (flag True: the windows ``glyphs(split=…)`` cuts, which the reader's ``cut_read`` reads)."""
    assert sample.glyphs is not None
    gray = np.asarray(sample.image.convert("L"), np.float32) / 255.0
    sizes = np.bincount(sample.glyphs.ravel(), minlength=len(sample.glyph_labels) + 1)
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    pieces: list[np.ndarray] = []
    for mask in INK_MASKS:
        _harvest_mask(sample, gray, mask(gray), sizes, xs, ys, pieces)
    if not xs:
        return np.zeros((0, 2 * PATCH * PATCH), np.float32), np.zeros(0, int), np.zeros(0, bool)
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(pieces)


def _harvest_mask(sample: Sample, gray: np.ndarray, mask: np.ndarray, sizes: np.ndarray, xs: list[np.ndarray],
                  ys: list[np.ndarray], pieces: list[np.ndarray]) -> None:
    """The labelled patches of one ink mask, appended to ``xs`` and ``ys`` (their piece flags to ``pieces``)."""
    labels, kept = components(mask)
    grouped = lines(kept)
    for group in grouped + blobs(labels, kept, grouped):
        line = glyphs(labels, kept, group, gray)
        if line is None:
            continue
        _append(sample, line, sizes, xs, ys, pieces, pieces_only=False)
        wide = {c for c, w in zip(line.components, line.wide, strict=True) if w}
        if wide:
            cut = glyphs(labels, kept, group, gray, split=wide)
            if cut is not None:
                _append(sample, cut, sizes, xs, ys, pieces, pieces_only=True)


def _append(sample: Sample, line: Glyphs, sizes: np.ndarray, xs: list[np.ndarray], ys: list[np.ndarray],
            pieces: list[np.ndarray], pieces_only: bool) -> None:
    """A line's labelled windows, read in the direction the glyphs were written."""
    found = [_label(sample, px, py, sizes, count > 1) for (px, py), count in zip(line.pixels, line.pieces, strict=True)]
    classes = np.array([f[0] for f in found])
    ids = [f[1] for f in found if f[1] > 0]
    steps = np.sign(np.diff(ids)).sum() if len(ids) >= 2 else 0
    piece = np.array([count > 1 for count in line.pieces], bool)
    keep = piece if pieces_only else np.ones(len(classes), bool)
    if steps < 0:  # glyphs were written in the other direction: the flipped reading is upright
        xs.append(line.flipped[keep[::-1]])
        ys.append(classes[::-1][keep[::-1]])
        pieces.append(piece[::-1][keep[::-1]])
    else:
        xs.append(line.patches[keep])
        ys.append(classes[keep])
        pieces.append(piece[keep])


def make_training_set(count: int, seed: int, width: int = 700, noise_ratio: float = 1.5,
                      progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Patches, classes and piece flags (``harvest``) from ``count`` training photos (85 % of them
    carry numbers, in 1–4 groups); per photo at most ``noise_ratio`` "not a character" patches per
    character patch (at least 20), drawn at random (the low-contrast mask finds many specks)."""
    rng = np.random.default_rng(seed)
    xs, ys, ps = [], [], []
    for i in range(count):
        with_numbers = bool(rng.random() < 0.85)
        sample = make_image(rng, TRAINING, width, with_numbers=with_numbers,
                            groups=int(rng.integers(1, 5)) if with_numbers else None)
        x, y, piece = harvest(sample)
        noise = np.flatnonzero(y == NOISE)
        keep = max(20, int(noise_ratio * (len(y) - len(noise))))
        if len(noise) > keep:
            drop = rng.choice(noise, len(noise) - keep, replace=False)
            x, y, piece = np.delete(x, drop, axis=0), np.delete(y, drop), np.delete(piece, drop)
        xs.append(x)
        ys.append(y)
        ps.append(piece)
        if progress:
            progress(i)
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(ps)


def train(x: np.ndarray, y: np.ndarray, seed: int = 0, epochs: int = 30, hidden: tuple[int, ...] = (384, 192),
          budget_seconds: float = 900.0, log: Callable[[str], None] = print, batch: int = 64,
          lr_max: float = 3e-3) -> dict[str, np.ndarray]:
    """A ReLU network trained with Adam (weight decay 1e-4) on augmented patches. The learning rate
    follows a cosine from ``lr_max`` to 0 over the run, whose length is ``epochs`` or
    ``budget_seconds`` of this process's CPU time, whichever ends first (the machine is shared):
    a run cut by the budget still ends annealed."""
    rng = np.random.default_rng(seed)
    sample_features = features(x[rng.permutation(len(x))[:20000]])
    mean = sample_features.mean(axis=0)
    std = sample_features.std(axis=0) + 0.1
    sizes = [sample_features.shape[1], *hidden, len(CLASSES)]
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
    start = time.process_time()
    progress = 0.0
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        total = 0.0
        for s in range(0, len(y), batch):
            progress = max((epoch + s / len(y)) / epochs, (time.process_time() - start) / budget_seconds)
            if progress >= 1.0:
                break
            lr = lr_max * (0.5 * (1 + np.cos(np.pi * progress)))
            idx = order[s:s + batch]
            yb = y[idx]
            xb = (features(augment(x[idx], rng)) - mean) / std
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
            if step % 50 == 0:
                flush_subnormal([*params, *m, *v])
        log(f"epoch {epoch + 1}: loss {total / len(y):.4f} ({time.process_time() - start:.0f} CPU-s)")
        if progress >= 1.0:
            log("time budget reached")
            break
    flush_subnormal(params)
    out = {"mean": mean.astype(np.float32), "std": std.astype(np.float32)}
    for i in range(0, len(params), 2):
        out[f"w{i // 2}"] = params[i]
        out[f"b{i // 2}"] = params[i + 1]
    return out


def flush_subnormal(arrays: list[np.ndarray]) -> None:
    """Set subnormal values to 0, in place. numpy runs without flush-to-zero, and weight
    decay and Adam's decaying moments leave many weights and moments subnormal (in the nineteenth
    session's run a quarter of ``w0`` and half of ``w1``): every product touching them then runs
    several times slower — training epochs went from 27 to 211 CPU-s, and the reader with the
    network read 2.9 dev photos per CPU-second instead of 6.5. Each such value is below 1.2e-38
    (float32): with that network's subnormal weights set to 0 the reader read dev alike."""
    for a in arrays:
        a[np.abs(a) < np.finfo(a.dtype).tiny] = 0.0


def augment(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each patch moved, scaled, turned and sheared a little (what the line fit gets slightly wrong),
    and a quarter of them with strokes made thicker or thinner (pens and binarisation differ).
    One interpolation for the whole batch."""
    n = len(x)
    centre = (PATCH - 1) / 2
    angle = rng.normal(0, 0.08, n)
    scale = rng.uniform(0.88, 1.12, n)
    shear = rng.normal(0, 0.1, n)
    c, s = np.cos(angle) / scale, np.sin(angle) / scale
    shift = rng.normal(0, 1.0, (n, 2))
    yy, xx = np.mgrid[0:PATCH, 0:PATCH].astype(np.float64) - centre
    # Output pixel (y, x) samples the input at matrix @ (y, x) + centre + shift, per patch.
    src_y = c[:, None, None] * yy + (-s + shear)[:, None, None] * xx + centre + shift[:, 0, None, None]
    src_x = s[:, None, None] * yy + c[:, None, None] * xx + centre + shift[:, 1, None, None]
    index = np.broadcast_to(np.arange(n, dtype=np.float64)[:, None, None], src_y.shape)
    out = ndimage.map_coordinates(x.reshape(n, PATCH, PATCH), [index, src_y, src_x], order=1, mode="constant")
    jitter = rng.random(n)
    thick = jitter < 0.12
    thin = (jitter >= 0.12) & (jitter < 0.25) & (out.reshape(n, -1).sum(axis=1) > 40)
    if thick.any():
        out[thick] = ndimage.grey_dilation(out[thick], size=(1, 2, 2))
    if thin.any():
        out[thin] = ndimage.grey_erosion(out[thin], size=(1, 2, 2))
    return out.reshape(n, -1).astype(np.float32)


def accuracy(weights: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray) -> float:
    """Share of patches whose most probable class is right."""
    return float((forward(weights, x).argmax(axis=1) == y).mean())
