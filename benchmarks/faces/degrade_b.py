"""A second, independent model of archive photos ("archive_b"), written from issue 19's description
only — not from degrade.py: different code, different parameter ranges, damage combined differently.

The issue's hidden set lists: turned at any angle, number cards, bruising and swelling, closed eyes,
grey or fluorescent light, small faces. Here a face photo (LFW deep-funneled, 250×250) becomes a
photo of a body lying on a table or a bag:

1. Face damage, located by dlib's 5 points found on the photo (not by fixed coordinates):
   closed eyes 55 % (the skin above each eye stretched down over it, a thin dark fold line);
   bruises 55 % (1–3 soft purple-brown patches, multiplied in, anywhere on the face);
   swelling 45 % (a smooth Gaussian push outwards, 6–18 px, on a cheek, the jaw, an eye or the lips);
   a number written on the forehead 20 %.
2. Light, one of: fluorescent (luminance with a green-cyan cast, saturation 0–30 %, a lifted black
   level, an uneven ramp of light across the photo); dim grey (grey, gamma 1.3–2.2, gain 0.45–0.8);
   flash (gain 1.2–1.5 with a bright centre and dark corners, clipped highlights).
3. The scene: 75 % the photo is laid on a larger sheet (420–800 px wide, plain or fabric-like),
   scaled so the face is 36–140 px wide (a quarter of them under 60 px: small faces), with a white
   number card (digits and a branch number) near the head — 35 % of the time taped on the forehead
   above the brows or lying on the chin below the mouth — and another person's head 20 %. Otherwise the photo stays a
   tight crop, and a number card may still cover its bottom.
4. Turned by any angle (uniform 0–360°), the frame enlarged, corners filled with the background.
5. Camera: defocus 0–1.2 px, luminance-dependent noise, JPEG quality 40–85.

Seeded per identity by the caller; ``apply_b(img, rng, other)`` returns the photo and, for the
no-face breakdown, ``LAST`` holds the angle, the face's width in the final photo and its centre.
"""

from __future__ import annotations

import io
import math
import random
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

LAST: dict[str, Any] = {}


@lru_cache(maxsize=1)
def _landmarker() -> Any:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from athar.matching.faces.dlib_models import _dlib, dlib_model_path

    return _dlib(), _dlib().shape_predictor(str(dlib_model_path("shape_predictor_5_face_landmarks.dat")))


def face_points(img: Image.Image) -> dict[str, tuple[float, float]]:
    """Eye centres and nose base from dlib's 5 points on the known face region of an LFW photo."""
    d, sp = _landmarker()
    w, h = img.size
    rect = d.rectangle(int(w * 0.27), int(h * 0.27), int(w * 0.73), int(h * 0.73))
    p = [(q.x, q.y) for q in sp(np.asarray(img), rect).parts()]
    eye_l = ((p[2][0] + p[3][0]) / 2, (p[2][1] + p[3][1]) / 2)
    eye_r = ((p[0][0] + p[1][0]) / 2, (p[0][1] + p[1][1]) / 2)
    return {"eye_l": eye_l, "eye_r": eye_r, "nose": (float(p[4][0]), float(p[4][1]))}


def _soft_ellipse(size: tuple[int, int], cx: float, cy: float, rx: float, ry: float, angle: float, blur: float) -> np.ndarray:
    """A [0, 1] mask of a rotated ellipse with soft edges."""
    yy, xx = np.mgrid[0 : size[1], 0 : size[0]].astype(np.float32)
    c, s = math.cos(angle), math.sin(angle)
    u, v = (xx - cx) * c + (yy - cy) * s, -(xx - cx) * s + (yy - cy) * c
    inside = (u / rx) ** 2 + (v / ry) ** 2
    return np.clip((1.0 - inside) / max(blur, 1e-3), 0.0, 1.0)


def shut_eyes(a: np.ndarray, pts: dict[str, tuple[float, float]], rng: random.Random) -> np.ndarray:
    """Each eye covered by the lid skin above it, stretched down; a dark fold where the lids meet."""
    out = a.copy()
    spread = abs(pts["eye_r"][0] - pts["eye_l"][0])
    for key in ("eye_l", "eye_r"):
        ex, ey = pts[key]
        half_w, half_h = spread * rng.uniform(0.26, 0.34), spread * rng.uniform(0.12, 0.18)
        x0, x1 = int(ex - half_w), int(ex + half_w)
        top = int(ey - 2.6 * half_h)
        if x0 < 0 or top < 0 or x1 >= a.shape[1]:
            continue
        source = a[top : int(ey - half_h), x0:x1]  # the lid and brow skin above the eye
        lid = np.asarray(Image.fromarray(source.astype(np.uint8)).resize((x1 - x0, int(2 * half_h) + 1)), np.float32)
        mask = _soft_ellipse((x1 - x0, lid.shape[0]), (x1 - x0) / 2, lid.shape[0] / 2, half_w, half_h, 0.0, 0.35)[..., None]
        y0 = int(ey - half_h)
        region = out[y0 : y0 + lid.shape[0], x0:x1]
        out[y0 : y0 + lid.shape[0], x0:x1] = region * (1 - mask[: region.shape[0]]) + lid[: region.shape[0]] * mask[: region.shape[0]]
        fold = int(ey + rng.uniform(-1, 2))
        dark = rng.uniform(0.35, 0.6)
        for x in range(x0 + 2, x1 - 2):
            sag = int(round(1.5 * math.sin(math.pi * (x - x0) / (x1 - x0))))
            out[fold + sag, x] *= dark
    return out


def bruise(a: np.ndarray, pts: dict[str, tuple[float, float]], rng: random.Random) -> np.ndarray:
    """1–3 soft patches of purple, brown or dark red, multiplied into the skin."""
    spread = abs(pts["eye_r"][0] - pts["eye_l"][0])
    cx0, cy0 = (pts["eye_l"][0] + pts["eye_r"][0]) / 2, (pts["eye_l"][1] + pts["nose"][1]) / 2
    out = a.copy()
    for _ in range(rng.randint(1, 3)):
        cx, cy = cx0 + rng.uniform(-1.1, 1.1) * spread, cy0 + rng.uniform(-0.9, 1.3) * spread
        mask = _soft_ellipse((a.shape[1], a.shape[0]), cx, cy, spread * rng.uniform(0.25, 0.8),
                             spread * rng.uniform(0.2, 0.55), rng.uniform(0, math.pi), 0.6)
        tint = np.array(rng.choice(((0.55, 0.38, 0.6), (0.5, 0.4, 0.3), (0.6, 0.3, 0.35))), np.float32)
        alpha = rng.uniform(0.35, 0.8) * mask[..., None]
        out = out * (1 - alpha) + out * tint * alpha
    return out


def swell(a: np.ndarray, pts: dict[str, tuple[float, float]], rng: random.Random) -> np.ndarray:
    """A smooth outward push (Gaussian in the distance) around one point of the face."""
    spread = abs(pts["eye_r"][0] - pts["eye_l"][0])
    anchors = [pts["eye_l"], pts["eye_r"], pts["nose"],
               (pts["eye_l"][0] - 0.1 * spread, pts["nose"][1] + 0.2 * spread),
               (pts["eye_r"][0] + 0.1 * spread, pts["nose"][1] + 0.2 * spread),
               (pts["nose"][0], pts["nose"][1] + 0.55 * spread),
               (pts["nose"][0] + rng.choice((-1, 1)) * 0.7 * spread, pts["nose"][1] + 0.9 * spread)]
    cx, cy = rng.choice(anchors)
    sigma, push = spread * rng.uniform(0.45, 0.8), rng.uniform(6, 18)
    h, w = a.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = xx - cx, yy - cy
    r = np.sqrt(dx**2 + dy**2) + 1e-3
    # Output pixel at distance r shows the input pixel at r - push·g(r): content moves outwards.
    shift = push * np.exp(-(r**2) / (2 * sigma**2))
    sx, sy = xx - dx / r * shift, yy - dy / r * shift
    return _bilinear(a, sx, sy)


def _bilinear(a: np.ndarray, sx: np.ndarray, sy: np.ndarray) -> np.ndarray:
    h, w = a.shape[:2]
    sx, sy = np.clip(sx, 0, w - 1.001), np.clip(sy, 0, h - 1.001)
    x0, y0 = sx.astype(int), sy.astype(int)
    fx, fy = (sx - x0)[..., None], (sy - y0)[..., None]
    top = a[y0, x0] * (1 - fx) + a[y0, x0 + 1] * fx
    bottom = a[y0 + 1, x0] * (1 - fx) + a[y0 + 1, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy


@lru_cache(maxsize=4)
def _font(size: int) -> Any:
    for path in ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"):
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default()


def forehead_number(img: Image.Image, pts: dict[str, tuple[float, float]], rng: random.Random) -> Image.Image:
    """A number written on the skin of the forehead in marker."""
    spread = abs(pts["eye_r"][0] - pts["eye_l"][0])
    x, y = (pts["eye_l"][0] + pts["eye_r"][0]) / 2 - spread * 0.7, min(pts["eye_l"][1], pts["eye_r"][1]) - spread * 1.05
    ImageDraw.Draw(img).text((x, y), str(rng.randint(100, 9999)), fill=(25, 25, 40), font=_font(max(10, int(spread * 0.45))))
    return img


def light(a: np.ndarray, rng: random.Random) -> np.ndarray:
    """Fluorescent, dim grey or flash light; pixel values in 0–255 floats."""
    lum = a @ np.array([0.3, 0.59, 0.11], np.float32)
    h, w = lum.shape
    kind = rng.choice(("fluorescent", "fluorescent", "grey", "flash"))
    if kind == "fluorescent":
        keep = rng.uniform(0.0, 0.3)
        base = lum[..., None] * (1 - keep) + a * keep
        cast = base * np.array([rng.uniform(0.78, 0.9), 1.0, rng.uniform(0.92, 1.02)], np.float32)
        t = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ramp = 0.75 + 0.45 * ((xx / w - 0.5) * math.cos(t) + (yy / h - 0.5) * math.sin(t) + 0.5)
        return cast * ramp[..., None] * rng.uniform(0.7, 0.9) + rng.uniform(12, 35)
    if kind == "grey":
        g = 255.0 * (lum / 255.0) ** rng.uniform(1.3, 2.2) * rng.uniform(0.45, 0.8)
        return np.repeat(g[..., None], 3, axis=2)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * 2
    grey = lum[..., None] * 0.6 + a * 0.4
    return grey * rng.uniform(1.2, 1.5) * (1.15 - 0.6 * r2)[..., None]


def _fabric(w: int, h: int, rng: random.Random) -> Image.Image:
    """A sheet: a plain colour, or a smooth fabric-like field (folds of a bag or a blanket)."""
    base = np.array(rng.choice(((180, 180, 175), (60, 70, 80), (140, 150, 160), (200, 195, 185), (40, 40, 45))), np.float32)
    if rng.random() < 0.5:
        return Image.fromarray(np.clip(np.ones((h, w, 3)) * base, 0, 255).astype(np.uint8))
    nrng = np.random.default_rng(rng.randrange(2**32))
    small = nrng.normal(0, 1, (max(2, h // 40), max(2, w // 40)))
    field = np.asarray(Image.fromarray(((small - small.min()) / (np.ptp(small) + 1e-6) * 255).astype(np.uint8)).resize((w, h), Image.Resampling.BICUBIC), np.float32)
    folds = (field / 255.0 - 0.5) * rng.uniform(40, 90)
    return Image.fromarray(np.clip(base + folds[..., None], 0, 255).astype(np.uint8))


def number_card(sheet: Image.Image, near: tuple[float, float, float], rng: random.Random, overlap: bool) -> None:
    """A white card with the body's number and a branch number, near (or over part of) the head."""
    cx, cy, face_w = near
    cw = int(max(60, face_w * rng.uniform(0.9, 1.6)))
    ch = int(cw * rng.uniform(0.4, 0.6))
    if overlap:  # taped on the forehead (above the brows) or lying on the chin (below the mouth)
        cw, ch = int(face_w * rng.uniform(0.6, 0.9)), int(face_w * rng.uniform(0.22, 0.3))
        forehead = rng.random() < 0.5
        x = cx - cw / 2 + rng.uniform(-0.1, 0.1) * face_w
        y = cy - 0.4 * face_w - ch if forehead else cy + 0.55 * face_w
    else:
        x, y = cx + rng.uniform(-2.0, 2.0) * face_w, cy + rng.uniform(0.9, 1.8) * face_w
    card = Image.new("RGB", (cw, ch), tuple(rng.randint(225, 250) for _ in range(3)))
    text = f"{rng.randint(1, 9999)}\n{rng.choice(('215', '227', '235', '248', '251', '216'))}"
    ImageDraw.Draw(card).multiline_text((cw * 0.08, ch * 0.05), text, fill=(15, 15, 20), font=_font(max(9, int(ch * 0.38))))
    card = card.rotate(rng.uniform(-15, 15) if not overlap else rng.uniform(-5, 5), expand=True, fillcolor=(0, 0, 0))
    mask = card.convert("L").point(lambda v: 255 if v > 0 else 0)
    sheet.paste(card, (int(x), int(y)), mask)


def _scene(img: Image.Image, other: Image.Image | None, rng: random.Random) -> tuple[Image.Image, float, tuple[float, float], tuple[int, int, int]]:
    """The photo laid on a sheet (face 36–140 px wide) with a number card; returns the face's width
    and centre in the sheet and the background colour used for the turned corners."""
    sheet_w = rng.randint(420, 800)
    sheet_h = int(sheet_w * rng.uniform(0.66, 0.8))
    sheet = _fabric(sheet_w, sheet_h, rng)
    face_w = rng.uniform(36, 60) if rng.random() < 0.25 else rng.uniform(60, 140)
    scale = face_w / 115.0  # an LFW deep-funneled face is ~115 px wide
    head = img.resize((max(8, round(img.width * scale)), max(8, round(img.height * scale))), Image.Resampling.LANCZOS)
    x = rng.randint(0, max(0, sheet_w - head.width))
    y = rng.randint(0, max(0, sheet_h - head.height))
    # Soft edges: the head photo blends into the sheet instead of a hard rectangle.
    mask = Image.fromarray((_soft_ellipse(head.size, head.width / 2, head.height / 2, head.width * 0.5, head.height * 0.55, 0, 0.25) * 255).astype(np.uint8))
    sheet.paste(head, (x, y), mask)
    centre = (x + head.width / 2, y + head.height / 2)
    if other is not None and rng.random() < 0.2:
        o = other.convert("L").convert("RGB")
        o = o.resize((head.width, head.height)).rotate(rng.uniform(0, 360), fillcolor=(0, 0, 0))
        ox, oy = rng.randint(0, max(0, sheet_w - o.width)), rng.randint(0, max(0, sheet_h - o.height))
        if abs(ox - x) > head.width or abs(oy - y) > head.height:
            sheet.paste(o, (ox, oy), o.convert("L").point(lambda v: 255 if v > 0 else 0))
    number_card(sheet, (centre[0], centre[1], face_w), rng, overlap=rng.random() < 0.35)
    colour = tuple(int(v) for v in np.asarray(sheet)[0, 0])
    return sheet, face_w, centre, colour  # type: ignore[return-value]


def _camera(img: Image.Image, rng: random.Random) -> Image.Image:
    if rng.random() < 0.6:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.2)))
    a = np.asarray(img, np.float32)
    sigma = rng.uniform(2, 7) * np.sqrt(np.maximum(a, 1) / 64.0)
    a = a + np.random.default_rng(rng.randrange(2**32)).normal(0, 1, a.shape) * sigma
    buf = io.BytesIO()
    Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).save(buf, "JPEG", quality=rng.randint(40, 85))
    return Image.open(io.BytesIO(buf.getvalue())).convert("RGB")


def apply_b(img: Image.Image, rng: random.Random, other: Image.Image | None = None) -> Image.Image:
    """The second archive model (see the module docstring)."""
    img = img.convert("RGB")
    pts = face_points(img)
    a = np.asarray(img, np.float32)
    if rng.random() < 0.55:
        a = shut_eyes(a, pts, rng)
    if rng.random() < 0.45:
        a = swell(a, pts, rng)
    if rng.random() < 0.55:
        a = bruise(a, pts, rng)
    img = Image.fromarray(np.clip(light(a, rng), 0, 255).astype(np.uint8))
    if rng.random() < 0.2:
        img = forehead_number(img, pts, rng)
    if rng.random() < 0.75:
        img, face_w, centre, bg = _scene(img, other, rng)
    else:
        face_w, centre, bg = 115.0, (img.width / 2, img.height / 2), (90, 92, 95)
        if rng.random() < 0.3:
            number_card(img, (centre[0], centre[1], face_w), rng, overlap=True)
    angle = rng.uniform(0, 360)
    turned = img.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=bg)
    LAST.update(angle=angle, face_width=face_w)
    return _camera(turned, rng)
