"""Degradations that make an LFW photo look like an archive photo of a body.

Each function takes an RGB PIL image (LFW deep-funneled, 250×250, face centred with
eyes near y≈115) and a seeded ``random.Random`` and returns a new image. They are
deliberately simple, documented approximations — see docs/faces.md:

- low_light: gamma 1.8 and brightness ×0.45 (underexposed, crushed shadows)
- grey_cast: 75 % desaturation, green-blue fluorescent tint, contrast ×0.6
- blur: Gaussian blur, radius 1.5–2.5 px
- jpeg: re-encode at JPEG quality 6–12
- small: downscale to 30–40 % (face ≈ 35–45 px wide), not upscaled back
- tilt: in-plane rotation of ±8–20°
- quarter_turn: rotation by 90, 180 or 270° (shot from above)
- closed_eyes: each eye covered by a lid of skin colour (sampled below the eye) with a
  dark lash line; the socket around it darkened ×0.75 (bruising)
- swelling: radial bulge (radius 35–50 px, strength 0.35–0.5) on one cheek or eye
- noise: Gaussian noise σ 10–16
- canvas: shrunk to 55 % and pasted on a 640×480 grey sheet with a white number card
  and a second (distractor) face
- archive: the mix — grey_cast (60 %) or low_light; closed_eyes (50 %); swelling (50 %);
  one milder quality loss (blur 1–1.5 px, JPEG q 20–35 or noise σ 6–10); canvas (25 %)
  or else small (20 %); quarter turn (75 %) or else tilt; final JPEG q 30
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import numpy as np
from PIL import Image, ImageDraw, ImageEnhance, ImageFilter, ImageOps
from scipy.ndimage import map_coordinates

Degrade = Callable[[Image.Image, random.Random], Image.Image]
EYES = ((105.0, 114.0), (144.0, 113.0))  # mean eye centres in deep-funneled LFW (dlib points)


def low_light(img: Image.Image, rng: random.Random) -> Image.Image:
    a = np.asarray(img, dtype=np.float32) / 255.0
    return Image.fromarray((255 * 0.45 * a**1.8).astype(np.uint8))


def grey_cast(img: Image.Image, rng: random.Random) -> Image.Image:
    grey = ImageEnhance.Color(img).enhance(0.25)
    a = np.asarray(grey, dtype=np.float32) * np.array([0.9, 1.05, 1.0], dtype=np.float32)
    out = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    return ImageEnhance.Contrast(out).enhance(0.6)


def blur(img: Image.Image, rng: random.Random) -> Image.Image:
    return img.filter(ImageFilter.GaussianBlur(rng.uniform(1.5, 2.5)))


def jpeg(img: Image.Image, rng: random.Random, quality: int | None = None) -> Image.Image:
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality or rng.randint(6, 12))
    return Image.open(io.BytesIO(buf.getvalue())).convert("RGB")


def small(img: Image.Image, rng: random.Random) -> Image.Image:
    f = rng.uniform(0.30, 0.40)
    return img.resize((round(img.width * f), round(img.height * f)), Image.Resampling.BILINEAR)


def tilt(img: Image.Image, rng: random.Random) -> Image.Image:
    angle = rng.uniform(8, 20) * rng.choice((-1, 1))
    return img.rotate(angle, resample=Image.Resampling.BILINEAR, fillcolor=(90, 90, 90))


def quarter_turn(img: Image.Image, rng: random.Random) -> Image.Image:
    return img.rotate(rng.choice((90, 180, 270)), expand=True)


def closed_eyes(img: Image.Image, rng: random.Random) -> Image.Image:
    """Shut lids: each eye covered by skin colour sampled below it, a dark lash line,
    and some darkening around the socket (bruising)."""
    out = img.copy()
    draw_mask = Image.new("L", img.size, 0)
    socket = Image.new("L", img.size, 0)
    md, sd = ImageDraw.Draw(draw_mask), ImageDraw.Draw(socket)
    a = np.asarray(img, dtype=np.float32)
    lid = Image.new("RGB", img.size)
    for ex, ey in EYES:
        ex, ey = ex + rng.uniform(-3, 3), ey + rng.uniform(-2, 2)
        md.ellipse((ex - 12, ey - 6, ex + 12, ey + 6), fill=255)
        sd.ellipse((ex - 17, ey - 10, ex + 17, ey + 10), fill=90)
        skin = a[int(ey) + 12 : int(ey) + 18, int(ex) - 6 : int(ex) + 6].reshape(-1, 3).mean(0)
        ImageDraw.Draw(lid).ellipse((ex - 12, ey - 6, ex + 12, ey + 6), fill=tuple(int(v) for v in skin))
        ImageDraw.Draw(lid).line((ex - 11, ey + 1, ex + 11, ey + 1), fill=tuple(int(v * 0.45) for v in skin), width=2)
    out = Image.composite(lid, out, draw_mask.filter(ImageFilter.GaussianBlur(1.5)))
    dark = ImageEnhance.Brightness(out).enhance(0.75)
    return Image.composite(dark, out, socket.filter(ImageFilter.GaussianBlur(3)))


def swelling(img: Image.Image, rng: random.Random) -> Image.Image:
    a = np.asarray(img, dtype=np.float32)
    cx = rng.choice((95, 155)) + rng.uniform(-8, 8)
    cy = rng.choice((115, 150)) + rng.uniform(-8, 8)
    radius, strength = rng.uniform(35, 50), rng.uniform(0.35, 0.5)
    yy, xx = np.mgrid[0 : a.shape[0], 0 : a.shape[1]].astype(np.float32)
    dx, dy = xx - cx, yy - cy
    r = np.sqrt(dx**2 + dy**2) / radius
    # Sample closer to the centre inside the radius: the region looks inflated.
    k = np.where(r < 1, 1 - strength * (1 - r**2), 1.0)
    src_x, src_y = cx + dx * k, cy + dy * k
    chans = [map_coordinates(a[..., c], [src_y, src_x], order=1, mode="nearest") for c in range(3)]
    return Image.fromarray(np.clip(np.stack(chans, -1), 0, 255).astype(np.uint8))


def noise(img: Image.Image, rng: random.Random) -> Image.Image:
    a = np.asarray(img, dtype=np.float32)
    n = np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(10, 16), a.shape)
    return Image.fromarray(np.clip(a + n, 0, 255).astype(np.uint8))


def canvas(img: Image.Image, rng: random.Random, other: Image.Image | None = None) -> Image.Image:
    sheet = Image.new("RGB", (640, 480), (120, 122, 118))
    face = img.resize((round(img.width * 0.55), round(img.height * 0.55)))
    x, y = rng.randint(20, 200), rng.randint(40, 480 - face.height - 20)
    sheet.paste(face, (x, y))
    if other is not None:
        second = ImageOps.grayscale(other).convert("RGB").resize((110, 110))
        sheet.paste(second, (rng.randint(420, 510), rng.randint(20, 340)))
    draw = ImageDraw.Draw(sheet)
    cx, cy = rng.randint(230, 380), rng.randint(300, 400)
    draw.rectangle((cx, cy, cx + 110, cy + 55), fill=(240, 240, 235))
    draw.text((cx + 10, cy + 18), f"{rng.randint(1000, 9999)} / {rng.choice((215, 227, 235, 251))}", fill=(10, 10, 10))
    return sheet


SINGLE: dict[str, Degrade] = {
    "low_light": low_light,
    "grey_cast": grey_cast,
    "blur": blur,
    "jpeg": jpeg,
    "small": small,
    "tilt": tilt,
    "quarter_turn": quarter_turn,
    "closed_eyes": closed_eyes,
    "swelling": swelling,
    "noise": noise,
    "canvas": canvas,
}


def archive(img: Image.Image, rng: random.Random, other: Image.Image | None = None) -> Image.Image:
    """The mixed degradation used for the headline 'degraded' figures (see module doc)."""
    img = grey_cast(img, rng) if rng.random() < 0.6 else low_light(img, rng)
    if rng.random() < 0.5:
        img = closed_eyes(img, rng)
    if rng.random() < 0.5:
        img = swelling(img, rng)
    pick = rng.randrange(3)
    if pick == 0:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(1.0, 1.5)))
    elif pick == 1:
        img = jpeg(img, rng, quality=rng.randint(20, 35))
    else:
        a = np.asarray(img, dtype=np.float32)
        n = np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(6, 10), a.shape)
        img = Image.fromarray(np.clip(a + n, 0, 255).astype(np.uint8))
    if rng.random() < 0.25:
        img = canvas(img, rng, other)
    elif rng.random() < 0.2:
        img = small(img, rng)
    img = quarter_turn(img, rng) if rng.random() < 0.75 else tilt(img, rng)
    return jpeg(img, rng, quality=30)


def archive_spec(img: Image.Image, rng: random.Random, other: Image.Image | None = None) -> Image.Image:
    """Only what the face issue lists for archive photos — fluorescent or poor light, closed eyes,
    swelling and bruising, shot from above (turned or tilted), a number card and another body in
    frame — saved as a camera JPEG (q 75). No shrinking and no extra blur, noise or heavy
    compression: the issue lists those for the family's photo. A second, milder figure beside the
    headline 'archive' mix, never instead of it."""
    img = grey_cast(img, rng) if rng.random() < 0.6 else low_light(img, rng)
    if rng.random() < 0.5:
        img = closed_eyes(img, rng)
    if rng.random() < 0.5:
        img = swelling(img, rng)
    if rng.random() < 0.25:
        img = canvas(img, rng, other)
    img = quarter_turn(img, rng) if rng.random() < 0.75 else tilt(img, rng)
    return jpeg(img, rng, quality=75)


def apply(name: str, img: Image.Image, rng: random.Random, other: Image.Image | None = None) -> Image.Image:
    """Apply the named condition ('clean', one of SINGLE, 'archive' or 'archive_spec')."""
    if name == "clean":
        return img
    if name == "archive":
        return archive(img, rng, other)
    if name == "archive_spec":
        return archive_spec(img, rng, other)
    if name == "canvas":
        return canvas(img, rng, other)
    return SINGLE[name](img, rng)
