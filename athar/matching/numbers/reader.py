"""Reading the numbers written in archive photos (issue 29): athar's own small reader.

Plain Python (numpy, scipy, Pillow); the weights are a small numpy file in ``models/`` with their
provenance. Steps, each cheap enough for several photos per CPU-second at 1,000 px:

1. **Ink.** Grey levels, a light blur, then two local thresholds, each read in full: Sauvola's (a
   pixel is ink when darker than its neighbourhood by a margin that scales with the local
   contrast: clean strokes on cards) and a contrast-relative one (darker than the neighbourhood's
   mean by a fraction of its standard deviation: faded ink on dark skin in a dim photo, which
   Sauvola's absolute margin loses). Where both passes read a number, the more confident stays.
2. **Characters.** Connected components of ink whose size and fill could be a written character.
3. **Lines.** Components of similar size close to one another (a k-d tree) are joined; a group of
   three or more is a line, its direction the principal axis of the members' centres (any rotation).
4. **Glyphs.** Each member is resampled upright into a 24×24 patch whose scale is the line's
   character height (so a small Arabic-Indic zero stays small), once per reading direction.
5. **Classes.** A small network (two hidden layers, on the patch's pixels and a 5×5 grid of
   gradient-direction histograms) gives each patch a class: a Western or
   Arabic-Indic digit, the word فرع, or not a character. The direction whose glyphs are more
   confidently characters is kept; runs of 3–8 digits become numbers, in one script.
6. **Confidence.** A number's confidence is its weakest digit's probability (and no more than the
   probability that the glyphs just before and after it are not digits); only readings at or
   above the threshold chosen on the dev set are returned (what athar would suggest to a person).
   A number followed by the word فرع is a branch number; others have no kind.
7. **Confirmation.** When the weights hold a line recogniser too (``crnn_*`` arrays: the shipped
   file does), each reading at ≥ ``agree_from`` (0.3, or the file's own: the shipped one stores
   0.1) has its line read again by it (``line_reader``); the same text over the same place makes
   the reading surer (``NumberReader._agree``). A file storing ``agree_partial`` < 1 (eleventh
   session) also reads the line cut wider: a reading inside a longer run of digits there lost a
   digit at an end and is not confirmed. A file holding only a line recogniser reads with it alone.
8. **Ink past the end** (twelfth session). A file storing ``beyond`` < 1 multiplies a glyph
   reading by it when a character-sized component that is no member of its line lies just past
   an end of the run (``ink_past_run``: a digit lost to the grouping, an Arabic-Indic zero's dot),
   and one storing ``agree_unconfirmed`` < 1 multiplies a checked reading the line recogniser does
   not read alike. The shipped file stores both (0 and 0.9), with its rule, chosen on dev.
9. **Calibrated confidence** (twenty-second session: what the shipped reader does). Instead of
   multiplying the numbers of steps 6–8 together by hand (``agreed``, the weights' rule), each
   glyph reading under each ink mask keeps them as its evidence (``NumberReader.evidence``), and
   a logistic regression fitted on photos drawn like dev's (``calibration.py``, the calibrator in
   ``models/calibrator.json``) turns them into the probability that the reading is right, which
   is the confidence a reading reports. Each place keeps its most probable reading; those at or
   above the calibrator's threshold (chosen on dev) are suggested. Without a calibrator
   (``calibrator=None``) the reader uses the weights' own rule of steps 6–8.
10. **The line recogniser's own readings** (twenty-fourth session). The calibrator says which
   lines the line recogniser reads (``Calibration.line_from``: the shipped one, every line on which
   the glyph network reads a number at all), and what it reads there that no glyph reading reads
   alike is a candidate too (``calibration.line_candidates``), weighed with its own evidence: its
   confidence, what the glyph network reads there instead, ink past it, a longer run of the line
   cut wider. Handwriting the glyph network misreads by a digit is read whole by the line recogniser.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image
from scipy import ndimage
from scipy.spatial import cKDTree

from athar.matching.numbers.calibration import (
    CALIBRATOR_PATH,
    EVERY_LINE,
    GLYPH,
    LINE,
    NO_FIT,
    Calibration,
    Evidence,
    line_candidates,
)
from athar.matching.numbers.evaluation import overlap

MODEL_PATH = Path(__file__).with_name("models") / "digits.npz"
PATCH = 24
CLASSES = [f"W{d}" for d in range(10)] + [f"A{d}" for d in range(10)] + ["WORD", "NOISE"]
WORD = CLASSES.index("WORD")
NOISE = CLASSES.index("NOISE")
CUT_READ = (None, "digit", "wide")  # NumberReader's cut_read (twenty-eighth session; None in the product)
AGREE_FROM = 0.3  # glyph readings at least this sure are checked by the line recogniser, if the weights hold one
AGREE_DOUBT = 0.3  # chosen on the dev set among 1, 0.5, 0.3, 0.1, 0.03 (the largest with the most found)
AGREE_ALONE = 0.0  # the line recogniser's own readings of a checked line are candidates at this factor (0: none)
AGREE_PARTIAL = 1.0  # a glyph reading that a longer digit run of the line, cut wider, contains: × this (1: not checked)
AGREE_UNCONFIRMED = 1.0  # a checked glyph reading the line recogniser does not read alike: × this (1: as it is)
BEYOND = 1.0  # a glyph reading with ink of no member just past an end of its run, on its line: × this (1: not checked)
RULE = ("agree_from", "agree_doubt", "agree_alone", "agree_partial", "agree_unconfirmed", "beyond")  # a weights file may store its own (chosen on dev with it)
MAX_SIDE = 1400  # larger photos are read at this size (boxes are given in the photo's pixels)


@dataclass
class Reading:
    """One number read in a photo: Western digits, confidence 0–1, box [x0, y0, x1, y1], kind."""

    text: str
    confidence: float
    box: list[int]
    kind: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.text, "confidence": round(self.confidence, 3), "box": self.box, "kind": self.kind}


@dataclass
class Glyphs:
    """The candidate characters of one line: two-channel patches (the component's mask, then the
    grey ink darkness around it) in both reading directions, their boxes and their pixels."""

    patches: np.ndarray          # (n, 2*PATCH*PATCH) upright, in reading order: mask, then grey
    flipped: np.ndarray          # (n, 2*PATCH*PATCH) the same line read the other way round
    boxes: np.ndarray            # (n, 4) image boxes, in the upright reading order
    components: list[int]        # label of each member in the component image
    pixels: list[tuple[np.ndarray, np.ndarray]]  # (xs, ys) of each window's ink, for the training labels
    wide: list[bool]             # whether the window is a member wider than a character (maybe merged)
    pieces: list[int]            # how many windows a member was cut into (1: whole)


def ink_mask(gray: np.ndarray, window: int = 31, k: float = 0.2) -> np.ndarray:
    """Sauvola's threshold on a lightly blurred grey image (0–1): True where ink."""
    return sauvola(sauvola_statistics(gray, window), k)


SauvolaStatistics = tuple[np.ndarray, np.ndarray, np.ndarray, float]  # blurred grey, local mean, std, scale


def sauvola_statistics(gray: np.ndarray, window: int = 31) -> SauvolaStatistics:
    """What Sauvola's threshold reads of a grey image (0–1), whatever its ``k``: the image lightly
    blurred, each pixel's window mean and standard deviation, and the image's bright level (its
    99.5th percentile). ``ink_mask`` and ``faint_ink_mask`` share them (``ink_masks``)."""
    g = ndimage.gaussian_filter(gray, 0.8)
    mean, std = _local_mean_std(g, window)
    return g, mean, std, max(float(np.percentile(g, 99.5)), 0.05)


def sauvola(statistics: SauvolaStatistics, k: float = 0.2) -> np.ndarray:
    """Sauvola's threshold with margin ``k`` from ``sauvola_statistics`` (which it leaves as they
    are): True where ink."""
    g, mean, std, scale = statistics
    threshold = std / (0.5 * scale)  # mean * (1 + k * (std / (0.5 * scale) - 1)), in place
    threshold -= 1
    threshold *= k
    threshold += 1
    threshold *= mean
    return (g < threshold) & (std > 0.025 * scale)


def _local_mean_std(g: np.ndarray, window: int) -> tuple[np.ndarray, np.ndarray]:
    """The mean and standard deviation of each pixel's window (in place where possible: the
    masks are half of a photo's reading time)."""
    mean = ndimage.uniform_filter(g, window)
    sq = ndimage.uniform_filter(g * g, window)
    sq -= mean * mean
    np.maximum(sq, 0.0, out=sq)
    return mean, np.sqrt(sq, out=sq)


def contrast_mask(gray: np.ndarray, window: int = 25, k: float = 0.6, floor: float = 0.012) -> np.ndarray:
    """Ink relative to the local contrast (Niblack-like, with a noise floor): True where a pixel is
    darker than its neighbourhood's mean by ``k`` of its standard deviation. Unlike Sauvola's it
    needs no absolute margin, so faded ink on dark skin in a dim photo is still ink."""
    g = ndimage.gaussian_filter(gray, 1.0)
    mean, std = _local_mean_std(g, window)
    below = np.maximum(std, floor)
    below *= k
    np.subtract(mean, below, out=below)
    return (g < below) & (std > floor)


def faint_ink_mask(gray: np.ndarray) -> np.ndarray:
    """Sauvola's threshold with half its margin (k 0.1): faded, thin or broken strokes that
    ``ink_mask`` cuts into pieces too small to be characters stay whole (seventeenth session: of the
    dev set's first 60 photos, the numbers some candidate line holds whole 86.1 → 89.6 %; the
    variant chosen among seven on dev, benchmarks/numbers/coverage.py)."""
    return ink_mask(gray, k=FAINT_K)


FAINT_K = 0.1

# the reader reads each photo once per mask and keeps the best
INK_MASKS = (ink_mask, contrast_mask, faint_ink_mask)
_SAUVOLA_K = {ink_mask: 0.2, faint_ink_mask: FAINT_K}  # the masks that differ only by Sauvola's k


def ink_masks(gray: np.ndarray) -> list[np.ndarray]:
    """Each of ``INK_MASKS`` applied to the grey image, in order, the same masks bit for bit;
    ``ink_mask`` and ``faint_ink_mask`` differ only by Sauvola's margin, so their blur, window
    statistics and percentile are computed once (twenty-fifth session: they were a seventh of a
    photo's reading time twice over)."""
    shared: list[SauvolaStatistics] = []
    out = []
    for make in INK_MASKS:
        k = _SAUVOLA_K.get(make)
        if k is None:
            out.append(make(gray))
            continue
        if not shared:
            shared.append(sauvola_statistics(gray))
        out.append(sauvola(shared[0], k))
    return out


def components(mask: np.ndarray) -> tuple[np.ndarray, list[tuple[int, slice, slice, int]]]:
    """Labelled components and the character-sized ones: (label, rows, cols, area)."""
    labels, count = ndimage.label(mask, structure=np.ones((3, 3), bool))
    if count == 0:
        return labels, []
    areas = np.bincount(labels.ravel())[1:]
    objects = ndimage.find_objects(labels)  # labels run 1…count: none is None
    bounds = np.array([(sl[0].start, sl[0].stop, sl[1].start, sl[1].stop) for sl in objects]).reshape(-1, 4)
    h, w = bounds[:, 1] - bounds[:, 0], bounds[:, 3] - bounds[:, 2]
    side, thin = np.maximum(h, w), np.minimum(h, w)
    character = (side >= 3) & (side <= 110) & (areas >= 6) & (areas >= 0.06 * h * w) & (thin >= 2)
    dot = (side >= 2) & (side < 3) & (areas >= 4)
    kept = []
    for i in np.flatnonzero(character | dot).tolist():
        rows, cols = objects[i]
        kept.append((i + 1, rows, cols, int(areas[i])))
    return labels, kept


def lines(kept: list[tuple[int, slice, slice, int]], link: float = 1.5) -> list[list[int]]:
    """Groups of candidate indices that lie close together with comparable sizes (3 or more)."""
    if len(kept) < 3:
        return []
    centres = np.array([((sl_c.start + sl_c.stop) / 2, (sl_r.start + sl_r.stop) / 2)
                        for _, sl_r, sl_c, _ in kept])
    sides = np.array([max(sl_r.stop - sl_r.start, sl_c.stop - sl_c.start) for _, sl_r, sl_c, _ in kept], float)
    tree = cKDTree(centres)
    parent = list(range(len(kept)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    pairs = tree.query_pairs(r=float(sides.max()) * link, output_type="ndarray")
    if len(pairs):
        i, j = pairs[:, 0], pairs[:, 1]
        big, small = np.maximum(sides[i], sides[j]), np.minimum(sides[i], sides[j])
        distance = np.hypot(*(centres[i] - centres[j]).T)
        # An Arabic-Indic zero is a dot about a quarter of a digit's height: no more than 7× smaller.
        linked = (big <= 7 * small) & (distance <= link * big) & ((small >= 0.45 * big) | (big <= 60))
        for a, b in pairs[linked]:
            parent[find(int(a))] = find(int(b))
    groups: dict[int, list[int]] = {}
    for i in range(len(kept)):
        groups.setdefault(find(i), []).append(i)
    return [g for g in groups.values() if 3 <= len(g) <= 40]


def sample_smoothed(gray: np.ndarray, gx: np.ndarray, gy: np.ndarray, pad: int, factor: float) -> np.ndarray | None:
    """The grey image sampled (bilinear) at the points ``gx``, ``gy`` (any shape; the result has it),
    from the window around them padded by ``pad`` pixels and smoothed first when it is shrunk by
    more than 1.5 (``factor``: image pixels per sample), so a thin stroke does not fall between the
    samples; None when the points lie outside the image."""
    r0 = max(0, int(np.floor(gy.min())) - pad)
    r1 = min(gray.shape[0], int(np.ceil(gy.max())) + pad + 1)
    c0 = max(0, int(np.floor(gx.min())) - pad)
    c1 = min(gray.shape[1], int(np.ceil(gx.max())) + pad + 1)
    if r1 <= r0 or c1 <= c0:
        return None
    local = gray[r0:r1, c0:c1]
    if factor > 1.5:
        local = ndimage.gaussian_filter(local, 0.5 * factor)
    return ndimage.map_coordinates(local, [gy - r0, gx - c0], order=1, mode="nearest")


def grey_patches(gray: np.ndarray, gxs: np.ndarray, gys: np.ndarray, factor: float) -> np.ndarray:
    """The ink darkness (0 background … 1 darkest ink) of the grey image sampled on each window's
    grid (``gxs``, ``gys``: (n, PATCH, PATCH)), relative to the window's own background (its 70th
    percentile) and darkest ink, so a faded stroke on dark skin and a black one on a card look
    alike. Blurred digits stay readable here even where binarisation merged them into one blob.
    The line's crop is smoothed once (``factor``: image pixels per patch pixel)."""
    n = len(gxs)
    sampled = sample_smoothed(gray, gxs, gys, 2 + int(2 * factor), factor)
    if sampled is None:
        return np.zeros((n, PATCH * PATCH), np.float32)
    v = sampled.reshape(n, -1)
    hi = np.percentile(v, 70, axis=1, keepdims=True)
    lo = v.min(axis=1, keepdims=True)
    return np.clip((hi - v) / np.maximum(hi - lo, 0.03), 0.0, 1.0).astype(np.float32)


def blobs(labels: np.ndarray, kept: list[tuple[int, slice, slice, int]], grouped: list[list[int]],
          elongation: float = 2.2) -> list[list[int]]:
    """Lone components, in no line, long and narrow like a few characters blur ran together: each
    is read as a line of one member, cut into character-wide windows where it reads as none."""
    inline = {i for group in grouped for i in group}
    out = []
    for i, (label, sl_r, sl_c, area) in enumerate(kept):
        h, w = sl_r.stop - sl_r.start, sl_c.stop - sl_c.start
        if i in inline or max(h, w) < 24 or area < 60:
            continue
        ys, xs = np.nonzero(labels[sl_r, sl_c] == label)
        values = np.linalg.eigvalsh(np.cov(np.stack([xs, ys]).astype(float)))
        if values[0] > 0 and values[1] >= elongation ** 2 * values[0] and 2 * math.sqrt(values[0]) >= 3:
            out.append([i])
    return out


def glyphs(labels: np.ndarray, kept: list[tuple[int, slice, slice, int]], group: list[int],
           gray: np.ndarray | None = None, split: set[int] | None = None) -> Glyphs | None:
    """Upright two-channel patches of a line's members (scale: the line's character height). A
    member whose component label is in ``split`` is cut along the line into character-wide windows
    (blur merges neighbouring digits into one component)."""
    pts = []
    for i in group:
        label, sl_r, sl_c, _ = kept[i]
        ys, xs = np.nonzero(labels[sl_r, sl_c] == label)
        pts.append((xs + sl_c.start, ys + sl_r.start))
    centres = np.array([(float(x.mean()), float(y.mean())) for x, y in pts])
    weights = np.array([len(x) for x, _ in pts], float)
    big = weights >= 0.3 * np.median(weights)
    basis = centres[big] if big.sum() >= 2 else centres
    mean = basis.mean(axis=0)
    if len(group) == 1:  # a lone blob (digits merged by blur): the axis of its own pixels
        x, y = pts[0]
        mean = np.array([float(x.mean()), float(y.mean())])
        cov = np.cov(np.stack([x - mean[0], y - mean[1]]))
    else:
        cov = np.cov((basis - mean).T) if len(basis) >= 2 else np.eye(2)
    values, vectors = np.linalg.eigh(cov)
    ux, uy = vectors[:, int(np.argmax(values))]
    # Project every member on the line (u) and across it (v).
    ext, us, member_box = member_extents(pts, mean, ux, uy)
    heights = ext[:, 3] - ext[:, 2]
    height = float(np.median(heights[big])) if big.any() else float(np.median(heights))
    if height < 4:
        return None
    line_v = float(np.median(((ext[:, 2] + ext[:, 3]) / 2)[big]))
    order = np.argsort((ext[:, 0] + ext[:, 1]) / 2)
    patches, boxes, comps, pixels, wide, pieces = [], [], [], [], [], []
    grids = []
    grid = (np.arange(PATCH) + 0.5) / PATCH - 0.5
    for k in order:
        label, sl_r, sl_c, _ = kept[group[k]]
        u0, u1, _v0, _v1 = ext[k]
        width = u1 - u0 + 1
        count = 1
        if split and label in split:
            count = max(2, min(8, round(width / (0.75 * height))))
        for piece in range(count):
            a = u0 + (u1 - u0 + 1) * piece / count
            b = u0 + (u1 - u0 + 1) * (piece + 1) / count - 1
            side = 1.25 * max(height, b - a + 1)
            cu = (a + b) / 2
            gu, gv = (cu + grid * side)[None, :], (line_v + grid * side)[:, None]  # the patch's grid, broadcast
            gx = mean[0] + gu * ux - gv * uy
            gy = mean[1] + gu * uy + gv * ux
            factor = side / PATCH  # image pixels per patch pixel
            pad = 2 + int(factor)
            r0, c0 = max(0, sl_r.start - pad), max(0, sl_c.start - pad)
            local = (labels[r0:sl_r.stop + pad, c0:sl_c.stop + pad] == label).astype(np.float32)
            if factor > 1.5:  # smooth before shrinking, or a thin stroke falls between the samples
                local = ndimage.gaussian_filter(local, 0.5 * factor)
            patch = ndimage.map_coordinates(local, [gy - r0, gx - c0], order=1, mode="constant", cval=0.0)
            peak = float(patch.max())
            if peak > 0:
                patch = np.minimum(patch / max(peak, 0.25), 1.0)
            patches.append(patch.ravel())
            grids.append((gx, gy))
            x, y = pts[k]
            if count == 1:  # the whole member
                px, py = x, y
                boxes.append(tuple(int(c) for c in member_box[k]))
            else:
                inside = (us[k] >= a - 0.5) & (us[k] <= b + 0.5)
                px, py = x[inside], y[inside]
                if len(px):
                    boxes.append((int(px.min()), int(py.min()), int(px.max()) + 1, int(py.max()) + 1))
                else:
                    boxes.append((sl_c.start, sl_r.start, sl_c.stop, sl_r.stop))
            comps.append(label)
            pixels.append((px, py))
            wide.append(bool(width > 1.35 * height))
            pieces.append(count)
    mask_patches = np.array(patches, np.float32)
    if gray is not None:
        grey = grey_patches(gray, np.array([g[0] for g in grids]), np.array([g[1] for g in grids]),
                            1.25 * height / PATCH)
    else:
        grey = np.zeros_like(mask_patches)
    upright = np.concatenate([mask_patches, grey], axis=1)
    n = len(upright)
    flipped = upright.reshape(n, 2, PATCH, PATCH)[::-1, :, ::-1, ::-1].reshape(n, -1)
    return Glyphs(upright, np.ascontiguousarray(flipped), np.array(boxes), comps, pixels, wide, pieces)


def member_extents(pts: list[tuple[np.ndarray, np.ndarray]], mean: np.ndarray, ux: float,
                   uy: float) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
    """Each member's pixels (xs, ys) projected along a line through ``mean`` with direction
    (``ux``, ``uy``): its extent (u min, u max, v min, v max: u along, v across), each pixel's u,
    and its box in the photo (x0, y0, x1, y1). All members' pixels at once, each member's extent a
    reduction over its own slice (min and max are exact in any order: the same numbers as one
    member at a time, in a fraction of the time)."""
    xs = np.concatenate([x for x, _ in pts])
    ys = np.concatenate([y for _, y in pts])
    starts = np.cumsum([0] + [len(x) for x, _ in pts[:-1]])
    u = (xs - mean[0]) * ux + (ys - mean[1]) * uy
    v = -(xs - mean[0]) * uy + (ys - mean[1]) * ux
    ext = np.stack([np.minimum.reduceat(u, starts), np.maximum.reduceat(u, starts),
                    np.minimum.reduceat(v, starts), np.maximum.reduceat(v, starts)], axis=1)
    box = np.stack([np.minimum.reduceat(xs, starts), np.minimum.reduceat(ys, starts),
                    np.maximum.reduceat(xs, starts) + 1, np.maximum.reduceat(ys, starts) + 1], axis=1)
    return ext, np.split(u, starts[1:]), box


HOG_CELLS, HOG_BINS = 5, 8


def features(x: np.ndarray) -> np.ndarray:
    """A patch's network input: its pixels and a histogram of gradient directions over a 5×5 grid
    of cells (which tolerates stroke width and small shifts better than pixels do)."""
    p = x.reshape(-1, PATCH, PATCH)
    gy = p[:, 2:, 1:-1] - p[:, :-2, 1:-1]
    gx = p[:, 1:-1, 2:] - p[:, 1:-1, :-2]
    cell = (PATCH - 2) // HOG_CELLS
    side = cell * HOG_CELLS
    gy, gx = gy[:, :side, :side], gx[:, :side, :side]
    magnitude = np.sqrt(gx * gx + gy * gy)
    direction = ((np.arctan2(gy, gx) + np.pi) / (2 * np.pi) * HOG_BINS).astype(np.int32) % HOG_BINS
    onehot = (direction[..., None] == np.arange(HOG_BINS)) * magnitude[..., None]
    hog = onehot.reshape(len(p), HOG_CELLS, cell, HOG_CELLS, cell, HOG_BINS).sum(axis=(2, 4))
    return np.concatenate([x.reshape(len(p), -1), hog.reshape(len(p), -1).astype(np.float32) * 0.25], axis=1)


def forward(weights: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """The network's logits for rows of two-channel patches: the convolutional network (weights
    ``c0w c0b … f0w f0b …``) on both channels, or the older perceptron (``w0 b0 …``) on the mask."""
    if "c0w" in weights:
        return forward_cnn(weights, x)
    depth = sum(1 for k in weights if k.startswith("w"))
    h = (features(x[:, :PATCH * PATCH]) - weights["mean"]) / weights["std"]
    for i in range(depth):
        h = h @ weights[f"w{i}"] + weights[f"b{i}"]
        if i < depth - 1:
            h = np.maximum(h, 0.0)
    return h


def _conv3_pool(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 3×3 convolution with one pixel of zero padding (as a matrix product over shifted copies,
    im2col), then 2×2 max pooling and ReLU: x (n, c, h, w), w (out, c, 3, 3) → (n, out, h/2, w/2)."""
    n, c, h, wd = x.shape
    padded = np.zeros((n, c, h + 2, wd + 2), np.float32)
    padded[:, :, 1:-1, 1:-1] = x
    cols = np.empty((n, c, 9, h, wd), np.float32)
    for dy in range(3):
        for dx in range(3):
            cols[:, :, dy * 3 + dx] = padded[:, :, dy:dy + h, dx:dx + wd]
    out = np.matmul(w.reshape(len(w), -1), cols.reshape(n, c * 9, h * wd)) + b[:, None]
    out = out.reshape(n, len(w), h // 2, 2, wd // 2, 2)
    pooled = np.maximum(np.maximum(out[:, :, :, 0, :, 0], out[:, :, :, 0, :, 1]),
                        np.maximum(out[:, :, :, 1, :, 0], out[:, :, :, 1, :, 1]))
    return np.maximum(pooled, 0.0)


def forward_cnn(weights: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """Logits of the small convolutional network (trained with torch by ``benchmarks/numbers/
    train_cnn.py``, run here with numpy only): 3×3 convolutions with ReLU and 2×2 max pooling on
    the two-channel 24×24 window, then fully connected ReLU layers."""
    h = x.reshape(len(x), 2, PATCH, PATCH).astype(np.float32)
    i = 0
    while f"c{i}w" in weights:
        h = _conv3_pool(h, weights[f"c{i}w"], weights[f"c{i}b"])
        i += 1
    flat = h.reshape(len(h), -1)
    depth = sum(1 for k in weights if k.startswith("f") and k.endswith("w"))
    for j in range(depth):
        flat = flat @ weights[f"f{j}w"] + weights[f"f{j}b"]
        if j < depth - 1:
            flat = np.maximum(flat, 0.0)
    return flat


class Classifier:
    """The glyph network, softmax: the small convolutional network on both channels (``c0w …``),
    the older perceptron on the mask channel (``w0 …``), or both averaged when the file holds both."""

    def __init__(self, path: Path = MODEL_PATH) -> None:
        with np.load(path) as data:
            self.weights = {k: data[k] for k in data.files if k != "threshold" and k not in RULE}
            self.threshold = float(data["threshold"]) if "threshold" in data else 0.9
            self.rule = {k: float(data[k]) for k in RULE if k in data}
        self.lines = {k: v for k, v in self.weights.items() if k.startswith("crnn_")}
        self.cnn = {k: v for k, v in self.weights.items() if k[0] in "cf" and not k.startswith("crnn_")}
        self.mlp = {k: v for k, v in self.weights.items() if k[0] in "wb" or k in ("mean", "std")}
        self.glyphs = bool(self.cnn or self.mlp)

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """Class probabilities for rows of patches."""
        x = x.astype(np.float32)
        nets = [w for w in (self.cnn, self.mlp) if w]
        p = _softmax(forward(nets[0], x))
        for w in nets[1:]:
            p += _softmax(forward(w, x))
        return p / len(nets)


def _softmax(h: np.ndarray) -> np.ndarray:
    h = h - h.max(axis=1, keepdims=True)
    e = np.exp(h)
    return e / e.sum(axis=1, keepdims=True)


def _direction_score(p: np.ndarray) -> float:
    """How confidently a line's glyphs are characters when read this way round."""
    chars = p[:, :NOISE]
    return float(np.log(chars.max(axis=1) + 1e-6).sum())


@dataclass
class Run:
    """A run of 3–8 digits on a line, with what its confidence is made of (``decode`` returns the
    first four; ``benchmarks/numbers/calibrate.py`` weighs the rest)."""

    text: str
    confidence: float  # the weakest digit's probability, no more than ``edge``
    box: list[int]
    kind: str | None
    digit_min: float   # the weakest digit's probability
    digit_mean: float  # the digits' mean probability
    edge: float        # how sure the glyphs just before and after the run are no digit (1: none there)
    arabic: bool       # read in Arabic-Indic digits


def decode_runs(p: np.ndarray, boxes: np.ndarray) -> list[Run]:
    """Numbers in one line: runs of 3–8 digits in one script, with the weakest digit's probability."""
    best = p.argmax(axis=1)
    out = []
    i = 0
    n = len(best)
    while i < n:
        if best[i] >= WORD:
            i += 1
            continue
        j = i
        while j < n and best[j] < WORD:
            j += 1
        run = p[i:j]
        if 3 <= j - i <= 8:
            western = run[:, :10].sum()
            arabic = run[:, 10:20].sum()
            offset = 0 if western >= arabic else 10
            digits = run[:, offset:offset + 10]
            # A Western 1 and an Arabic-Indic ١ are one shape: count both for the digit 1.
            merged = digits.copy()
            merged[:, 1] = run[:, 1] + run[:, 11]
            text = "".join(str(int(d)) for d in merged.argmax(axis=1))
            sure = merged.max(axis=1)
            # A glyph just before or after the run that might be a digit makes the run possibly
            # incomplete: the reading is only as sure as that glyph is not a digit.
            edge = 1.0
            for k in (i - 1, j):
                if 0 <= k < n and best[k] != WORD:
                    edge = min(edge, float(p[k, WORD] + p[k, NOISE]))
            box = [int(boxes[i:j, 0].min()), int(boxes[i:j, 1].min()),
                   int(boxes[i:j, 2].max()), int(boxes[i:j, 3].max())]
            kind = "branch" if j < n and best[j] == WORD else None
            out.append(Run(text, min(float(sure.min()), edge), box, kind, float(sure.min()), float(sure.mean()),
                           edge, offset == 10))
        i = j
    return out


def decode(p: np.ndarray, boxes: np.ndarray) -> list[tuple[str, float, list[int], str | None]]:
    """Numbers in one line: runs of 3–8 digits in one script, with the weakest digit's probability."""
    return [(run.text, run.confidence, run.box, run.kind) for run in decode_runs(p, boxes)]


def gray_for_reading(image: Image.Image) -> tuple[np.ndarray, float]:
    """The photo in grey (0–1), shrunk to MAX_SIDE pixels at most, and the scale it was shrunk by."""
    gray_image = image.convert("L")
    scale = 1.0
    if max(gray_image.size) > MAX_SIDE:
        scale = MAX_SIDE / max(gray_image.size)
        gray_image = gray_image.resize((round(gray_image.width * scale), round(gray_image.height * scale)),
                                       Image.Resampling.BILINEAR)
    return np.asarray(gray_image, np.float32) / 255.0, scale


class NumberReader:
    """Reads numbers in photos; returns those at or above the confidence threshold.

    With a calibrator (``calibration.py``; the shipped one by default) a reading's confidence is
    the calibrated probability that it is right, and the calibrator's threshold decides what is
    suggested. ``calibrator=None`` reads with the weights file's own hand-made rule (``agreed``,
    its threshold): for weights no calibrator was fitted on (the benchmarks that search them)."""

    def __init__(self, model_path: Path = MODEL_PATH, threshold: float | None = None,
                 calibrator: Path | None = CALIBRATOR_PATH, cut_read: str | None = None) -> None:
        self.classifier = Classifier(model_path)
        # Twenty-eighth session, measured and off in the product: wide members also read cut
        # (``_cut_version``; "digit": those read as a digit, "wide": all but the word فرع).
        if cut_read not in CUT_READ:
            raise ValueError(f"cut_read is one of {CUT_READ}")
        self.cut_read = cut_read
        self.calibration = Calibration.load(calibrator, model_path) if calibrator is not None else None
        if self.calibration is not None and not self.classifier.glyphs:
            raise ValueError("a calibrator weighs glyph readings: these weights hold no glyph network")
        own = self.calibration.threshold if self.calibration is not None else self.classifier.threshold
        self.threshold = own if threshold is None else threshold
        rule = self.classifier.rule
        self.agree_from = rule.get("agree_from", AGREE_FROM)
        self.agree_doubt = rule.get("agree_doubt", AGREE_DOUBT)
        self.agree_alone = rule.get("agree_alone", AGREE_ALONE)
        self.agree_partial = rule.get("agree_partial", AGREE_PARTIAL)
        self.agree_unconfirmed = rule.get("agree_unconfirmed", AGREE_UNCONFIRMED)
        self.beyond = rule.get("beyond", BEYOND)

    def read_path(self, path: Path) -> list[Reading]:
        """Numbers in the photo file (EXIF orientation is not applied: boxes are in stored pixels)."""
        with Image.open(path) as image:
            return self.read(image)

    def read_all_path(self, path: Path) -> list[Reading]:
        """Every candidate number in the photo file, whatever its confidence."""
        with Image.open(path) as image:
            return self.read_all(image)

    def read(self, image: Image.Image) -> list[Reading]:
        """Numbers in the photo at or above the threshold, most confident first."""
        return [r for r in self.read_all(image) if r.confidence >= self.threshold]

    def read_all(self, image: Image.Image) -> list[Reading]:
        """Every candidate number, whatever its confidence (for choosing the threshold): the most
        confident reading of each place (``one_per_place``)."""
        if self.calibration is not None:
            found = self.evidence(image)
            chances = self.calibration.probability(found)
            return [Reading(*c) for c in one_per_place(
                [(e.text, float(p), e.box, e.kind) for e, p in zip(found, chances, strict=True)])]
        gray, scale = gray_for_reading(image)
        if self.classifier.lines and not self.classifier.glyphs:  # the CRNN line recogniser alone (line_reader.py)
            from athar.matching.numbers.line_reader import read_lines

            candidates = read_lines(gray, self.classifier.lines)
        else:
            candidates = [c for mask in ink_masks(gray) for c in self._read_mask(mask, gray)]
        if scale != 1.0:
            candidates = [(text, c, [round(v / scale) for v in box], kind) for text, c, box, kind in candidates]
        return [Reading(*candidate) for candidate in one_per_place(candidates)]

    def evidence(self, image: Image.Image, line_from: float | None = None, fit: bool = False) -> list[Evidence]:
        """Every reading of the photo under each ink mask with what the calibrator weighs (boxes in
        the photo's pixels): the glyph readings and the line recogniser's own. ``line_from``: the
        lines the line recogniser reads (those whose best glyph reading is at least that sure; −1:
        every line); by default the calibrator's, without one the weights' ``agree_from``. With
        ``fit`` each glyph reading of a line the line recogniser read also keeps ``Evidence.fit``
        (``lines.text_fit``; twenty-seventh session: measured, not weighed by the shipped calibrator)."""
        if line_from is None:
            line_from = self.calibration.line_from if self.calibration is not None else self.agree_from
        gray, scale = gray_for_reading(image)
        found = [e for index, mask in enumerate(ink_masks(gray))
                 for e in self._evidence(index, mask, gray, line_from, fit)]
        if scale != 1.0:
            for e in found:
                e.box = [round(v / scale) for v in e.box]
        return found

    def _evidence(self, index: int, mask: np.ndarray, gray: np.ndarray, line_from: float,
                  fit: bool = False) -> list[Evidence]:
        """The readings of one ink mask (``INK_MASKS[index]``) with their evidence: for each line,
        the glyph network's readings with its probabilities and ink past the run, and — for a line
        whose best glyph reading is at least ``line_from`` sure (−1: every line) — the line
        recogniser's reading of the same place, of the line cut wider, and its own readings that
        no glyph reading reads alike (``calibration.line_candidates``): what ``agreed`` multiplies
        together by hand, kept apart for the calibrator."""
        from athar.matching.numbers.line_reader import read_each

        found = []
        for labels, kept, group, versions in self.line_versions(mask, gray):
            runs = _version_runs(versions)
            if runs or line_from <= EVERY_LINE:
                best = max((r.confidence for r in runs), default=EVERY_LINE)
                placed = line_frame(labels, kept, group)
                checked = bool(self.classifier.lines) and placed[1] is not None and best >= line_from
                found.append((labels, kept, group, runs, best, placed, checked))
        paths: list[tuple[np.ndarray, np.ndarray]] = []
        frames = [f[5][1] for f in found if f[6]]
        if fit:
            read = iter(read_each(gray, frames, self.classifier.lines, paths=paths) if found else [])
        else:
            read = iter(read_each(gray, frames, self.classifier.lines) if found else [])
        fits = iter(paths if len(paths) == len(frames) else [None] * len(frames))  # filled only when asked
        out: list[Evidence] = []
        for labels, kept, group, runs, best, placed, checked in found:
            line = next(read) if checked else []
            path = next(fits) if checked else None
            if not runs and not line:
                continue
            frame = placed[1]
            wide = self._wide_runs(gray, frame) if checked else []
            height = frame.height if frame is not None else 0.0
            past = partial(ink_past_run, mask, labels, kept, group, placed=placed)
            out.extend(self._glyph_evidence(index, runs, line, wide, height, checked, best, past, path))
            out.extend(_line_evidence(index, runs, line, wide, height, best, past))
        return out

    def _wide_runs(self, gray: np.ndarray, frame: Any) -> list[tuple[str, list[int]]]:
        from athar.matching.numbers.line_reader import digit_runs

        return digit_runs(gray, frame, self.classifier.lines)

    @staticmethod
    def _glyph_evidence(index: int, runs: list[Run], line: list[Candidate], wide: list[tuple[str, list[int]]],
                        height: float, checked: bool, best: float, past: Callable[[list[int]], bool],
                        path: tuple[np.ndarray, np.ndarray] | None = None) -> list[Evidence]:
        """The glyph readings of one line with their evidence (``_evidence``); ``path``: the line
        recogniser's log-probabilities of the line, upright and turned round (``text_fit``)."""
        from athar.matching.numbers.lines import text_fit

        out = []
        for r in runs:
            fit = max(text_fit(path[0], r.text), text_fit(path[1], r.text)) if path is not None else NO_FIT
            here = [(lc, lt) for lt, lc, lb, _ in line if overlap(lb, r.box) >= 0.3]
            same = max((lc for lc, lt in here if lt == r.text), default=0.0)
            other, other_text = max(((lc, lt) for lc, lt in here if lt != r.text), default=(0.0, ""))
            h = height or float(min(r.box[2] - r.box[0], r.box[3] - r.box[1]))
            out.append(Evidence(r.text, r.box, r.kind, index, r.confidence, r.digit_min, r.digit_mean, r.edge,
                                r.arabic, past(r.box), checked, float(same), _partial(r.text, r.box, wide),
                                float(h), GLYPH, float(other), other_text, best, float(fit)))
        return out

    def _read_mask(self, mask: np.ndarray, gray: np.ndarray) -> list[tuple[str, float, list[int], str | None]]:
        """Candidate numbers found on one ink mask by the hand-made rule (no calibrator)."""
        found = []
        for labels, kept, group, p, boxes in self.line_probabilities(mask, gray):
            readings = decode(p, boxes)
            if self.beyond < 1 and readings:
                placed = line_frame(labels, kept, group)  # once for the line, not once per reading
                readings = [(t, c * self.beyond, b, k) if ink_past_run(mask, labels, kept, group, b, placed)
                            else (t, c, b, k) for t, c, b, k in readings]
            if self.classifier.lines and any(r[1] >= self.agree_from for r in readings):
                readings = self._agree(gray, labels, kept, group, readings)
            found.extend(readings)
        return found

    def line_probabilities(self, mask: np.ndarray, gray: np.ndarray) -> Iterator[
            tuple[np.ndarray, list[tuple[int, slice, slice, int]], list[int], np.ndarray, np.ndarray]]:
        """Each line of one ink mask — its labels, kept components and members — with its glyphs'
        class probabilities and boxes in reading order (the direction that reads better); what
        ``_read_mask`` decodes, and what ``benchmarks/numbers/calibrate.py`` records."""
        for labels, kept, group, versions in self.line_versions(mask, gray):
            p, boxes = versions[0]
            yield labels, kept, group, p, boxes

    def line_versions(self, mask: np.ndarray, gray: np.ndarray) -> Iterator[
            tuple[np.ndarray, list[tuple[int, slice, slice, int]], list[int], list[tuple[np.ndarray, np.ndarray]]]]:
        """Each line of one ink mask with its readings' (probabilities, boxes): first as
        ``line_probabilities`` reads it, then — with ``cut_read`` — the line with its wide members
        cut into character-wide windows too (``_cut_version``), for the readings to compete."""
        labels, kept = components(mask)
        grouped = lines(kept)
        # The grey channel, lone blobs and cut windows only for the convolutional network (trained
        # on them); the perceptron reads the mask channel of whole members, as it was trained.
        grey = bool(self.classifier.cnn)
        for group in grouped + (blobs(labels, kept, grouped) if grey else []):
            line = glyphs(labels, kept, group, gray if grey else None)
            if line is None:
                continue
            upright, flipped = self._both(line)
            # A member wider than a character that reads as no character either way round is
            # probably digits merged by blur: cut it into character-wide windows and read again.
            n = len(upright)
            merged = {line.components[i] for i in range(n) if grey and line.wide[i]
                      and upright[i].argmax() == NOISE and flipped[n - 1 - i].argmax() == NOISE}
            if merged:
                cut = glyphs(labels, kept, group, gray, split=merged)
                if cut is not None:
                    line = cut
                    upright, flipped = self._both(line)
            versions = [_oriented(line, upright, flipped)]
            if self.cut_read:
                versions.extend(self._cut_version(labels, kept, group, gray if grey else None, line, upright,
                                                  flipped, merged))
            yield labels, kept, group, versions

    def _cut_version(self, labels: np.ndarray, kept: list[tuple[int, slice, slice, int]], group: list[int],
                     gray: np.ndarray | None, line: Glyphs, upright: np.ndarray, flipped: np.ndarray,
                     merged: set[int]) -> list[tuple[np.ndarray, np.ndarray]]:
        """The line read again with members wider than a character (``Glyphs.wide``: more than 1.35
        line heights) not yet cut, cut into character-wide windows (twenty-eighth session): with
        ``cut_read`` "digit" those read as a digit (two printed digits blur merged read as one are
        never cut), with "wide" all but those read as the word فرع (the shipped perceptron's members
        are never cut at all: the cut of members read as no character is the convolutional
        network's). Both readings are kept; the calibrator and ``one_per_place`` keep the more
        probable. ``gray``: None for the perceptron, which reads the mask channel alone."""
        n = len(upright)
        up, down = upright.argmax(axis=1), flipped[::-1].argmax(axis=1)
        if self.cut_read == "digit":
            chosen = (up < WORD) | (down < WORD)
        else:
            chosen = (up != WORD) & (down != WORD)
        one = {line.components[i] for i in range(n) if line.wide[i] and line.pieces[i] == 1 and chosen[i]}
        if not one:
            return []
        cut = glyphs(labels, kept, group, gray, split=merged | one)
        if cut is None:
            return []
        return [_oriented(cut, *self._both(cut))]

    def _agree(
        self,
        gray: np.ndarray,
        labels: np.ndarray,
        kept: list[tuple[int, slice, slice, int]],
        group: list[int],
        readings: list[tuple[str, float, list[int], str | None]],
    ) -> list[tuple[str, float, list[int], str | None]]:
        """The line's glyph readings, each made surer when the line recogniser (``line_reader``)
        reads the same text over an overlapping box: two readers that fail differently (cutting
        glyphs; dropping a digit in CTC) rarely agree by chance. Confidence 1 − (1 − g)(1 − c)·d
        for glyph confidence g and the line recogniser's c, where d (``AGREE_DOUBT``) is how often
        two wrong readings would still agree; g alone when the line recogniser reads otherwise.
        With ``AGREE_ALONE`` a > 0 the line recogniser's own readings of the line are candidates
        too, at confidence c·a (where it reads a digit the glyphs misread). A weights file may
        hold its own ``agree_from``, ``agree_doubt`` and ``agree_alone`` (chosen on dev with it).
        With ``agree_partial`` p < 1 the line is also read cut wider (``line_reader.digit_runs``):
        a glyph reading inside a longer run of digits there is a partial one (a digit at an end
        was lost to the ink or the grouping, and both readers read the rest alike), not
        confirmed, and its confidence is g·p."""
        from athar.matching.numbers.line_reader import digit_runs, read_frames

        _pts, frame = line_frame(labels, kept, group)
        if frame is None:
            return agreed(readings, [], self.agree_from, self.agree_doubt, self.agree_alone,
                          unconfirmed=self.agree_unconfirmed)
        line = read_frames(gray, [frame], self.classifier.lines)
        runs = digit_runs(gray, frame, self.classifier.lines) if self.agree_partial < 1 else []
        return agreed(readings, line, self.agree_from, self.agree_doubt, self.agree_alone, runs, self.agree_partial,
                      self.agree_unconfirmed)

    def _both(self, line: Glyphs) -> tuple[np.ndarray, np.ndarray]:
        """Class probabilities of a line's windows read upright and the other way round."""
        both = self.classifier.probabilities(np.concatenate([line.patches, line.flipped]))
        n = len(line.patches)
        return both[:n], both[n:]


Candidate = tuple[str, float, list[int], str | None]  # text, confidence, box, kind

PAST_FROM, PAST_TO = 0.1, 0.9  # character heights past a run's end where a lost digit would be
PAST_INK = 0.02  # share of that window inked by no member of the line that counts as a lost digit


def line_frame(labels: np.ndarray, kept: list[tuple[int, slice, slice, int]],
               group: list[int]) -> tuple[list[tuple[np.ndarray, np.ndarray]], Any]:
    """A line's members' pixels and its frame (``lines.frame_of``; None when it has none)."""
    from athar.matching.numbers import lines as L
    from athar.matching.numbers.line_reader import points

    pts = points(labels, kept, group)
    return pts, L.frame_of(pts)


def ink_past_run(mask: np.ndarray, labels: np.ndarray, kept: list[tuple[int, slice, slice, int]],
                 group: list[int], box: list[int],
                 placed: tuple[list[tuple[np.ndarray, np.ndarray]], Any] | None = None) -> bool:
    """Whether a character-sized component that is no member of the line lies just past either end
    of a run, on the line (twelfth session). Most wrong suggestions were numbers with a digit lost
    at one end: an Arabic-Indic zero (a dot) too small or too far to join the line, a digit the
    grouping left out. Both readers then read the rest alike; the ink is still there, just past
    the run. Only character-sized components count: the dark around a card (a number written
    near its edge) and long pen strokes are not a lost digit. ``placed``: the line's pixels and
    frame (``line_frame``), when the caller has them already."""
    pts, frame = placed if placed is not None else line_frame(labels, kept, group)
    if frame is None:
        return False
    inside = [(x, y) for x, y in pts if box[0] <= x.mean() <= box[2] and box[1] <= y.mean() <= box[3]]
    if not inside:
        return False
    us = np.concatenate([(x - frame.x) * frame.ux + (y - frame.y) * frame.uy for x, y in inside])
    h = frame.height
    members = np.array([kept[i][0] for i in group])
    characters = np.array([k[0] for k in kept])  # character-sized: not a card's edge nor the dark around it
    step = max(1.0, h / 12)
    across = frame.v + np.arange(-0.5 * h, 0.5 * h + 1e-9, step)
    for start, sign in ((float(us.max()), 1.0), (float(us.min()), -1.0)):
        along = start + sign * np.arange(PAST_FROM * h, PAST_TO * h + 1e-9, step)
        gu, gv = np.meshgrid(along, across)
        gx, gy = frame.to_image(gu, gv)
        xi, yi = np.rint(gx).astype(int), np.rint(gy).astype(int)
        ok = (xi >= 0) & (yi >= 0) & (xi < mask.shape[1]) & (yi < mask.shape[0])
        if ok.mean() < 0.5:
            continue
        xi, yi = xi[ok], yi[ok]
        here = labels[yi, xi]
        foreign = mask[yi, xi] & np.isin(here, characters) & ~np.isin(here, members)
        if foreign.mean() >= PAST_INK:
            return True
    return False


def agreed(readings: list[Candidate], line: list[Candidate], agree_from: float, agree_doubt: float,
           agree_alone: float, runs: list[tuple[str, list[int]]] | None = None,
           agree_partial: float = 1.0, unconfirmed: float = 1.0) -> list[Candidate]:
    """A line's glyph readings combined with the line recogniser's readings of the same line
    (``NumberReader._agree``; ``benchmarks/numbers/rules.py`` searches the parameters). ``runs``:
    the digit runs of the line cut wider (``line_reader.digit_runs``); a glyph reading inside a
    longer one over its place is partial: g·``agree_partial``, unconfirmed. A checked reading
    (g ≥ ``agree_from``) the line recogniser does not read alike is g·``unconfirmed`` (twelfth
    session: with a convolutional glyph network measured then, not shipped, sure glyph readings
    the line recogniser confirmed were right 111 times of 112 on dev, those it did not 16 of 20;
    the shipped file, with the perceptron, stores 0.9, chosen on dev by ``rules.py``)."""
    out = []
    for text, g, box, kind in readings:
        if runs and any(len(rt) > len(text) and text in rt and overlap(rb, box) >= 0.3 for rt, rb in runs):
            out.append((text, g * agree_partial, box, kind))
            continue
        c = max((lc for lt, lc, lb, _ in line if lt == text and overlap(lb, box) >= 0.3), default=0.0)
        if g >= agree_from:
            g = 1 - (1 - g) * (1 - c) * agree_doubt if c > 0 else g * unconfirmed
        out.append((text, g, box, kind))
    if agree_alone > 0:
        out.extend((lt, lc * agree_alone, lb, lk) for lt, lc, lb, lk in line)
    return out


def _version_runs(versions: list[tuple[np.ndarray, np.ndarray]]) -> list[Run]:
    """The digit runs of a line's first reading, and those of its other readings (``line_versions``)
    that it does not read alike at the same place (the same text over half the box or more)."""
    runs = decode_runs(*versions[0])
    for p, boxes in versions[1:]:
        runs += [r for r in decode_runs(p, boxes)
                 if not any(o.text == r.text and overlap(o.box, r.box) >= 0.5 for o in runs)]
    return runs


def _partial(text: str, box: list[int], wide: list[tuple[str, list[int]]]) -> bool:
    """Whether a longer digit run of the line cut wider (``line_reader.digit_runs``) holds this one."""
    return any(len(rt) > len(text) and text in rt and overlap(rb, box) >= 0.3 for rt, rb in wide)


def _line_evidence(index: int, runs: list[Run], line: list[Candidate], wide: list[tuple[str, list[int]]],
                   height: float, best: float, past: Callable[[list[int]], bool]) -> list[Evidence]:
    """The line recogniser's own readings of one line (``calibration.line_candidates``) with their
    evidence (twenty-fourth session): its confidence, the glyph reading of another text over the
    place, ink past the reading, a longer run of the line cut wider; the glyph fields are 0."""
    out = []
    for text, c, box, kind, g, g_text in line_candidates([(r.text, r.confidence, r.box) for r in runs], line):
        out.append(Evidence(text, box, kind, index, 0.0, 0.0, 0.0, 0.0, False, past(box), True, float(c),
                            _partial(text, box, wide), float(height), LINE, float(g), g_text, best))
    return out


def _oriented(line: Glyphs, upright: np.ndarray, flipped: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A line's class probabilities and boxes in the reading direction that reads better."""
    if _direction_score(flipped) > _direction_score(upright):
        return flipped, line.boxes[::-1]
    return upright, line.boxes


def one_per_place(candidates: list[Candidate]) -> list[Candidate]:
    """The most confident candidate of each place (boxes overlapping by half or more are one place):
    the two ink masks and the line recogniser read the same number more than once."""
    kept: list[Candidate] = []
    for candidate in sorted(candidates, key=lambda c: -c[1]):
        if not any(overlap(candidate[2], other[2]) >= 0.5 for other in kept):
            kept.append(candidate)
    return kept

