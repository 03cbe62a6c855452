"""Training lines for the CRNN line recogniser (``athar/matching/numbers/lines.py``), in numpy.

    nice -n 10 python benchmarks/numbers/crnn_data.py photos /tmp/crnn/photos0.npz --photos 300 --part 0
    nice -n 10 python benchmarks/numbers/crnn_data.py render /tmp/crnn/render0.npz --lines 20000 --part 0

``photos``: training photos of ``synthetic.TRAINING`` (its fonts and damage; seeds 29500 + part, never
the dev sets' 2901/2902), every candidate line the reader would read (both ink masks, the
component lines and lone blobs) cut exactly as the reader cuts it (``lines.crop``), its tokens read
from the generator's glyph map in order along the line (lines with no written glyph are negatives
with no tokens; lines whose glyphs straddle the crop's edge or two text lines are dropped).
``render``: single lines drawn with ``synthetic.render_line`` (training fonts, handwriting wobble)
on grey backgrounds with textures, any dark or faded ink, blur, motion blur, noise, JPEG, a few
degrees of rotation, framed with jitter, and cut with the same ``lines.crop``; with ``--harsh F`` a
share F of them instead on coloured backgrounds (fabric, tiles, skin, paper) in blue, red, black or
any pen, faded, with uneven light, motion blur, pen strokes and JPEG, turned grey as the reader turns
a photo grey (``harsh_damage``; the training fonts only). Both write crops
(uint8, concatenated along the width), their widths and their token strings.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import numpy as np
from PIL import Image
from scipy import ndimage

from athar.matching.numbers import lines as L
from athar.matching.numbers.line_reader import candidate_lines
from athar.matching.numbers.synthetic import (
    ARABIC_WORDS,
    BRANCH_WORD,
    LATIN_WORDS,
    SKIN_TONES,
    TRAINING,
    _noise,
    draw_line,
    font_file,
    fonts_for,
    make_image,
    render_line,
    to_script,
)

# What each token looks like turned by 180°: 0 1 8 stay, 6 and 9 swap, a Western 3 is an
# Arabic-Indic ٤ and back, ٠ ١ ٥ stay, ٧ and ٨ swap, ٩ is a Western 6; every other glyph (and a
# word) is no digit: OTHER.
WESTERN, ARABIC_INDIC = L.WESTERN.start, L.ARABIC.start  # the token of digit d: WESTERN + d, ARABIC_INDIC + d
UPSIDE_DOWN = {
    **{WESTERN + d: WESTERN + t for d, t in ((0, 0), (1, 1), (8, 8), (6, 9), (9, 6))},
    **{ARABIC_INDIC + d: ARABIC_INDIC + t for d, t in ((0, 0), (1, 1), (5, 5), (7, 8), (8, 7))},
    WESTERN + 3: ARABIC_INDIC + 4, ARABIC_INDIC + 4: WESTERN + 3, ARABIC_INDIC + 9: WESTERN + 6,
}


def token_of(label: str) -> int:
    """The CTC token of a generator glyph label (W7 / A7 / WORD / NOISE)."""
    if label[0] == "W" and label[1:].isdigit():
        return WESTERN + int(label[1:])
    if label[0] == "A" and label[1:].isdigit():
        return ARABIC_INDIC + int(label[1:])
    return L.WORD if label == "WORD" else L.OTHER


def upside_down(tokens: list[int]) -> list[int]:
    """The tokens of a line read turned by 180°: in reverse order, each glyph as the token it then
    looks like (``UPSIDE_DOWN``), OTHER where it looks like no digit. Before the fifteenth session
    an upside-down line was taught as no text at all unless every digit was symmetric, so an
    upright 0, 1, 6, 8, 9, ٠, ١, ٥, ٧ or ٨ (the same shapes) was taught to be blank: on clean
    rendered lines the shipped network dropped those digits 19 % of the time, the others 5 %."""
    return [UPSIDE_DOWN.get(t, L.OTHER) for t in reversed(tokens)]


def label_line(glyph_map: np.ndarray, labels: list[str], frame: L.Frame) -> list[int] | None:
    """Tokens in the crop, in order along the line, or None when the crop is ambiguous."""
    gx, gy, scale = L.crop_grid(frame)
    ex, ey, escale = L.crop_grid(frame, span=4.0, margin=2.0)

    def counts(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        ids = ndimage.map_coordinates(glyph_map, [y, x], order=0, mode="constant", cval=0)
        return np.bincount(ids.ravel().astype(np.int64), minlength=len(labels) + 1)

    inside = counts(gx, gy) * scale * scale
    around = counts(ex, ey) * escale * escale
    ids = [i for i in range(1, len(labels) + 1) if inside[i] > 0.6 * around[i] and around[i] > 0]
    if any(0.15 * around[i] < inside[i] <= 0.6 * around[i] for i in range(1, len(labels) + 1)):
        return None
    if not ids:
        return []
    if len(ids) == 1:
        return None  # one glyph: its direction is unknown
    gidx = ndimage.map_coordinates(glyph_map, [gy, gx], order=0, mode="constant", cval=0)
    cols = np.arange(gidx.shape[1])[None, :].repeat(gidx.shape[0], axis=0)
    position = {i: float(cols[gidx == i].mean()) for i in ids}
    ordered = sorted(ids, key=lambda i: position[i])
    if ordered != sorted(ids) and ordered != sorted(ids, reverse=True):
        return None  # glyphs of two text lines, or out of order
    if ordered[0] > ordered[-1]:
        return None  # upside down in this frame: the caller flips the frame
    return [token_of(labels[i - 1]) for i in ordered]


def from_photo(rng: np.random.Generator) -> list[tuple[np.ndarray, list[int]]]:
    """Every candidate line of one training photo, cut as the reader cuts it, with its tokens."""
    sample = make_image(rng, TRAINING, width=int(rng.choice([700, 1000])))
    gray = np.asarray(sample.image.convert("L"), np.float32) / 255.0
    assert sample.glyphs is not None
    out = []
    for frame, _pts in candidate_lines(gray):
        for f in (frame, frame.flipped()):
            tokens = label_line(sample.glyphs, sample.glyph_labels, f)
            if tokens is None:
                continue
            out.append((L.crop(gray, f), tokens))
            if tokens and rng.random() < 0.5:
                out.append((L.crop(gray, f.flipped()), upside_down(tokens)))
            break
    return out


def _text(rng: np.random.Generator, script: str) -> str:
    roll = rng.random()
    if roll < 0.12:  # no digits: words only (a negative)
        words = LATIN_WORDS if rng.random() < 0.5 else ARABIC_WORDS
        return " ".join(str(rng.choice(words)) for _ in range(int(rng.integers(1, 3))))
    length = int(rng.choice([1, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 7, 8]))
    digits = "".join(str(int(d)) for d in rng.integers(0, 10, length))
    text = to_script(digits, script)
    if rng.random() < 0.2:
        text = f"{text} {BRANCH_WORD}"
    elif rng.random() < 0.12:
        words = LATIN_WORDS if script == "western" else ARABIC_WORDS
        text = f"{rng.choice(words)} {text}" if rng.random() < 0.5 else f"{text} {rng.choice(words)}"
    return text


def plain_damage(layer: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Grey textured background, any dark or faded ink, blur, motion blur, noise, JPEG."""
    h, w = layer.shape
    base = float(rng.uniform(0.12, 0.95))
    tex = (_noise(rng, h, w, 4) - 0.5) * float(rng.uniform(0.05, 0.5))
    if rng.random() < 0.2:  # stripes (cloth, tiles)
        period = rng.uniform(6, 40)
        tex += 0.1 * np.sin(np.arange(w)[None, :] / period * 2 * np.pi + rng.uniform(0, 6))
    background = np.clip(base * (1 + tex), 0.02, 1.0)
    ink = base * float(rng.uniform(0.0, 0.6))
    strength = float(rng.uniform(0.35, 1.0))
    img = background - layer * strength * (background - ink)
    sigma = rng.uniform(0, 2.4) if rng.random() < 0.7 else 0.0
    if sigma > 0.3:
        img = ndimage.gaussian_filter(img, sigma)
    if rng.random() < 0.3:
        length = int(rng.integers(3, 10))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0
        kernel = ndimage.rotate(kernel, rng.uniform(0, 180), reshape=False, order=1)
        img = ndimage.convolve(img, kernel / max(float(kernel.sum()), 1e-6), mode="nearest")
    img = img + rng.normal(0, rng.uniform(0.003, 0.035), img.shape)
    img = np.clip(img, 0, 1)
    if rng.random() < 0.4:
        buffer = io.BytesIO()
        Image.fromarray((img * 255).astype(np.uint8)).save(buffer, "JPEG", quality=int(rng.integers(30, 90)))
        img = np.asarray(Image.open(io.BytesIO(buffer.getvalue())), np.float32) / 255.0
    return img


def harsh_damage(layer: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colour damage of the kinds photos of other origins show (``render --harsh``; training fonts
    only, nothing of the independent generator's fonts): a coloured background (fabric stripes at
    any angle, tiles with grout, skin with pores, paper), blue, red, black or any other pen faded to
    35–90 %, light falling off along any direction and a vignette, motion blur of 1–9 px, hair-like
    streaks and a pen stroke across, then JPEG at quality 30–86; converted to grey as the reader
    converts a photo (``Image.convert("L")``)."""
    h, w = layer.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    kind = rng.random()
    if kind < 0.3:  # fabric stripes
        period = rng.uniform(6, 40)
        angle = rng.uniform(0, np.pi)
        stripes = 0.5 + 0.5 * np.sin((xx * np.cos(angle) + yy * np.sin(angle)) / period * 2 * np.pi)
        a, b = rng.uniform(20, 220, 3), rng.uniform(20, 220, 3)
        img = a[None, None, :] * stripes[:, :, None] + b[None, None, :] * (1 - stripes[:, :, None])
    elif kind < 0.5:  # tiles
        tile = rng.uniform(30, 160)
        ox, oy = rng.uniform(0, tile, 2)
        grout = (((xx + ox) % tile) < 3) | (((yy + oy) % tile) < 3)
        img = np.ones((h, w, 3), np.float32) * rng.uniform(60, 230, 3)[None, None, :]
        img[grout] *= rng.uniform(0.4, 0.8)
    elif kind < 0.8:  # skin with pores
        tone = np.array(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float32) * rng.uniform(0.7, 1.15)
        pores = (rng.random((h, w)) < 0.004).astype(np.float32)
        tex = 1 - 0.6 * np.maximum(pores, ndimage.shift(pores, (1, 1), order=0))
        tex *= 1 + (_noise(rng, h, w, 3) - 0.5) * 0.25
        img = tone[None, None, :] * tex[:, :, None]
    else:  # paper or card
        paper = np.array([236, 232, 220], np.float32) * rng.uniform(0.6, 1.05) + rng.normal(0, 10, 3)
        img = paper[None, None, :] * (1 + (_noise(rng, h, w, 3) - 0.5) * 0.1)[:, :, None]
    img = img.astype(np.float32) + rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    for _ in range(int(rng.integers(0, 6))):  # hair-like streaks
        draw_line(img, rng, colour=np.array([40, 30, 25]) * rng.uniform(0.5, 1.5), width=1, length=rng.uniform(10, 60))
    roll = rng.random()
    if roll < 0.3:
        ink = np.array([30, 40, 140], np.float32)
    elif roll < 0.55:
        ink = np.array([150, 30, 30], np.float32)
    elif roll < 0.8:
        ink = np.array([20, 20, 20], np.float32)
    else:
        ink = rng.uniform(0, 160, 3).astype(np.float32)
    ink = np.clip(ink * rng.uniform(0.7, 1.3) + rng.normal(0, 12, 3), 0, 255)
    strength = float(rng.uniform(0.35, 0.9))
    alpha = (layer * strength)[:, :, None]
    img = img * (1 - alpha) + ink[None, None, :] * alpha
    if rng.random() < 0.3:  # a pen stroke across the line
        stroke = np.zeros((h, w, 3), np.float32)
        draw_line(stroke, rng, colour=np.array([255.0, 255.0, 255.0]), width=int(rng.integers(1, 4)))
        a = stroke[:, :, :1] / 255.0 * strength * 0.8
        img = img * (1 - a) + ink[None, None, :] * a
    angle = rng.uniform(0, 2 * np.pi)
    light = xx * np.cos(angle) + yy * np.sin(angle)
    light = (light - light.min()) / max(float(np.ptp(light)), 1e-6)
    low, high = rng.uniform(0.3, 0.8), rng.uniform(0.75, 1.0)
    img = img * (low + (high - low) * light)[:, :, None]
    if rng.random() < 0.5:
        vignette = 1 - 0.5 * (
            ((xx / w - rng.uniform(0, 1)) ** 2 + (yy / h - rng.uniform(0, 1)) ** 2) * rng.uniform(0.3, 1.5)
        )
        img = img * np.clip(vignette, 0.2, 1)[:, :, None]
    sigma = rng.uniform(0, 1.6) if rng.random() < 0.5 else 0.0
    if sigma > 0.3:
        img = np.stack([ndimage.gaussian_filter(img[:, :, c], sigma) for c in range(3)], axis=2)
    length = int(rng.integers(1, 10))
    if length >= 3:
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0
        kernel = ndimage.rotate(kernel, rng.uniform(0, 180), reshape=False, order=1)
        kernel /= max(float(kernel.sum()), 1e-6)
        img = np.stack([ndimage.convolve(img[:, :, c], kernel, mode="nearest") for c in range(3)], axis=2)
    out = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    buffer = io.BytesIO()
    out.save(buffer, "JPEG", quality=int(rng.integers(30, 87)))
    return np.asarray(Image.open(io.BytesIO(buffer.getvalue())).convert("L"), np.float32) / 255.0


def _wave(rng: np.random.Generator, w: int, sigma: float) -> np.ndarray:
    """A smooth random curve along a line's width, unit standard deviation."""
    wave = ndimage.gaussian_filter1d(rng.standard_normal(w + int(6 * sigma)), sigma)[int(3 * sigma):][:w]
    return wave / max(float(wave.std()), 1e-6)


def pen_warp(layer: np.ndarray, ids: np.ndarray, size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A rendered line written again by another hand (``render --pen``; drawn from nothing of the
    independent generator's): slanted either way (shear −0.3…0.45), its baseline wavering and its
    glyphs' height and spacing uneven along the line (smooth random curves a character or so long),
    then the strokes either redrawn by a round pen of any width (the ink's ridge, thickened by a
    radius that varies along the line: a monoline hand from any font), made bolder (a marker) or
    thinner, or left as drawn. ``ids`` (the glyph of each pixel) follows the geometry, not the stroke."""
    h, w = layer.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cy = h / 2.0
    slant = float(rng.uniform(-0.3, 0.45))
    sigma = size * float(rng.uniform(0.6, 1.5))
    dy = _wave(rng, w, sigma) * size * float(rng.uniform(0.0, 0.12))
    dx = _wave(rng, w, sigma) * size * float(rng.uniform(0.0, 0.2))
    sy = 1.0 + _wave(rng, w, sigma) * float(rng.uniform(0.0, 0.12))
    src_y = cy + (yy - cy) * sy[None, :] + dy[None, :]
    src_x = xx + slant * (yy - cy) + dx[None, :]
    layer = ndimage.map_coordinates(layer, [src_y, src_x], order=1, mode="constant")
    ids = ndimage.map_coordinates(ids, [src_y, src_x], order=0, mode="constant").astype(ids.dtype)
    roll = rng.random()
    if roll < 0.4:  # a round pen along the strokes' ridge
        ink = layer > 0.5
        if ink.any():
            inside = ndimage.distance_transform_edt(ink)
            ridge = ink & (inside >= ndimage.maximum_filter(inside, 3) - 1e-6)
            away = ndimage.distance_transform_edt(~ridge)
            radius = float(rng.uniform(0.6, max(1.0, size / 8))) * np.clip(
                1.0 + 0.3 * _wave(rng, w, sigma)[None, :] * float(rng.uniform(0, 1)), 0.5, 1.5)
            layer = np.clip(radius + 0.5 - away, 0.0, 1.0).astype(np.float32)
    elif roll < 0.65:  # a marker
        k = int(rng.integers(2, max(3, size // 8) + 1))
        layer = ndimage.grey_dilation(layer, size=(k, k))
    elif roll < 0.8:  # a fine pen, unless it would wear the strokes away
        thinner = ndimage.grey_erosion(layer, size=(2, 2))
        if thinner.sum() > 0.45 * layer.sum():
            layer = thinner
    return layer.astype(np.float32), ids


LEGIBLE = 0.4  # least correlation of a damaged crop with its undamaged ink for a line to be kept


def shows(damaged: np.ndarray, clean: np.ndarray) -> float:
    """How much of the line's ink the damaged crop still shows: Pearson correlation of the crop
    with the same crop of the undamaged ink layer (1: all of it; near 0: stripes, noise or a
    gradient drowned the text)."""
    a = damaged.ravel() - damaged.mean()
    b = clean.ravel() - clean.mean()
    return float(a @ b / max(float(np.sqrt((a @ a) * (b @ b))), 1e-9))


def rendered(
    rng: np.random.Generator, harsh: bool = False, legible: float | None = LEGIBLE, pen: float = 0.0,
    hand_share: float = 0.5,
) -> tuple[np.ndarray, list[int]] | None:
    """One line drawn, damaged (``harsh_damage`` with ``harsh``, else ``plain_damage``) and cut like a
    photo's line; None when the line has text the damage hid (``shows`` below ``legible``; None: kept).
    ``pen``: the share of handwritten lines written again by ``pen_warp`` (0: the draws of before)."""
    script = "arabic" if rng.random() < 0.45 else "western"
    hand = bool(rng.random() < hand_share)
    text = _text(rng, script)
    warp = hand and pen > 0 and bool(rng.random() < pen)
    fonts = fonts_for(TRAINING, hand and not (warp and rng.random() < 0.25), text)
    if not fonts:
        return None
    path = font_file(str(rng.choice(fonts)))
    size = int(rng.uniform(16, 24) if rng.random() < 0.3 else rng.uniform(20, 44))  # the crop is 32 px high
    spacing = {"spacing": float(rng.uniform(-0.08, 0.1))} if warp else {}  # glyphs closer or touching
    layer, _extents, ids, labels = render_line(text, path, size, rng, hand, **spacing)
    pad = size
    layer = np.pad(layer, pad)
    ids = np.pad(ids, pad)
    if warp:
        layer, ids = pen_warp(layer, ids, size, rng)
    angle = float(rng.normal(0, 3))
    layer = ndimage.rotate(layer, angle, reshape=False, order=1)
    ids = ndimage.rotate(ids, angle, reshape=False, order=0)
    h, w = layer.shape
    img = harsh_damage(layer, rng) if harsh else plain_damage(layer, rng)
    pts = []
    order = []
    for i in range(1, len(labels) + 1):
        ys, xs = np.nonzero(ids == i)
        if len(xs):
            pts.append((xs, ys))
            order.append(i)
    if not pts:
        return None
    frame = (
        L.frame_of(pts)
        if len(pts) > 1
        else L.Frame(
            float(pts[0][0].mean()),
            float(pts[0][1].mean()),
            1.0,
            0.0,
            float(pts[0][0].min() - pts[0][0].mean()),
            float(pts[0][0].max() - pts[0][0].mean()),
            0.0,
            float(np.ptp(pts[0][1]) + 1),
        )
    )
    if frame is None:
        return None
    if frame.ux < 0:
        frame = frame.flipped()
    j = frame.height
    frame = L.Frame(
        frame.x,
        frame.y,
        frame.ux,
        frame.uy,
        frame.u0 - rng.uniform(-0.1, 0.6) * j,
        frame.u1 + rng.uniform(-0.1, 0.6) * j,
        frame.v + rng.normal(0, 0.08) * j,
        j * float(rng.uniform(0.85, 1.2)),
    )
    tokens = [token_of(labels[i - 1]) for i in order]
    if rng.random() < 0.15:  # the line upside down, labelled with what it then shows
        frame, tokens = frame.flipped(), upside_down(tokens)
    cut = L.crop(img, frame)
    if legible is not None and tokens and shows(cut, L.crop(1.0 - layer, frame)) < legible:
        return None  # the damage hid the text: a label the crop does not show teaches nothing right
    return cut, tokens


def save(out: Path, items: list[tuple[np.ndarray, list[int]]]) -> None:
    crops = np.concatenate([c for c, _ in items], axis=1)
    widths = np.array([c.shape[1] for c, _ in items], np.int32)
    tokens = np.array([",".join(map(str, t)) for _, t in items])
    partial = out.with_suffix(".partial.npz")  # written whole, then renamed: a reader never sees half a file
    np.savez_compressed(partial, crops=(crops * 255).round().astype(np.uint8), widths=widths, tokens=tokens)
    partial.replace(out)
    positives = sum(1 for _, t in items if t)
    print(f"{len(items)} lines ({positives} with tokens) -> {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("kind", choices=["photos", "render"])
    parser.add_argument("out", type=Path)
    parser.add_argument("--photos", type=int, default=200)
    parser.add_argument("--lines", type=int, default=10000)
    parser.add_argument("--part", type=int, default=0)
    parser.add_argument(
        "--harsh",
        type=float,
        default=0.0,
        help="share of rendered lines with colour damage (harsh_damage) instead of the grey one",
    )
    parser.add_argument(
        "--legible",
        type=float,
        default=LEGIBLE,
        help="drop rendered lines with text whose damaged crop correlates less with the undamaged ink (0: keep all)",
    )
    parser.add_argument("--pen", type=float, default=0.0, help="share of handwritten lines written again by pen_warp")
    parser.add_argument("--hand", type=float, default=0.5, help="share of rendered lines handwritten")
    args = parser.parse_args()
    items: list[tuple[np.ndarray, list[int]]] = []
    if args.kind == "photos":
        rng = np.random.default_rng(29500 + args.part)
        for i in range(args.photos):
            items.extend(from_photo(rng))
            if i % 25 == 0:
                print(f"{i}/{args.photos}: {len(items)} lines", file=sys.stderr, flush=True)
                save(args.out, items)
    else:
        rng = np.random.default_rng(29600 + args.part)
        while len(items) < args.lines:
            legible = args.legible if args.legible > 0 else None
            item = (
                rendered(rng, harsh=bool(rng.random() < args.harsh), legible=legible, pen=args.pen,
                         hand_share=args.hand)
                if args.harsh
                else rendered(rng, legible=legible, pen=args.pen, hand_share=args.hand)
            )
            if item is not None and item[0].shape[1] >= 8:
                items.append(item)
            if len(items) % 5000 == 0 and item is not None:
                print(f"{len(items)}/{args.lines}", file=sys.stderr, flush=True)
                save(args.out, items)
    save(args.out, items)


if __name__ == "__main__":
    main()
