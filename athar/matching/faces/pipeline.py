"""From a photo to embedded faces: rotations, contrast, small faces, de-duplication.

``FacePipeline.analyse`` finds every face at any quarter-turn (and between them), keeps each physical
face once (detections from the four turns are mapped back to the original photo and
merged), embeds it once with the model's recipe (``embed_crop``: for ArcFace the grey crop
and its mirror image; embedding is the expensive step), drops what the embedder does not see as a
face (the model's feature-norm floor), and returns :class:`DetectedFace` records.
``FacePipeline.aligned_faces`` stops before embedding and before that check (tools that need only
the aligned crops: fine-tuning data, fast benchmarks of a new embedder).
``family_face`` picks the face a family means.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TypeVar

import numpy as np
from PIL import Image, ImageFilter, ImageOps

from .datatypes import Box, DetectedFace, Detection, Embedder, FloatArray, UInt8Array
from .dlib_models import HogDetector
from .errors import FaceNumberOutOfRange, FaceTooSmall, NoFaceFound
from .images import ImageSource, load_image
from .models_registry import DEFAULT_MODEL, FaceModel, get_face_model
from .orientation import upright_logits
from .quality import combine_quality, quality_parts
from .roll import refine_rolled_landmarks
from .rotation import (
    ROTATIONS,
    box_to_original,
    points_from_turned,
    points_to_original,
    rotate_cw,
    turn_cw_any,
    turn_points,
)

MIN_DETECTION_SIDE = 12  # below this no embedder says anything useful
MIN_FAMILY_FACE_SIDE = 40  # family photos: ask for a better photo below this
DETECTION_BLUR = 1.5  # Gaussian radius in pixels of the photo
SMALL_IMAGE_SIDE = 200  # photos smaller than this are upsampled ×2 before detection
TILE_ABOVE_SIDE = 480  # larger photos are also searched in overlapping tiles
# Tiles are 2×2, each TILE_OVERLAP/2 of the photo. With TILE_MAX_SIDE set, finer levels follow
# (4×4, 6×6 …, each TILE_OVERLAP/n) until a tile's longer side is at most that. Not the default:
# on large photos finer tiles found many more small faces but, on a busy textured background,
# also many false ones (3000×2000, max side 960: 32 instead of 21 of 40 faces, 450 false faces
# instead of 0; docs/faces.md, benchmarks/faces/large_photos.py --tile-max-side).
TILE_MAX_SIDE: int | None = None
TILE_OVERLAP = 1.2
FLAT_RANGE = 32  # grey levels: a photo whose 1 %–99 % range is narrower is "flat" (stretch_contrast)
BACKGROUND_TOLERANCE = 6  # grey levels around a flat photo's most common level that count as background
# Detector logit + upright logit below this is dropped before embedding: on LFW dev it
# removed 35 % of off-centre detections (many false) and 0.5 % of the real faces.
MIN_FACE_EVIDENCE = 0.0
TURN_DETECTOR_WEIGHT = 0.25
# A face whose chosen turn falls under the model's feature-norm floor is kept at another turn only
# if that crop is clearly a face: at least this many times the floor. Texture reached at most
# 1.44× the floor at any turn on the textured test sheets; real faces at the right turn ~2×.
SECOND_OPINION_FACTOR = 1.6
# A face under that bar is "doubtful" and its other turns are embedded too; one replaces it only if
# at least this many times longer: an upright face at 3.1 lost to its own upside-down crop at 3.5
# without a margin, while a head at 30° from its chosen quarter turn came out at 2.1–2.9 against
# ~4 at the right one (docs/faces.md, "Faces at any angle").
TURN_SWITCH_RATIO = 1.3
# A photo with no clearly-a-face face is searched again turned by this many degrees (then at its
# quarter turns): a head lying between two quarter turns. None: never.
DIAGONAL_TURN: int | None = 45
SAME_FACE_OVERLAP = 0.5  # intersection over the smaller box
# A photo left without any face gets a last look at the detections the upright check dropped; only a
# crop that is clearly a face is kept (FacePipeline._rescued). False: never.
RESCUE_DROPPED = True
# Then, a photo still without a face is searched by dlib's HOG detector at the quarter turns (upsample 1,
# then 2 when it finds nothing), on the stretched photo; again only a clearly-a-face crop is kept
# (FacePipeline._hog_rescued). False: never.
RESCUE_HOG = False
# A kept face that is still not clearly a face after the second opinion is tried at every multiple of
# this turn (degrees) about its own box; the longest crop replaces it if it is clearly a face and
# TURN_SWITCH_RATIO times longer (FacePipeline._any_turn). None: never.
ANY_TURN_STEP: int | None = None
# Landmarks of a face rolled by more than this (degrees) are found again on the face turned
# upright (roll.py): the landmark model misplaces points on a head lying between quarter turns.
# None: never.
ROLL_REFINE_ABOVE: float | None = 25.0


@dataclass
class _Candidate:
    rotation: int
    det: Detection  # in the rotated photo's coordinates
    original_box: Box

    @property
    def strength(self) -> float:
        """Detector logit: probabilities saturate near 1, logits still separate turns."""
        if self.det.logit is not None:
            return self.det.logit
        p = min(max(self.det.score, 1e-7), 1 - 1e-7)
        return math.log(p / (1 - p))


@dataclass(frozen=True)
class AlignedFace:
    """A face found, turned upright and aligned as the embedder will see it, not yet embedded."""

    box: Box  # in the original photo's coordinates
    rotation: int
    landmarks: FloatArray  # in the original photo's coordinates
    detector_score: float
    crop: Image.Image


def _scaled_box(det: Detection, scale: float, dx: float = 0, dy: float = 0) -> Detection:
    b = det.box
    return Detection(
        Box(b.left / scale + dx, b.top / scale + dy, b.right / scale + dx, b.bottom / scale + dy), det.score, det.logit
    )


def _band_range(hist: list[int], cutoff: float) -> tuple[int, int]:
    """Lowest and highest level of one band after cutting ``cutoff`` % of pixels off each end."""
    cut, total = sum(hist) * cutoff / 100, 0
    lo = 0
    while lo < 255 and total + hist[lo] <= cut:
        total += hist[lo]
        lo += 1
    total, hi = 0, 255
    while hi > 0 and total + hist[hi] <= cut:
        total += hist[hi]
        hi -= 1
    return lo, hi


def stretch_contrast(img: Image.Image, cutoff: float = 1.0) -> Image.Image:
    """A global contrast stretch: PIL's autocontrast (1 % cut-off), except on flat photos.

    On a photo that is mostly one flat colour — a small face on a large sheet or floor — the
    1 % / 99 % levels are both the background's: autocontrast then does nothing at all (both
    levels equal: a dim face stays dim) or maps a few grey levels onto 0–255 (the face turns
    black and white). When a band's range is under FLAT_RANGE levels, the levels are taken from
    the pixels that are not the background (luminance more than BACKGROUND_TOLERANCE from the
    most common level) instead. Every other photo gets exactly ImageOps.autocontrast (no photo of
    the degraded dev benchmark is that flat: the narrowest spans 33 levels).
    """
    hist = img.histogram()
    ranges = [_band_range(hist[b * 256 : (b + 1) * 256], cutoff) for b in range(len(img.getbands()))]
    if all(hi - lo >= FLAT_RANGE for lo, hi in ranges):
        return ImageOps.autocontrast(img, cutoff=cutoff)
    lum = np.asarray(img.convert("L"), dtype=np.int16)
    background = int(np.bincount(lum.ravel(), minlength=256).argmax())
    foreground = np.abs(lum - background) > BACKGROUND_TOLERANCE
    if foreground.mean() < 0.002:  # nothing but background: nothing to bring out
        return img
    pixels = np.asarray(img).reshape(lum.shape + (-1,))[foreground]
    lut: list[int] = []
    for band in range(pixels.shape[1]):
        lo, hi = (float(v) for v in np.percentile(pixels[:, band], [cutoff, 100 - cutoff]))
        if hi - lo < FLAT_RANGE:
            lo = min(max(0.0, (lo + hi - FLAT_RANGE) / 2), 255.0 - FLAT_RANGE)
            hi = lo + FLAT_RANGE
        lut += [int(min(255, max(0, (i - lo) * 255.0 / (hi - lo)))) for i in range(256)]
    return img.point(lut)


def tile_grid(width: int, height: int, max_side: int | None = None) -> list[tuple[int, int, int, int]]:
    """Overlapping tiles (left, top, width, height) of a large photo, coarse to fine.

    Level n cuts the photo into n×n tiles, each 1.2/n of the photo's size (neighbours overlap,
    so a face on a seam is whole in some tile). Level 2 always; with ``max_side`` (default
    TILE_MAX_SIDE) n = 4, 6 … follow until tiles are at most that on their longer side (max side
    640: a 1600×1200 photo gets 20 tiles, a 3000×2000 one 56; the detector costs ~2.4 ms a tile).
    """
    max_side = TILE_MAX_SIDE if max_side is None else max_side
    out: list[tuple[int, int, int, int]] = []
    n = 2
    while True:
        tw, th = min(width, math.ceil(width * TILE_OVERLAP / n)), min(height, math.ceil(height * TILE_OVERLAP / n))
        for i in range(n):
            for j in range(n):
                out.append((round(i * (width - tw) / (n - 1)), round(j * (height - th) / (n - 1)), tw, th))
        if max_side is None or max(tw, th) <= max_side:
            return out
        n += 2


def embed_crop(embedder: Embedder, crop: Image.Image, recipe: str = "plain") -> FloatArray:
    """The stored vector of an aligned crop (see :func:`embed_crop_with_norm`)."""
    return embed_crop_with_norm(embedder, crop, recipe)[0]


def _raw_passes(embedder: Embedder, crops: list[Image.Image]) -> tuple[list[FloatArray], float | None]:
    """Unit vectors of the crops and the mean raw length, when the embedder gives raw outputs."""
    raw = getattr(embedder, "embed_raw", None)
    if raw is None:
        return [embedder.embed(c) for c in crops], None
    outs = [raw(c) for c in crops]
    norms = [max(float(np.linalg.norm(o)), 1e-12) for o in outs]
    return [(o / n).astype(np.float32) for o, n in zip(outs, norms)], float(np.mean(norms))


def embed_crop_with_norm(embedder: Embedder, crop: Image.Image, recipe: str = "plain") -> tuple[FloatArray, float | None]:
    """The stored vector of an aligned crop under an embedding recipe (models_registry.RECIPES).

    "grey-mirror": the crop is turned to luminance (replicated to three channels) and embedded
    together with its mirror image; the unit vectors are averaged and renormalised. Grey
    makes the vector blind to saturation and colour differences between a family's colour
    photo and a faded or fluorescent-lit archive print (a 75 % desaturated crop: cosine 0.98–0.99
    to its colour original with the plain recipe, 0.9995 with this one), and the mirror
    average removes a left/right bias of the embedder (a face and its mirror image get the
    same vector). Measured on LFW dev, archive condition: rank-1 0.571 → 0.629; clean 0.958 →
    0.975 (docs/faces.md). Costs one more embedding per face.
    """
    if recipe == "plain":
        (v,), norm = _raw_passes(embedder, [crop])
        return v, norm
    if recipe == "grey-mirror":
        grey = crop.convert("L").convert("RGB")
        (a, b), norm = _raw_passes(embedder, [grey, ImageOps.mirror(grey)])
        v = a + b
        return (v / max(float(np.linalg.norm(v)), 1e-12)).astype(np.float32), norm
    raise ValueError(f"unknown embedding recipe {recipe!r}")


class FacePipeline:
    """Detect, align and embed every face in a photo with one face model."""

    def __init__(
        self,
        model: FaceModel | str = DEFAULT_MODEL,
        rotations: tuple[int, ...] = ROTATIONS,
        enhance: bool = True,
    ) -> None:
        self.model = get_face_model(model) if isinstance(model, str) else model
        self.rotations = rotations
        self.enhance = enhance

    @property
    def model_name(self) -> str:
        return self.model.name

    @property
    def model_version(self) -> str:
        return self.model.version

    def analyse(self, image: Image.Image | ImageSource) -> list[DetectedFace]:
        """Every distinct face in the photo, embedded, largest first.

        A detection whose crop the embedder does not see as a face (raw vector shorter than the
        model's ``min_feature_norm``) is dropped here: texture on a large photo otherwise becomes
        "faces" that a family would be shown and that every search would compare against.

        When the chosen turn's crop is not clearly a face (under ``SECOND_OPINION_FACTOR`` × the
        floor), the face's other turns (those the detector also fired at) are embedded too and the
        longest replaces it if it is clearly a face and ``TURN_SWITCH_RATIO`` times longer: the
        upright model turns some faces wrongly (an upright, tilted LFW face taken as lying on its
        side; a head lying at 30° from a quarter turn), and a crop at the wrong turn is exactly
        what the embedder does not see as a face. When no face of the photo is clearly one, the
        photo is searched again turned by ``DIAGONAL_TURN`` degrees, for a head lying between two
        quarter turns; only clear faces are taken from that pass.

        The floor never empties a photo: when every face is under it, the longest is kept. A
        badly aligned real face (off-centre, turned) also comes out short, and for a case whose only
        face it is, a weak vector is better than none (of 7 benchmark photos seen losing their only
        face to the floor, 6 held a real face, badly aligned or turned; docs/faces.md).
        """
        img = image if isinstance(image, Image.Image) else load_image(image)
        faces, short = self._kept_and_short(img)
        if DIAGONAL_TURN is not None and not any(self._clearly_a_face(f) for f in faces):
            faces = _with_better_faces(faces, self._diagonal_faces(img, DIAGONAL_TURN))
        if not faces and short:
            faces = [max(short, key=_norm)]
        if not faces and RESCUE_DROPPED:
            faces = self._rescued(img)
        if not faces and RESCUE_HOG:
            faces = self._hog_rescued(img)
        return sorted(faces, key=lambda f: -f.box.area)

    def _hog_rescued(self, img: Image.Image) -> list[DetectedFace]:
        """A photo still without a face: a second detector (dlib's HOG, as the simple baseline uses it) at
        the quarter turns; the longest crop is kept if it is clearly a face (``SECOND_OPINION_FACTOR`` ×
        the floor), so texture HOG fires on stays out as the rescue's does."""
        floor = self.model.min_feature_norm
        if floor is None:
            return []
        work, _ = self.prepare(img.convert("RGB"))
        best: DetectedFace | None = None
        for detector in _hog_detectors():
            for r in self.rotations:
                for det in detector.detect(np.asarray(rotate_cw(work, r))):
                    if min(det.box.width, det.box.height) < MIN_DETECTION_SIDE:
                        continue
                    c = _Candidate(r, det, box_to_original(det.box, r, img.width, img.height))
                    face = self._embed(self._align(work, c, self._landmarks(work, c)))
                    if _norm(face) >= SECOND_OPINION_FACTOR * floor and (best is None or _norm(face) > _norm(best)):
                        best = face
            if best is not None:
                break
        return [best] if best is not None else []

    def _rescued(self, img: Image.Image) -> list[DetectedFace]:
        """A photo left without any face: the detections the upright check dropped (evidence under
        MIN_FACE_EVIDENCE) get the embedder's opinion at each turn they were found at, and the longest
        crop is kept if it is clearly a face (``SECOND_OPINION_FACTOR`` × the floor: texture stayed under
        1.44×). On the second degradation model most archive photos without a face had such a detection:
        a damaged, dark or rolled head the upright model doubted (docs/faces.md, issue 19)."""
        floor = self.model.min_feature_norm
        if floor is None:
            return []
        work, seen = self.prepare(img.convert("RGB"))
        best: DetectedFace | None = None
        for group in self._groups(self._candidates(seen)):
            for c in _one_per_turn(group):
                face = self._embed(self._align(work, c, self._landmarks(work, c)))
                if _norm(face) >= SECOND_OPINION_FACTOR * floor and (best is None or _norm(face) > _norm(best)):
                    best = face
        return [best] if best is not None else []

    def _kept_and_short(self, img: Image.Image) -> tuple[list[DetectedFace], list[DetectedFace]]:
        """The faces kept at their best quarter turn, and those under the floor at every turn."""
        work, first_choices = self._first_choices(img)
        faces: list[DetectedFace] = []
        short: list[DetectedFace] = []
        for group, aligned in first_choices:
            face = self._embed(aligned)
            if self._doubtful(face):
                second = self._other_turn(work, group, aligned.rotation)
                if second is not None and _norm(second) >= TURN_SWITCH_RATIO * _norm(face):
                    face = second
                elif self._too_short(face):
                    short.append(face)
                    continue
                elif ANY_TURN_STEP is not None:
                    face = self._any_turn(work, face, ANY_TURN_STEP)
            faces.append(face)
        return faces, short

    def _any_turn(self, work: Image.Image, face: DetectedFace, step: int) -> DetectedFace:
        """A doubtful face (not clearly a face at its turn, after the other quarter turns were asked) tried
        at every multiple of ``step`` degrees about its own box: a head lying between the quarter turns, or
        one the upright model turned wrongly while another face kept the diagonal pass away. Only a crop
        that is clearly a face and TURN_SWITCH_RATIO times longer replaces it; no face is ever added, so
        texture gains nothing it did not have."""
        bar = SECOND_OPINION_FACTOR * (self.model.min_feature_norm or 0.0)
        best = face
        for degrees in range(0, 360, step):
            turned = self._turned_in_place(work, face, degrees)
            if _norm(turned) >= bar and _norm(turned) >= TURN_SWITCH_RATIO * _norm(face) and _norm(turned) > _norm(best):
                best = turned
        return best

    def _turned_in_place(self, work: Image.Image, face: DetectedFace, degrees: int) -> DetectedFace:
        """The face's box turned clockwise by ``degrees`` about its centre (a square patch twice its size),
        landmarks found there, aligned and embedded; landmarks mapped back to the photo."""
        box = face.box
        side = 2.0 * max(box.width, box.height)
        cx, cy = (box.left + box.right) / 2, (box.top + box.bottom) / 2
        x0, y0 = cx - side / 2, cy - side / 2
        size = max(1, round(side))
        patch = work.crop((round(x0), round(y0), round(x0) + size, round(y0) + size))
        centre = (size / 2, size / 2)
        turned = patch.rotate(-degrees, resample=Image.Resampling.BILINEAR, center=centre)
        w, h = (box.height, box.width) if degrees % 180 == 90 else (box.width, box.height)
        local = Box(centre[0] - w / 2, centre[1] - h / 2, centre[0] + w / 2, centre[1] + h / 2)
        points = self.model.landmarker.landmarks(np.asarray(turned), local)
        scheme = getattr(self.model.landmarker, "scheme", "dlib5")
        crop = self.model.embedder.align(turned, points, scheme)  # type: ignore[call-arg]
        back = turn_points(points, degrees, centre) + np.array([round(x0), round(y0)], np.float32)
        return self._embed(AlignedFace(box=box, rotation=degrees % 360, landmarks=back.astype(np.float32),
                                       detector_score=face.detector_score, crop=crop))

    def _diagonal_faces(self, img: Image.Image, degrees: int) -> list[DetectedFace]:
        """The faces of the photo turned by ``degrees`` (then at its quarter turns), mapped back:
        a head lying between two quarter turns, which the detector misses or the landmarks
        misplace at both of them. Like the second opinion on a turn, only what is clearly a face
        counts (``SECOND_OPINION_FACTOR`` × the floor): the turned photo is a new chance for the
        detector to take texture for a face, and a photo with no face must not gain a false one."""
        turned = turn_cw_any(img, degrees)

        def back(face: DetectedFace) -> DetectedFace:
            def to_photo(points: FloatArray) -> FloatArray:
                return points_from_turned(points, degrees, img.width, img.height, turned.width, turned.height)

            # The box keeps the face's size around its mapped centre (the bounds of a turned box
            # would be up to 1.4× larger than the face).
            centre = np.array([[(face.box.left + face.box.right) / 2, (face.box.top + face.box.bottom) / 2]], np.float32)
            cx, cy = (float(v) for v in to_photo(centre)[0])
            half_w, half_h = face.box.width / 2, face.box.height / 2
            box = Box(max(0.0, cx - half_w), max(0.0, cy - half_h), min(float(img.width), cx + half_w),
                      min(float(img.height), cy + half_h))
            return replace(face, box=box, landmarks=to_photo(face.landmarks), rotation=(face.rotation + degrees) % 360)

        kept, _ = self._kept_and_short(turned)
        return [back(f) for f in kept if self._clearly_a_face(f)]

    def _clearly_a_face(self, face: DetectedFace) -> bool:
        """Long enough that no other turn is worth asking about (or no floor to judge by)."""
        return not self._doubtful(face)

    def _doubtful(self, face: DetectedFace) -> bool:
        """Not clearly a face at this turn: under the length a second opinion must reach."""
        floor = self.model.min_feature_norm
        return floor is not None and face.feature_norm is not None and face.feature_norm < SECOND_OPINION_FACTOR * floor

    def _too_short(self, face: DetectedFace) -> bool:
        floor = self.model.min_feature_norm
        return floor is not None and face.feature_norm is not None and face.feature_norm < floor

    def _other_turn(self, work: Image.Image, group: list[_Candidate], rotation: int) -> DetectedFace | None:
        """The embedder's second opinion: the longest crop among the other turns, if clearly a face."""
        bar = SECOND_OPINION_FACTOR * (self.model.min_feature_norm or 0.0)
        best: DetectedFace | None = None
        for c in _one_per_turn(group):
            if c.rotation == rotation:
                continue
            face = self._embed(self._align(work, c, self._landmarks(work, c)))
            norm = face.feature_norm or 0.0
            if norm >= bar and (best is None or norm > (best.feature_norm or 0.0)):
                best = face
        return best

    def aligned_faces(self, image: Image.Image | ImageSource) -> list[AlignedFace]:
        """Every distinct face in the photo, aligned but not embedded, largest first.

        The faces ``analyse`` starts from, before the embedder's check (the feature-norm floor, its
        second opinion on the turn, the diagonal pass): a tool that embeds these crops itself sees
        every detection at the quarter turns.
        """
        faces = [aligned for _, aligned in self._first_choices(image)[1]]
        return sorted(faces, key=lambda f: -f.box.area)

    def _first_choices(self, image: Image.Image | ImageSource) -> tuple[Image.Image, list[tuple[list[_Candidate], AlignedFace]]]:
        """The prepared photo, and each face's detections with the face aligned at the chosen turn
        (groups with too little evidence of a face dropped): what both public methods start from."""
        img = image if isinstance(image, Image.Image) else load_image(image)
        work, seen = self.prepare(img.convert("RGB"))
        out = []
        for group in self._groups(self._candidates(seen)):
            chosen, points, evidence = self._choose_turn(work, group)
            if evidence >= MIN_FACE_EVIDENCE:
                out.append((group, self._align(work, chosen, points)))
        return work, out

    def prepare(self, img: Image.Image) -> tuple[Image.Image, Image.Image]:
        """(image for landmarks and embedding, image for the detector).

        A global contrast stretch helps with grey, underexposed archive photos and
        changes little on a normal photo. The detector sees a slightly blurred copy:
        noise and JPEG blocks otherwise hide faces (degraded LFW dev: faces found in
        90 % of photos instead of 75 %).
        """
        if not self.enhance:
            return img, img
        work = stretch_contrast(img)
        # The blur is for noise at the scale of a ~250 px face photo; a tiny photo gets
        # proportionally less, or its small face is smeared away.
        radius = DETECTION_BLUR * min(1.0, max(img.size) / 250)
        seen = stretch_contrast(img.filter(ImageFilter.GaussianBlur(radius)))
        return work, seen

    def _candidates(self, img: Image.Image) -> list[_Candidate]:
        out = []
        for r in self.rotations:
            arr = np.asarray(rotate_cw(img, r))
            for det in self._detect(arr):
                if min(det.box.width, det.box.height) >= MIN_DETECTION_SIDE:
                    out.append(_Candidate(r, det, box_to_original(det.box, r, img.width, img.height)))
        return out

    def _detect(self, arr: UInt8Array) -> list[Detection]:
        h, w = arr.shape[:2]
        if max(h, w) < SMALL_IMAGE_SIDE:
            big = np.asarray(Image.fromarray(arr).resize((w * 2, h * 2), Image.Resampling.BICUBIC))
            return [_scaled_box(d, 2.0) for d in self.model.detector.detect(big)]
        dets = list(self.model.detector.detect(arr))
        if max(h, w) > TILE_ABOVE_SIDE:
            dets += self._detect_tiles(arr)
        return dets

    def _detect_tiles(self, arr: UInt8Array) -> list[Detection]:
        """Small faces in big photos vanish when the detector shrinks the photo to 320×240.

        Tiles of one level share a size, so the photo is shrunk once per level to the scale the
        detector would shrink each tile to, and the tiles are cut from that (shrinking every
        tile on its own cost as much as the detector).
        """
        h, w = arr.shape[:2]
        side_w, side_h = getattr(self.model.detector, "W", None), getattr(self.model.detector, "H", None)
        out: list[Detection] = []
        levels: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for x0, y0, tw, th in tile_grid(w, h):
            levels.setdefault((tw, th), []).append((x0, y0))
        for (tw, th), corners in levels.items():
            # The first level (2×2) is cut from the photo itself, as before finer levels existed.
            fine = len(corners) > 4 and side_w is not None and side_h is not None and bool(side_w and side_h)
            scale = min(1.0, side_w / tw, side_h / th) if fine and side_w and side_h else 1.0
            level = arr if scale >= 1 else np.asarray(
                Image.fromarray(arr).resize((max(1, round(w * scale)), max(1, round(h * scale))), Image.Resampling.BILINEAR))
            stw, sth = max(1, round(tw * scale)), max(1, round(th * scale))
            for x0, y0 in corners:
                sx, sy = round(x0 * scale), round(y0 * scale)
                for d in self.model.detector.detect(np.ascontiguousarray(level[sy : sy + sth, sx : sx + stw])):
                    out.append(_scaled_box(d, scale, x0, y0))
        return out

    def _merge(self, img: Image.Image, cands: list[_Candidate]) -> list[tuple[_Candidate, FloatArray, float]]:
        """One candidate per physical face, at the turn that makes it upright.

        Detections are grouped by overlap (intersection over the smaller box) in
        original coordinates; within a group the turn is chosen by the upright model
        (orientation.py): 93 % right on degraded, turned LFW dev photos.
        """
        return [self._choose_turn(img, g) for g in self._groups(cands)]

    @staticmethod
    def _groups(cands: list[_Candidate]) -> list[list[_Candidate]]:
        """Detections of one physical face (any turn) together, each group strongest first."""
        groups: list[list[_Candidate]] = []
        for c in sorted(cands, key=lambda c: -c.strength):
            for g in groups:
                if c.original_box.overlap(g[0].original_box) >= SAME_FACE_OVERLAP:
                    g.append(c)
                    break
            else:
                groups.append([c])
        return groups

    def _choose_turn(self, img: Image.Image, group: list[_Candidate]) -> tuple[_Candidate, FloatArray, float]:
        """Among the turns the face was detected at, the one the upright model prefers.

        Score = upright logit + TURN_DETECTOR_WEIGHT × detector logit (weights measured
        in benchmarks/faces/train_orientation.py). Returns the candidate, its landmarks
        and the score (low scores are dropped as non-faces).
        """
        upright = upright_logits(img, group[0].original_box)
        best = {c.rotation: c for c in _one_per_turn(group)}
        score = {r: upright[r] + TURN_DETECTOR_WEIGHT * c.strength for r, c in best.items()}
        chosen = best[max(score, key=score.__getitem__)]
        return chosen, self._landmarks(img, chosen), score[chosen.rotation]

    def _landmarks(self, img: Image.Image, c: _Candidate) -> FloatArray:
        """The face's landmarks at its turn; found again on the face turned upright when rolled."""
        turned = rotate_cw(img, c.rotation)
        points = self.model.landmarker.landmarks(np.asarray(turned), c.det.box)
        if ROLL_REFINE_ABOVE is None:
            return points
        scheme = getattr(self.model.landmarker, "scheme", "dlib5")
        return refine_rolled_landmarks(self.model.landmarker, turned, c.det.box, points, scheme, ROLL_REFINE_ABOVE)

    def _align(self, img: Image.Image, c: _Candidate, points: FloatArray) -> AlignedFace:
        scheme = getattr(self.model.landmarker, "scheme", "dlib5")
        crop = self.model.embedder.align(rotate_cw(img, c.rotation), points, scheme)  # type: ignore[call-arg]
        return AlignedFace(
            box=c.original_box,
            rotation=c.rotation,
            landmarks=points_to_original(points, c.rotation, img.width, img.height),
            detector_score=c.det.score,
            crop=crop,
        )

    def _embed(self, face: AlignedFace) -> DetectedFace:
        parts = quality_parts(face.box, face.crop, face.detector_score)
        embedding, norm = embed_crop_with_norm(self.model.embedder, face.crop, self.model.recipe)
        return DetectedFace(
            box=face.box,
            rotation=face.rotation,
            landmarks=face.landmarks,
            detector_score=face.detector_score,
            quality=combine_quality(parts),
            embedding=embedding,
            crop=face.crop,
            model_name=self.model.name,
            model_version=self.model.version,
            quality_parts=parts,
            feature_norm=norm,
        )


_HOG: list[HogDetector] = []


def _hog_detectors() -> list[HogDetector]:
    """dlib's HOG at upsample 1, then 2 (loaded once, on the first photo that needs them)."""
    if not _HOG:
        _HOG.extend([HogDetector(upsample=1), HogDetector(upsample=2)])
    return _HOG


def _norm(face: DetectedFace) -> float:
    return face.feature_norm or 0.0


def _with_better_faces(faces: list[DetectedFace], turned: list[DetectedFace]) -> list[DetectedFace]:
    """Faces of the diagonal pass added to the quarter-turn ones: where both found one face, the
    diagonal one replaces it only if clearly longer (``TURN_SWITCH_RATIO``)."""
    out = list(faces)
    for face in turned:
        same = [i for i, f in enumerate(out) if f.box.overlap(face.box) >= SAME_FACE_OVERLAP]
        if not same:
            out.append(face)
        elif all(_norm(face) >= TURN_SWITCH_RATIO * _norm(out[i]) for i in same):
            out = [f for i, f in enumerate(out) if i not in same] + [face]
    return out


def _one_per_turn(group: list[_Candidate]) -> list[_Candidate]:
    """The strongest detection at each turn of a group (the group is strongest first)."""
    best: dict[int, _Candidate] = {}
    for c in group:
        best.setdefault(c.rotation, c)
    return list(best.values())


_Face = TypeVar("_Face", DetectedFace, AlignedFace)


def family_order(faces: list[_Face]) -> list[_Face]:
    """Faces in the order a family photo's default choice uses: upright first, then largest."""
    return sorted(faces, key=lambda f: (f.rotation != 0, -f.box.area))


def family_face(
    faces: list[DetectedFace], face_number: int | None = None, min_side: int = MIN_FAMILY_FACE_SIDE
) -> DetectedFace:
    """The face a family means: the largest upright face by default, or face ``face_number``.

    Family photos are upright once EXIF orientation is applied, so a "face" found
    only by turning the photo is usually a false detection (a flag, a fold of cloth):
    upright faces are preferred, then the largest. Faces are numbered from 1, left to
    right by the centre of their box (what a person sees on screen).
    Raises NoFaceFound, FaceNumberOutOfRange or FaceTooSmall.
    """
    if not faces:
        raise NoFaceFound()
    if face_number is None:
        face = family_order(faces)[0]
    else:
        ordered = sorted(faces, key=lambda f: (f.box.left + f.box.right) / 2)
        if not 1 <= face_number <= len(ordered):
            raise FaceNumberOutOfRange(face_number, len(ordered))
        face = ordered[face_number - 1]
    side = min(face.box.width, face.box.height)
    if side < min_side:
        raise FaceTooSmall(side, min_side)
    return face
