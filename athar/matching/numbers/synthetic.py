"""Photo-like images that carry numbers, with their ground truth: the dev sets of issue 29.

Written from the issue's description only (never from a hidden set): archive photos of bodies carry
a detainee number, a branch number ("فرع 227") and sometimes a hospital number, written on a paper
card in the frame or on the skin, in Western or Arabic-Indic digits, printed or by hand, at any
rotation, dim, blurred or small; many photos carry no number at all.

Two generators, written separately with their own choices, so a figure on one is not an artefact of
the other:

``make_image(rng, style=DEV)`` — set "dev". Noise model: background of multi-octave colour noise
with two to five large blurred ellipses in skin tones (bodies) and a few straight edges; a card is
an off-white rectangle (paper tint, soft shadow) with dark-blue/black ink; on skin, ink is written
straight onto a textured skin region. Each number group is rotated by an angle drawn uniformly in
[0, 360). Handwriting is a handwriting-like font (Purisa, Comic Neue, KacstPen, Yusei Magic) or
a print font, in both cases with a per-glyph elastic distortion (Gaussian-smoothed random
displacement field, amplitude 3–9 % of the glyph height) and a random per-glyph tilt and baseline
jitter. Font sizes 16–70 px, digits about 0.7 of that (a third of numbers are small: 16–24 px fonts). Photometric damage on
the whole photo: brightness × 0.35–1.0 (dim), Gaussian blur σ 0–2.2, Gaussian sensor noise σ 1–8
grey levels. 30 % of photos carry no number; a quarter of those carry a card with non-digit
writing (Latin/Arabic words) as a hard negative.

``make_image(rng, style=INDEPENDENT)`` — set "independent": other fonts (Liberation, Nimbus,
Amiri, Scheherazade, arabeyes, SteveHand, Delphine, TomsonTalks, Z003; none used by training),
backgrounds of fabric stripes, floor tiles and vignetting, ballpoint-blue and marker-red ink,
damage by motion blur (a line kernel of 3–9 px), uneven lighting (a linear light gradient ×
0.3–1.0), JPEG compression at quality 35–85, a pen stroke crossing some cards and ink fading
(contrast × 0.45–0.9).

Each image's truth: ``{"text": Western digits, "box": [x0, y0, x1, y1], "kind": "detainee" |
"branch" | "other", "script": "western" | "arabic", "hand": bool, "carrier": "card" | "skin"}``.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont
from scipy import ndimage

from athar.matching.digits import ARABIC_INDIC

FONT_ROOT = Path("/usr/share/fonts")
BRANCH_WORD = "فرع"

DEV = "dev"
INDEPENDENT = "independent"
TRAINING = "training"

# Fonts by set. Training uses the dev set's fonts and a few more; the independent set shares none.
FONTS: dict[str, dict[str, list[str]]] = {
    DEV: {
        "print": ["truetype/dejavu/DejaVuSans.ttf", "truetype/dejavu/DejaVuSerif-Bold.ttf",
                  "truetype/dejavu/DejaVuSansMono.ttf", "truetype/freefont/FreeSans.ttf",
                  "truetype/kacst/KacstBook.ttf", "truetype/kacst/KacstOffice.ttf",
                  "truetype/fonts-arabeyes/ae_AlArabiya.ttf"],
        "hand": ["truetype/tlwg/Purisa.ttf", "opentype/comic-neue/ComicNeue-Regular.otf",
                 "truetype/kacst/KacstPen.ttf", "truetype/yusei-magic/YuseiMagic-Regular.ttf"],
    },
    TRAINING: {
        "print": ["truetype/dejavu/DejaVuSans.ttf", "truetype/dejavu/DejaVuSans-Bold.ttf",
                  "truetype/dejavu/DejaVuSerif.ttf", "truetype/dejavu/DejaVuSerif-Bold.ttf",
                  "truetype/dejavu/DejaVuSansMono.ttf", "truetype/dejavu/DejaVuSansCondensed.ttf",
                  "truetype/freefont/FreeSans.ttf", "truetype/freefont/FreeSerif.ttf",
                  "truetype/freefont/FreeMono.ttf", "truetype/freefont/FreeSansBold.ttf",
                  "truetype/kacst/KacstBook.ttf", "truetype/kacst/KacstOffice.ttf",
                  "truetype/kacst/KacstNaskh.ttf", "truetype/kacst/KacstTitle.ttf",
                  "truetype/kacst/KacstLetter.ttf", "truetype/kacst/KacstFarsi.ttf",
                  "truetype/fonts-arabeyes/ae_AlArabiya.ttf", "truetype/fonts-arabeyes/ae_Cortoba.ttf",
                  "truetype/fonts-arabeyes/ae_Dimnah.ttf",
                  # Second session: more families (none of the independent set's).
                  "truetype/noto/NotoSans-Regular.ttf", "truetype/noto/NotoSerif-Bold.ttf",
                  "truetype/noto/NotoSansArabic-Regular.ttf", "truetype/noto/NotoNaskhArabic-Regular.ttf",
                  "truetype/noto/NotoKufiArabic-Regular.ttf", "truetype/noto/NotoNaskhArabic-Bold.ttf",
                  "opentype/urw-base35/C059-Roman.otf", "opentype/urw-base35/P052-Bold.otf",
                  "opentype/urw-base35/URWGothic-Book.otf", "opentype/urw-base35/URWBookman-Light.otf",
                  "opentype/urw-base35/NimbusMonoPS-Regular.otf", "truetype/kacst/KacstDigital.ttf"],
        "hand": ["truetype/tlwg/Purisa.ttf", "truetype/tlwg/Purisa-Bold.ttf",
                 "opentype/comic-neue/ComicNeue-Regular.otf", "opentype/comic-neue/ComicNeue-Bold.otf",
                 "truetype/kacst/KacstPen.ttf", "truetype/kacst/KacstScreen.ttf",
                 "truetype/yusei-magic/YuseiMagic-Regular.ttf",
                 # Second session: slanted and informal shapes (none of the independent set's).
                 "truetype/tlwg/Purisa-Oblique.ttf", "truetype/tlwg/Purisa-BoldOblique.ttf",
                 "opentype/comic-neue/ComicNeue-Light.otf", "truetype/noto/NotoSans-Italic.ttf",
                 "truetype/noto/NotoSerif-Italic.ttf", "opentype/urw-base35/URWBookman-LightItalic.otf",
                 "opentype/urw-base35/C059-Italic.otf", "opentype/urw-base35/URWGothic-BookOblique.otf",
                 "truetype/kacst/KacstLetter.ttf", "truetype/kacst/KacstArt.ttf",
                 # Eighteenth session: more hands, training only (Debian packages fonts-dkg-handwriting,
                 # -breip, -humor-sans, -rufscript, -kristi, -dancingscript, -kaushanscript, -klee, -bwht,
                 # -ecolier-court, -leckerli-one, -kiloji, -seto, -sil-alkalami, -paktype; none of the dev
                 # or independent sets' families). Setofont, Alkalami and PakType Tehreer also draw
                 # Arabic-Indic digits; the others Western digits only (fonts_for picks by coverage).
                 "truetype/fifthhorseman/dkg.ttf", "truetype/fifthhorseman/dkgIt.ttf",
                 "truetype/breip/Breip.ttf", "truetype/humor-sans/Humor-Sans.ttf",
                 "truetype/rufscript/Rufscript010.ttf", "truetype/kristi/Kristi.ttf",
                 "opentype/dancingscript/DancingScript-Regular.otf",
                 "opentype/kaushanscript/KaushanScript-Regular.otf", "truetype/klee/KleeOne-Regular.ttf",
                 "opentype/bwht/BecauseWeBuild-Regular.otf", "opentype/bwht/BecauseWeLearn-Regular.otf",
                 "opentype/bwht/BecauseWeOrganize-Regular.otf", "truetype/ecolier-court/Ecolier-court.ttf",
                 "truetype/leckerli-one/LeckerliOne-Regular.ttf", "truetype/kiloji/kiloji.ttf",
                 "truetype/seto/setofont.ttf", "truetype/alkalami/Alkalami-Regular.ttf",
                 "truetype/paktype/PakType Tehreer.ttf"],
    },
    INDEPENDENT: {
        "print": ["truetype/liberation/LiberationSans-Regular.ttf",
                  "truetype/liberation/LiberationSerif-Bold.ttf",
                  "truetype/liberation/LiberationMono-Regular.ttf",
                  "opentype/urw-base35/NimbusSans-Regular.otf", "opentype/urw-base35/NimbusRoman-Regular.otf",
                  "opentype/fonts-hosny-amiri/Amiri-Regular.ttf",
                  "truetype/scheherazade/Scheherazade-Regular.ttf",
                  "truetype/fonts-arabeyes/ae_Furat.ttf", "truetype/fonts-arabeyes/ae_Granada.ttf"],
        "hand": ["truetype/sjfonts/SteveHand.ttf", "truetype/sjfonts/Delphine.ttf",
                 "truetype/tomsontalks/TomsonTalks.ttf", "opentype/urw-base35/Z003-MediumItalic.otf",
                 "opentype/fonts-hosny-amiri/Amiri-Slanted.ttf"],
    },
}

BRANCHES = ["215", "216", "227", "235", "248", "251", "290", "291", "293", "294"]
LATIN_WORDS = ["NAME", "DATE", "Ref", "Box", "No", "CASE", "ID", "Dept", "SYRIA", "Lab"]
ARABIC_WORDS = ["الاسم", "التاريخ", "مستشفى", "قسم", "جثة", "مجهول", "ملاحظة", "عسكري"]


@dataclass
class Truth:
    """One number written in a photo."""

    text: str
    box: list[int]
    kind: str
    script: str
    hand: bool
    carrier: str
    glyph_ids: list[int] = field(default_factory=list, compare=False)  # its digits in Sample.glyphs

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.text, "box": self.box, "kind": self.kind, "script": self.script,
                "hand": self.hand, "carrier": self.carrier}


@dataclass
class Sample:
    """A generated photo and the numbers it carries (empty for a photo holding none)."""

    image: Image.Image
    numbers: list[Truth] = field(default_factory=list)
    glyphs: np.ndarray | None = None  # per pixel: 0, or 1 + index into glyph_labels
    glyph_labels: list[str] = field(default_factory=list)


@cache
def font_file(relative: str) -> Path | None:
    """The font's path when its Debian package is installed."""
    path = FONT_ROOT / relative
    return path if path.exists() else None


@cache
def covers(relative: str, chars: str) -> bool:
    """Whether the font draws every one of ``chars`` (not its .notdef box nor nothing)."""
    path = font_file(relative)
    if path is None:
        return False
    font = ImageFont.truetype(str(path), 40)
    missing = bytes(font.getmask("\ue000"))
    for char in chars:
        mask = font.getmask(char)
        if mask.size[0] == 0 or bytes(mask) == missing:
            return False
    return True


def fonts_for(style: str, hand: bool, text: str) -> list[str]:
    """Installed fonts of the set's kind (hand or print) that draw every character of ``text``."""
    pool = FONTS[style]["hand" if hand else "print"]
    chars = set(text.replace(" ", ""))  # asked one character at a time: the answers are cached
    usable = [f for f in pool if all(covers(f, c) for c in chars)]
    if not usable and hand:  # a handwritten Arabic label falls back to a print font, distorted
        usable = [f for f in FONTS[style]["print"] if all(covers(f, c) for c in chars)]
    return usable


def to_script(digits: str, script: str) -> str:
    """The digits written in Western or Arabic-Indic figures."""
    return digits if script == "western" else "".join(ARABIC_INDIC[int(d)] for d in digits)


def _elastic(alpha: np.ndarray, rng: np.random.Generator, amplitude: float, smooth: float) -> np.ndarray:
    """A handwriting-like wobble: displace every pixel by a smoothed random field."""
    h, w = alpha.shape
    dx = ndimage.gaussian_filter(rng.standard_normal((h, w)), smooth) * amplitude * smooth * 2.5
    dy = ndimage.gaussian_filter(rng.standard_normal((h, w)), smooth) * amplitude * smooth * 2.5
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    return ndimage.map_coordinates(alpha, [yy + dy, xx + dx], order=1, mode="constant")


def render_line(text: str, font_path: Path, size: int, rng: np.random.Generator, hand: bool,
                spacing: float = 0.08) -> tuple[np.ndarray, list[tuple[int, int]], np.ndarray, list[str]]:
    """An ink-coverage layer (0..1) of one line, the x-extent of each space-separated word, a layer of
    glyph numbers (1, 2, … in writing order; 0 where no ink) and each glyph's label (the digit's
    class ``W7``/``A7``, or ``WORD`` for the word فرع) — the labels train the recogniser.

    Digits are drawn glyph by glyph (so handwriting can tilt and lift each one); an Arabic word is
    drawn whole so its letters join.
    """
    font = ImageFont.truetype(str(font_path), size)
    words = text.split(" ")
    labels: list[str] = []
    extents: list[tuple[int, int]] = []
    pad = size // 2
    x = pad
    height = int(size * 2.4)
    layer = np.zeros((height, int(size * (len(text) + 3) * 1.4) + 2 * pad), np.float32)
    ids = np.zeros(layer.shape, np.int16)
    for word in words:
        start = x
        glyphs = [word] if not word[:1].isdigit() and word[:1] not in ARABIC_INDIC else list(word)
        for glyph in glyphs:
            box = font.getbbox(glyph)
            gw, gh = int(box[2] - box[0]), int(box[3] - box[1])
            if gw <= 0 or gh <= 0:
                continue
            img = Image.new("L", (gw + 2 * pad, int(size * 2.0)), 0)
            ImageDraw.Draw(img).text((pad - box[0], int(size * 0.3)), glyph, font=font, fill=255)
            glyph_alpha = np.asarray(img, np.float32) / 255.0
            if hand:
                glyph_alpha = np.asarray(Image.fromarray((glyph_alpha * 255).astype(np.uint8)).rotate(
                    float(rng.normal(0, 6)), resample=Image.Resampling.BILINEAR), np.float32) / 255.0
                glyph_alpha = _elastic(glyph_alpha, rng, amplitude=float(rng.uniform(0.03, 0.09)) * size * 1.3,
                                       smooth=max(2.0, size / 8))
            dy = int(rng.normal(0, size * 0.05)) if hand else 0
            labels.append(glyph_label(glyph))
            gx = x - pad
            top = max(0, min(layer.shape[0] - glyph_alpha.shape[0], int(size * 0.2) + dy))
            region = layer[top:top + glyph_alpha.shape[0], gx:gx + glyph_alpha.shape[1]]
            region_w = region.shape[1]
            layer[top:top + glyph_alpha.shape[0], gx:gx + region_w] = np.maximum(
                region, glyph_alpha[:, :region_w])
            id_region = ids[top:top + glyph_alpha.shape[0], gx:gx + region_w]
            id_region[glyph_alpha[:, :region_w] > 0.4] = len(labels)
            advance = gw + int(size * (spacing + (rng.uniform(0.0, 0.15) if hand else 0.0)))
            x += advance
        extents.append((start, x))
        x += int(size * 0.55)
    return layer[:, : x + pad], extents, ids[:, : x + pad], labels


def glyph_label(glyph: str) -> str:
    """The recogniser's class of a drawn glyph: ``W0``–``W9``, ``A0``–``A9``, ``WORD`` or ``NOISE``."""
    if glyph in "0123456789":
        return f"W{glyph}"
    if glyph in ARABIC_INDIC:
        return f"A{ARABIC_INDIC.index(glyph)}"
    return "WORD" if glyph == BRANCH_WORD else "NOISE"


# ---------------------------------------------------------------- backgrounds

def _noise(rng: np.random.Generator, h: int, w: int, octaves: int = 4) -> np.ndarray:
    """Multi-octave smooth noise in 0..1."""
    out = np.zeros((h, w), np.float32)
    for o in range(octaves):
        cells = 4 * 2 ** o
        small = rng.random((cells, cells)).astype(np.float32)
        big = np.asarray(Image.fromarray(small).resize((w, h), Image.Resampling.BICUBIC), np.float32)
        out += big / 2 ** o
    out -= out.min()
    return out / max(float(out.max()), 1e-6)


SKIN_TONES = [(198, 160, 134), (171, 128, 100), (141, 101, 74), (224, 190, 160), (120, 88, 70), (180, 150, 140)]


def _skin_colour(rng: np.random.Generator) -> np.ndarray:
    base = np.array(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float32)
    return base + rng.normal(0, 10, 3).astype(np.float32)


def _upsample(small: np.ndarray, h: int, w: int) -> np.ndarray:
    """A smooth low-resolution layer (H×W or H×W×3) at full size (backgrounds are drawn at ¼ size)."""
    if small.ndim == 2:
        return np.asarray(Image.fromarray(small.astype(np.float32)).resize((w, h), Image.Resampling.BILINEAR),
                          np.float32)
    return np.stack([_upsample(small[:, :, c], h, w) for c in range(small.shape[2])], axis=2)


def _dev_background(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """Colour noise with blurred skin-tone ellipses (bodies) and a few hard edges; the skin masks."""
    sh, sw = h // 4, w // 4
    base = rng.uniform(40, 170, 3).astype(np.float32)
    img = base[None, None, :] + (_noise(rng, sh, sw)[:, :, None] - 0.5) * rng.uniform(30, 90)
    skins = []
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    for _ in range(int(rng.integers(2, 6))):
        cy, cx = rng.uniform(0, sh), rng.uniform(0, sw)
        ry, rx = rng.uniform(0.15, 0.5) * sh, rng.uniform(0.15, 0.5) * sw
        theta = rng.uniform(0, math.pi)
        c, s = math.cos(theta), math.sin(theta)
        u = ((xx - cx) * c + (yy - cy) * s) / rx
        v = (-(xx - cx) * s + (yy - cy) * c) / ry
        mask = ndimage.gaussian_filter(((u * u + v * v) < 1).astype(np.float32), 1.5)
        tex = 1 + (_noise(rng, sh, sw, 4) - 0.5) * rng.uniform(0.1, 0.35)
        skin = _skin_colour(rng)[None, None, :] * tex[:, :, None]
        img = img * (1 - mask[:, :, None]) + skin * mask[:, :, None]
        skins.append(mask)
    img = _upsample(img, h, w)
    img *= 1 + (rng.random((h, w, 1)).astype(np.float32) - 0.5) * 0.06  # pores and grain
    for _ in range(int(rng.integers(0, 4))):  # table edges, sheet folds
        draw_line(img, rng, colour=rng.uniform(0, 255, 3), width=int(rng.integers(1, 6)))
    return img, [_upsample(m, h, w) for m in skins]


def _independent_background(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """Fabric stripes or floor tiles, one or two skin regions with pores and hair-like streaks, vignette."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.5:
        period = rng.uniform(8, 40)
        angle = rng.uniform(0, math.pi)
        stripes = 0.5 + 0.5 * np.sin((xx * math.cos(angle) + yy * math.sin(angle)) / period * 2 * math.pi)
        a, b = rng.uniform(20, 200, 3), rng.uniform(20, 200, 3)
        img = a[None, None, :] * stripes[:, :, None] + b[None, None, :] * (1 - stripes[:, :, None])
    else:
        tile = rng.uniform(60, 160)
        grout = ((xx % tile) < 3) | ((yy % tile) < 3)
        img = np.ones((h, w, 3), np.float32) * rng.uniform(90, 220, 3)[None, None, :]
        img[grout] *= 0.55
    img = img.astype(np.float32) + rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    skins = []
    sh, sw = h // 4, w // 4
    sy, sx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    for _ in range(int(rng.integers(1, 3))):
        x0, y0 = rng.uniform(-0.2, 0.6) * sw, rng.uniform(-0.2, 0.6) * sh
        x1, y1 = x0 + rng.uniform(0.3, 0.8) * sw, y0 + rng.uniform(0.3, 0.8) * sh
        rect = ((sx > x0) & (sx < x1) & (sy > y0) & (sy < y1)).astype(np.float32)
        mask = _upsample(ndimage.gaussian_filter(rect, 3), h, w)
        pores = (rng.random((h, w)) < 0.004).astype(np.float32)
        tex = 1 - 0.6 * np.maximum(pores, ndimage.shift(pores, (1, 1), order=0))
        tex *= 1 + (_upsample(_noise(rng, sh, sw, 3), h, w) - 0.5) * 0.25
        skin = _skin_colour(rng)[None, None, :] * tex[:, :, None]
        img = img * (1 - mask[:, :, None]) + skin * mask[:, :, None]
        skins.append(mask)
    for _ in range(int(rng.integers(0, 25))):  # hair-like streaks
        draw_line(img, rng, colour=np.array([40, 30, 25]) * rng.uniform(0.5, 1.5), width=1, length=rng.uniform(10, 60))
    vignette = 1 - 0.5 * (((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * rng.uniform(0.5, 2.0))
    return img * vignette[:, :, None], skins


def draw_line(img: np.ndarray, rng: np.random.Generator, colour: np.ndarray, width: int,
              length: float | None = None) -> None:
    """A straight stroke across (or, with ``length``, within) the image, drawn in place."""
    h, w = img.shape[:2]
    x0, y0 = rng.uniform(0, w), rng.uniform(0, h)
    angle = rng.uniform(0, 2 * math.pi)
    span = length if length is not None else float(max(h, w) * 2)
    x1, y1 = x0 + span * math.cos(angle), y0 + span * math.sin(angle)
    if length is None:
        x0, y0 = x0 - span * math.cos(angle), y0 - span * math.sin(angle)
    layer = Image.new("L", (w, h), 0)
    ImageDraw.Draw(layer).line([(x0, y0), (x1, y1)], fill=255, width=width)
    a = np.asarray(layer, np.float32)[:, :, None] / 255.0
    img *= 1 - a
    img += a * np.asarray(colour, np.float32)[None, None, :]


# ---------------------------------------------------------------- number groups

@dataclass
class Line:
    """A line to write: its text (in the chosen digits), and which of its words is a number."""

    text: str
    number: str | None  # Western digits of the number in the line, if any
    kind: str | None


def _number_lines(rng: np.random.Generator, script: str, with_numbers: bool) -> list[Line]:
    """What one card or skin patch says: detainee number, maybe 'فرع NNN', maybe a hospital number."""
    if not with_numbers:
        words = LATIN_WORDS if rng.random() < 0.5 else ARABIC_WORDS
        return [Line(str(rng.choice(words)), None, None) for _ in range(int(rng.integers(1, 3)))]
    lines = []
    detainee = str(int(rng.integers(100, 99999)))
    lines.append(Line(to_script(detainee, script), detainee, "detainee"))
    if rng.random() < 0.5:
        branch = str(rng.choice(BRANCHES))
        lines.append(Line(f"{to_script(branch, script)} {BRANCH_WORD}", branch, "branch"))
    if rng.random() < 0.25:
        hospital = str(int(rng.integers(1000, 9999)))
        lines.append(Line(to_script(hospital, script), hospital, "other"))
    return lines


def _place(canvas: np.ndarray, layer: np.ndarray, ink: np.ndarray, x: int, y: int, strength: float = 1.0) -> None:
    """Blend an ink-coverage layer onto the canvas at (x, y), clipped to the canvas."""
    h, w = canvas.shape[:2]
    lh, lw = layer.shape
    x0, y0, x1, y1 = max(0, x), max(0, y), min(w, x + lw), min(h, y + lh)
    if x0 >= x1 or y0 >= y1:
        return
    a = layer[y0 - y:y1 - y, x0 - x:x1 - x, None] * strength
    canvas[y0:y1, x0:x1] = canvas[y0:y1, x0:x1] * (1 - a) + ink[None, None, :] * a


def _rotate(layer: np.ndarray, angle: float) -> np.ndarray:
    return ndimage.rotate(layer, angle, reshape=True, order=1, mode="constant", cval=0.0)


def _box_of(mask: np.ndarray, x: int, y: int, shape: tuple[int, ...]) -> list[int] | None:
    ys, xs = np.nonzero(mask > 0.35)
    if len(xs) == 0:
        return None
    h, w = shape[:2]
    box = [int(xs.min()) + x, int(ys.min()) + y, int(xs.max()) + 1 + x, int(ys.max()) + 1 + y]
    clipped = [max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3])]
    full = (box[2] - box[0]) * (box[3] - box[1])
    kept = max(0, clipped[2] - clipped[0]) * max(0, clipped[3] - clipped[1])
    return clipped if kept >= 0.9 * full else None  # a number cut by the frame is not in the truth


def _write_group(img: np.ndarray, rng: np.random.Generator, style: str, on_card: bool, with_numbers: bool,
                 skins: list[np.ndarray], glyph_map: np.ndarray, glyph_labels: list[str]) -> list[Truth]:
    """Write one card or one skin patch (lines of text), rotated at any angle; return its numbers."""
    h, w = img.shape[:2]
    script = "arabic" if rng.random() < 0.45 else "western"
    hand = bool(rng.random() < (0.6 if not on_card else 0.4))
    lines = _number_lines(rng, script, with_numbers)
    small = rng.random() < 0.3
    size = int(rng.uniform(16, 24) if small else rng.uniform(20, 70 if style != INDEPENDENT else 60))
    rendered = []
    for line in lines:
        fonts = fonts_for(style, hand, line.text)
        if not fonts:
            continue
        path = font_file(str(rng.choice(fonts)))
        assert path is not None
        layer, extents, ids, labels = render_line(line.text, path, size, rng, hand)
        offset = len(glyph_labels)
        ids = np.where(ids > 0, ids + offset, 0).astype(np.int32)
        glyph_labels.extend(labels)
        digit_ids = [offset + k + 1 for k, label in enumerate(labels) if label != "WORD"]
        rendered.append((line, layer, extents, ids, digit_ids[:len(line.number or "")]))
    if not rendered:
        return []
    gap = int(size * 0.3)
    block_w = max(r[1].shape[1] for r in rendered)
    block_h = sum(r[1].shape[0] for r in rendered) + gap * (len(rendered) - 1)
    margin = int(size * 0.4)
    bh, bw = block_h + 2 * margin, block_w + 2 * margin
    ink_layer = np.zeros((bh, bw), np.float32)
    id_layer = np.zeros((bh, bw), np.int32)
    number_masks: list[tuple[Line, np.ndarray, list[int]]] = []
    y = margin
    for line, layer, extents, ids, digit_ids in rendered:
        ink_layer[y:y + layer.shape[0], margin:margin + layer.shape[1]] = np.maximum(
            ink_layer[y:y + layer.shape[0], margin:margin + layer.shape[1]], layer)
        id_layer[y:y + layer.shape[0], margin:margin + layer.shape[1]] = np.maximum(
            id_layer[y:y + layer.shape[0], margin:margin + layer.shape[1]], ids)
        if line.number is not None:
            start, end = extents[0]
            mask = np.zeros((bh, bw), np.float32)
            mask[y:y + layer.shape[0], margin + start - size // 2:margin + end] = \
                layer[:, max(0, start - size // 2):end]
            number_masks.append((line, mask, digit_ids))
        y += layer.shape[0] + gap
    angle = float(rng.uniform(0, 360))
    card = np.ones((bh, bw), np.float32)
    card_r = _rotate(card, angle)
    ink_r = _rotate(ink_layer, angle)
    rh, rw = ink_r.shape
    if rw >= w - 4 or rh >= h - 4:
        return []
    if not on_card and skins:  # write on skin: centre inside a body region
        skin = skins[int(rng.integers(len(skins)))]
        ys, xs = np.nonzero(skin > 0.9)
        if len(xs):
            i = int(rng.integers(len(xs)))
            x, y = int(xs[i] - rw / 2), int(ys[i] - rh / 2)
        else:
            x, y = int(rng.integers(0, w - rw)), int(rng.integers(0, h - rh))
    else:
        x, y = int(rng.integers(0, w - rw)), int(rng.integers(0, h - rh))
    if on_card:
        paper = np.array([236, 232, 220], np.float32) + rng.normal(0, 8, 3).astype(np.float32)
        shadow = ndimage.gaussian_filter(card_r, 4)
        _place(img, shadow, np.zeros(3, np.float32), x + 4, y + 5, strength=0.4)
        tex = card_r * (1 + (_noise(rng, rh, rw, 3) - 0.5) * 0.08)
        _place(img, tex, paper, x, y)
    if style == INDEPENDENT:
        ink_colour = np.array([[30, 40, 140], [150, 30, 30], [20, 20, 20]][int(rng.integers(3))], np.float32)
        strength = float(rng.uniform(0.45, 0.9))
    elif style == TRAINING:  # any dark pen, fresh or faded (training sees more than the dev set)
        ink_colour = rng.uniform(0, 150, 3).astype(np.float32)
        strength = float(rng.uniform(0.35, 1.0))
    else:
        ink_colour = np.array([[15, 15, 20], [20, 25, 80], [40, 30, 30]][int(rng.integers(3))], np.float32)
        strength = float(rng.uniform(0.75, 1.0)) if on_card else float(rng.uniform(0.6, 0.95))
    _place(img, ink_r, ink_colour, x, y, strength=strength)
    ids_r = ndimage.rotate(id_layer, angle, reshape=True, order=0, mode="constant", cval=0)
    _place_ids(glyph_map, ids_r, x, y)
    if style == INDEPENDENT and on_card and rng.random() < 0.3:  # a pen stroke across the card
        stroke = np.zeros((rh, rw, 3), np.float32)
        draw_line(stroke, rng, colour=np.array([255.0, 255.0, 255.0]), width=2)
        _place(img, stroke[:, :, 0] / 255.0, ink_colour, x, y, strength=strength * 0.8)
    truths = []
    for line, mask, digit_ids in number_masks:
        box = _box_of(_rotate(mask, angle), x, y, img.shape)
        if box is not None and line.number is not None and line.kind is not None:
            truths.append(Truth(line.number, box, line.kind, script, hand, "card" if on_card else "skin", digit_ids))
    return truths


def _place_ids(glyph_map: np.ndarray, ids: np.ndarray, x: int, y: int) -> None:
    h, w = glyph_map.shape
    lh, lw = ids.shape
    x0, y0, x1, y1 = max(0, x), max(0, y), min(w, x + lw), min(h, y + lh)
    if x0 < x1 and y0 < y1:
        part = ids[y0 - y:y1 - y, x0 - x:x1 - x]
        region = glyph_map[y0:y1, x0:x1]
        region[part > 0] = part[part > 0]


def _overlaps(box: list[int], others: list[Truth]) -> bool:
    for other in others:
        b = other.box
        if box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]:
            return True
    return False


def _damage_dev(img: np.ndarray, rng: np.random.Generator) -> Image.Image:
    img = img * rng.uniform(0.35, 1.0)
    out = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    sigma = rng.uniform(0, 2.2)
    if sigma > 0.3:
        out = out.filter(ImageFilter.GaussianBlur(sigma))
    noisy = np.asarray(out, np.float32) + rng.normal(0, rng.uniform(1, 8), (out.size[1], out.size[0], 1))
    return Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8))


def _damage_independent(img: np.ndarray, rng: np.random.Generator) -> Image.Image:
    h, w = img.shape[:2]
    angle = rng.uniform(0, math.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = (xx * math.cos(angle) + yy * math.sin(angle)) / (w + h)
    low, high = rng.uniform(0.3, 0.7), rng.uniform(0.75, 1.0)
    img = img * (low + (high - low) * (light - light.min()) / max(float(np.ptp(light)), 1e-6))[:, :, None]
    length = int(rng.integers(1, 10))
    if length >= 3:
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0
        kernel = ndimage.rotate(kernel, rng.uniform(0, 180), reshape=False, order=1)
        kernel /= kernel.sum()
        img = np.stack([ndimage.convolve(img[:, :, c], kernel, mode="nearest") for c in range(3)], axis=2)
    out = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    buffer = io.BytesIO()
    out.save(buffer, "JPEG", quality=int(rng.integers(35, 86)))
    return Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")


def _damage_training(img: np.ndarray, rng: np.random.Generator) -> Image.Image:
    """The dev set's damage, then (training only) sometimes a smear in one direction, a light
    gradient and JPEG compression: damage the recogniser should survive, whatever its source."""
    out = _damage_dev(img, rng)
    if rng.random() < 0.5:
        arr = np.asarray(out, np.float32)
        h, w = arr.shape[:2]
        if rng.random() < 0.4:
            length = int(rng.integers(3, 8))
            kernel = np.zeros((length, length), np.float32)
            kernel[length // 2, :] = 1.0
            kernel = ndimage.rotate(kernel, rng.uniform(0, 180), reshape=False, order=1)
            kernel /= max(float(kernel.sum()), 1e-6)
            arr = np.stack([ndimage.convolve(arr[:, :, c], kernel, mode="nearest") for c in range(3)], axis=2)
        ramp = np.linspace(rng.uniform(0.4, 1.0), rng.uniform(0.7, 1.0), w if rng.random() < 0.5 else h)
        lit = arr * (ramp[None, :, None] if len(ramp) == w else ramp[:, None, None])
        out = Image.fromarray(np.clip(lit, 0, 255).astype(np.uint8))
    if rng.random() < 0.5:
        buffer = io.BytesIO()
        out.save(buffer, "JPEG", quality=int(rng.integers(30, 90)))
        out = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")
    return out


def make_image(rng: np.random.Generator, style: str = DEV, width: int = 1000,
               with_numbers: bool | None = None, groups: int | None = None) -> Sample:
    """One photo-like image of the set ``style`` and the numbers written on it (``groups``, for
    training, sets how many cards or skin patches are written)."""
    if with_numbers is None:
        with_numbers = bool(rng.random() >= 0.3)
    h = int(width * rng.choice([0.75, 0.667, 1.0, 1.333]))
    img, skins = (_independent_background if style == INDEPENDENT else _dev_background)(rng, h, width)
    truths: list[Truth] = []
    glyph_map = np.zeros((h, width), np.int32)
    glyph_labels: list[str] = []
    if groups is None:
        groups = int(rng.integers(1, 3)) if with_numbers else (1 if rng.random() < 0.25 else 0)
    for _ in range(groups):
        on_card = bool(rng.random() < 0.55)
        for _attempt in range(4):
            scratch, scratch_map, scratch_labels = img.copy(), glyph_map.copy(), list(glyph_labels)
            written = _write_group(scratch, rng, style, on_card, with_numbers, skins, scratch_map, scratch_labels)
            if with_numbers and not written:
                continue
            if any(_overlaps(t.box, truths) for t in written):
                continue
            img, glyph_map, glyph_labels = scratch, scratch_map, scratch_labels
            truths.extend(written)
            break
    damage = {INDEPENDENT: _damage_independent, TRAINING: _damage_training}.get(style, _damage_dev)
    image = damage(img, rng)
    return Sample(image, truths, glyph_map, glyph_labels)


def write_set(out_dir: Path, style: str, count: int, seed: int, width: int = 1000) -> Path:
    """Write ``count`` images of a set and ``truth.json``; return the truth file's path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(count):
        sample = make_image(rng, style, width)
        name = f"{style}-{i:04d}.jpg"
        sample.image.save(out_dir / name, quality=92)
        rows.append({"path": name, "numbers": [t.as_dict() for t in sample.numbers]})
    truth = out_dir / "truth.json"
    truth.write_text(json.dumps({"style": style, "seed": seed, "images": rows}, ensure_ascii=False, indent=1))
    return truth
