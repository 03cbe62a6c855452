"""Issue 19: the product pipeline's steps against the simple baseline, in the same run, on clean photos
and on two independent degradation models (degrade.py's "archive" mix, degrade_b.py's "archive_b").

Each variant is a photo → (n, 512) vectors function: the product pipeline with one step switched
(``P-…``) or the simple baseline with one product step added (``S+…``). Every variant sees the same
photos (same seeds as identification.py for the first model; ``archive_b`` seeded by identity).
Probes are each person's first photo, clean (the family's photo); cases their second photo,
degraded; 20 % of the people are absent from the gallery; people with one photo are distractors.

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python benchmarks/faces/ablation.py --split dev \
        --mated 200 --distractors 200 --conditions clean archive archive_b --variants S P P-diagonal ...

Prints one JSON line per (variant, condition): rank-1/5/10, median rank, MRR, cases without a face,
CPU seconds per photo and, for variants whose vectors the shipped calibration was fitted on, the
true- and false-match rates. Vectors are cached per variant key in /tmp/athar-face-cache/ablation.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import degrade  # noqa: E402
import degrade_b  # noqa: E402
from identification import _seed  # noqa: E402
from identity_split import Split, make_split  # noqa: E402
from simple_baseline import ALIGN_FITTED, SimplePipeline  # noqa: E402

import athar.matching.faces.pipeline as pl  # noqa: E402
from athar.matching.faces.align import ARCFACE_112, align_to_template  # noqa: E402
from athar.matching.faces.calibration import load_calibration  # noqa: E402
from athar.matching.faces.datatypes import Box, Detection  # noqa: E402
from athar.matching.faces.dlib_models import HogDetector  # noqa: E402
from athar.matching.faces.evaluation import identification_metrics, score_matrix  # noqa: E402
from athar.matching.faces.models_registry import get_face_model  # noqa: E402
from athar.matching.faces.onnx_models import ARCHIVE_EMBEDDER_FILE, ARCHIVE_EMBEDDER_VERSION, OnnxArcFaceEmbedder  # noqa: E402

CACHE = Path("/tmp/athar-face-cache/ablation")
Embed = Callable[[Image.Image, bool], np.ndarray]  # (photo, is_family_photo) → (n, 512)


class HogRetry:
    """dlib HOG at upsample 1, again at 2 when nothing is found (the simple pipeline's detector)."""

    name = "dlib-hog-retry"

    def __init__(self) -> None:
        self.one, self.two = HogDetector(upsample=1), HogDetector(upsample=2)

    def detect(self, rgb: np.ndarray) -> list[Detection]:
        return self.one.detect(rgb) or self.two.detect(rgb)


class ThreePointEmbedder(OnnxArcFaceEmbedder):
    """The same network, aligned as the simple pipeline aligns: eye centres and nose base onto ArcFace's."""

    def align(self, image: Image.Image, points: np.ndarray, scheme: str = "dlib5") -> Image.Image:
        three = np.stack([points[2:4].mean(0), points[0:2].mean(0), points[4]]).astype(np.float32)
        return align_to_template(image, three, ARCFACE_112[:3], 112)


class MirroredLandmarks:
    """dlib's 5 points found on the face and on its mirror image, averaged (the mirror's points flipped
    back, the eyes swapped): a test-time average against landmark jitter on damaged faces."""

    name = "dlib-5pt+mirror"
    scheme = "dlib5"
    SWAP = [2, 3, 0, 1, 4]  # outer/inner corners of one eye ↔ the other's; the nose stays

    def __init__(self, base: object) -> None:
        self.base = base

    def landmarks(self, rgb: np.ndarray, box: Box) -> np.ndarray:
        w = rgb.shape[1]
        direct = self.base.landmarks(rgb, box)  # type: ignore[attr-defined]
        mirrored = self.base.landmarks(np.ascontiguousarray(rgb[:, ::-1]), Box(w - box.right, box.top, w - box.left, box.bottom))  # type: ignore[attr-defined]
        back = mirrored[self.SWAP].copy()
        back[:, 0] = (w - 1) - back[:, 0]
        return ((direct + back) / 2).astype(np.float32)


class JitteredLandmarks:
    """dlib's 5 points from the detector's box and from the box shrunk and grown by 10 %, averaged."""

    name = "dlib-5pt+jitter"
    scheme = "dlib5"

    def __init__(self, base: object, scales: tuple[float, ...] = (0.9, 1.0, 1.1)) -> None:
        self.base, self.scales = base, scales

    def landmarks(self, rgb: np.ndarray, box: Box) -> np.ndarray:
        cx, cy = (box.left + box.right) / 2, (box.top + box.bottom) / 2
        found = []
        for k in self.scales:
            hw, hh = box.width * k / 2, box.height * k / 2
            found.append(self.base.landmarks(rgb, Box(cx - hw, cy - hh, cx + hw, cy + hh)))  # type: ignore[attr-defined]
        return np.mean(found, axis=0).astype(np.float32)


@contextlib.contextmanager
def constants(**values: object) -> Iterator[None]:
    """Switch pipeline.py's module constants for one variant, then put them back."""
    old = {k: getattr(pl, k) for k in values}
    for k, v in values.items():
        setattr(pl, k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(pl, k, v)


def one_best(faces: list[pl.DetectedFace], width: int, height: int) -> list[pl.DetectedFace]:
    """The simple pipeline's face choice applied to the product's faces: score + centrality + size."""
    def value(f: pl.DetectedFace) -> float:
        cx, cy = (f.box.left + f.box.right) / 2, (f.box.top + f.box.bottom) / 2
        dist = math.hypot(cx - width / 2, cy - height / 2) / math.hypot(width / 2, height / 2)
        return f.detector_score + (1 - min(dist, 1.0)) + min(1.0, min(f.box.width, f.box.height) / min(width, height))

    return sorted(faces, key=value, reverse=True)[:1]


@dataclasses.dataclass
class Variant:
    name: str
    key: str
    embed: Embed
    calibrated: bool = False  # the shipped calibration was fitted on these vectors


def product_variant(name: str, model: str = "arcface", consts: dict[str, object] | None = None, one: bool = False,
                    **model_changes: object) -> Variant:
    """The product pipeline (FacePipeline) with some steps switched."""
    face_model = get_face_model(model)
    enhance = bool(model_changes.pop("enhance", True))
    if model_changes:
        face_model = dataclasses.replace(face_model, **model_changes)
    pipe = pl.FacePipeline(face_model, enhance=enhance)
    consts = consts or {}

    def embed(img: Image.Image, family: bool) -> np.ndarray:
        with constants(**consts):
            faces = pl.family_order(pipe.analyse(img))
        if family:
            faces = faces[:1]
        elif one:
            faces = one_best(faces, img.width, img.height)
        return np.array([f.embedding for f in faces], np.float32).reshape(-1, face_model.dim)

    # The rescue of dropped detections came later: keys without it are those of the vectors cached before.
    rescue = bool(consts.get("RESCUE_DROPPED", pl.RESCUE_DROPPED))
    shown = {k: v for k, v in consts.items() if k != "RESCUE_DROPPED"}
    parts = [model, face_model.version, str(face_model.min_feature_norm), face_model.detector.name,
             type(face_model.embedder).__name__, str(enhance), json.dumps(shown, sort_keys=True, default=str), str(one)]
    parts += ["rescue"] if rescue else []
    landmarker = getattr(face_model.landmarker, "name", "dlib-5pt")
    parts += [landmarker] if landmarker != "dlib-5pt" else []  # the default leaves earlier keys as they were
    return Variant(name, "|".join(parts), embed, calibrated=name in ("P", "P-rescue"))


class RawCropPipeline(pl.FacePipeline):
    """The detector sees the enhanced photo; landmarks and embedding the photo as it is."""

    def prepare(self, img: Image.Image) -> tuple[Image.Image, Image.Image]:
        return img, super().prepare(img)[1]


def raw_crop_variant() -> Variant:
    v = product_variant("P-stretch-for-embedding")
    pipe = RawCropPipeline(get_face_model("arcface"))

    def embed(img: Image.Image, family: bool) -> np.ndarray:
        faces = pl.family_order(pipe.analyse(img))
        faces = faces[:1] if family else faces
        return np.array([f.embedding for f in faces], np.float32).reshape(-1, 512)

    return Variant(v.name, v.key + "|raw-crop", embed)


def rescue_variant() -> Variant:
    """The product with the rescue of dropped detections (pipeline.RESCUE_DROPPED), computed from the
    product-before-it's cached vectors: the rescue runs only when a photo has no face at all, so every
    other photo's vectors are the same; only the photos without a face are analysed again."""
    return on_empty_variant("P+rescue", {"RESCUE_DROPPED": True},
                            before=product_variant("P-rescue", consts={"RESCUE_DROPPED": False}),
                            key_suffix="rescue-on-empty")


def on_empty_variant(name: str, consts: dict[str, object], before: Variant | None = None,
                     key_suffix: str = "on-empty") -> Variant:
    """The product with a change that acts only on photos left without a face (``consts``), computed from
    the cached vectors of ``before`` (the product): only the photos without a face are analysed again."""
    before = before or product_variant("P")
    after = product_variant(name, consts=consts)
    lookup: dict[int, np.ndarray] = {}

    def embed(img: Image.Image, family: bool) -> np.ndarray:
        old = lookup.get(id(img))
        return after.embed(img, family) if old is None or len(old) == 0 else old

    def prime(tag: str, images: list[Image.Image], family: bool) -> None:
        vecs, _ = vectors(before, tag, lambda: images, family)
        lookup.update({id(img): v for img, v in zip(images, vecs)})

    v = Variant(name, f"{after.key}|{key_suffix}", embed, calibrated=True)
    v.prime = prime  # type: ignore[attr-defined]
    return v


def simple_variant(name: str, **kwargs: object) -> Variant:
    pipe = SimplePipeline(**kwargs)  # type: ignore[arg-type]
    return Variant(name, pipe.key, lambda img, family: pipe.vectors(img))


def variants() -> dict[str, Callable[[], Variant]]:
    return {
        "S": lambda: simple_variant("S"),
        "S+finetuned": lambda: simple_variant("S+finetuned", embedder_file=ARCHIVE_EMBEDDER_FILE),
        "S+fitted-template": lambda: simple_variant("S+fitted-template", align=ALIGN_FITTED),
        "S+grey-mirror": lambda: simple_variant("S+grey-mirror", recipe="grey-mirror"),
        "S+onnx-detector": lambda: simple_variant("S+onnx-detector", detector="onnx"),
        "P": lambda: product_variant("P"),
        "P-published": lambda: product_variant("P-published", "arcface-original"),
        "P-published+floor": lambda: product_variant("P-published+floor", "arcface-original", min_feature_norm=2.0),
        "P-diagonal": lambda: product_variant("P-diagonal", consts={"DIAGONAL_TURN": None}),
        "P-roll": lambda: product_variant("P-roll", consts={"ROLL_REFINE_ABOVE": None}),
        "P-enhance": lambda: product_variant("P-enhance", enhance=False),
        "P-stretch-for-embedding": raw_crop_variant,
        "P-detector-blur": lambda: product_variant("P-detector-blur", consts={"DETECTION_BLUR": 0.0}),
        "P-grey-mirror": lambda: product_variant("P-grey-mirror", recipe="plain"),
        "P-floor": lambda: product_variant("P-floor", min_feature_norm=None),
        "P-rescue": lambda: product_variant("P-rescue", consts={"RESCUE_DROPPED": False}),
        "P+one-face": lambda: product_variant("P+one-face", one=True),
        "P+rescue": lambda: rescue_variant(),
        "P+hog": lambda: product_variant("P+hog", detector=HogRetry()),
        "P+hog-rescue": lambda: on_empty_variant("P+hog-rescue", {"RESCUE_HOG": True}),
        "P+any-turn": lambda: product_variant("P+any-turn", consts={"ANY_TURN_STEP": 45}),
        "P+mirror-landmarks": lambda: product_variant(
            "P+mirror-landmarks", landmarker=MirroredLandmarks(get_face_model("arcface").landmarker)),
        "P+jitter-landmarks": lambda: product_variant(
            "P+jitter-landmarks", landmarker=JitteredLandmarks(get_face_model("arcface").landmarker)),
        "P+3pt": lambda: product_variant("P+3pt", embedder=ThreePointEmbedder(ARCHIVE_EMBEDDER_FILE, ARCHIVE_EMBEDDER_VERSION)),
        "P+hog+3pt": lambda: product_variant("P+hog+3pt", detector=HogRetry(),
                                             embedder=ThreePointEmbedder(ARCHIVE_EMBEDDER_FILE, ARCHIVE_EMBEDDER_VERSION)),
    }


class Photos:
    """The benchmark's photos, made once per process (every variant sees the same pixels)."""

    def __init__(self, split: Split) -> None:
        self.split = split
        self.others = [Image.open(p).convert("RGB") for _, p in split.distractors[-20:]]
        self._cases: dict[str, list[Image.Image]] = {}
        self.meta: dict[str, list[dict[str, float]]] = {}

    def probes(self) -> list[Image.Image]:
        s = self.split
        return [Image.open(p).convert("RGB") for _, p, _ in s.present] + [Image.open(p).convert("RGB") for _, p in s.absent]

    def cases(self, condition: str) -> list[Image.Image]:
        if condition not in self._cases:
            items = [(n, c) for n, _, c in self.split.present] + list(self.split.distractors)
            out, meta = [], []
            for i, (name, path) in enumerate(items):
                img, other = Image.open(path).convert("RGB"), self.others[i % len(self.others)]
                if condition == "archive_b":
                    out.append(degrade_b.apply_b(img, random.Random(_seed(name, "archive_b")), other))
                    meta.append(dict(degrade_b.LAST))
                else:
                    out.append(degrade.apply(condition, img, random.Random(_seed(name, condition)), other))
            self._cases[condition], self.meta[condition] = out, meta
        return self._cases[condition]


def vectors(v: Variant, tag: str, make: Callable[[], list[Image.Image]], family: bool) -> tuple[list[np.ndarray], float]:
    """Per-photo vectors and CPU seconds per photo, cached as npz (no pickles)."""
    path = CACHE / hashlib.sha256(v.key.encode()).hexdigest()[:12] / f"{tag}.npz"
    if path.exists():
        z = np.load(path)
        return [z["vecs"][z["owner"] == i] for i in range(int(z["n"]))], float(z["cpu"])
    images = make()
    start = time.process_time()
    vecs = [np.asarray(v.embed(img, family), np.float32).reshape(-1, 512) for img in images]
    cpu = (time.process_time() - start) / max(len(images), 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    owner = np.concatenate([np.full(len(x), i) for i, x in enumerate(vecs)]) if vecs else np.zeros(0)
    np.savez(path, vecs=np.concatenate(vecs) if vecs else np.zeros((0, 512), np.float32), owner=owner, n=len(vecs), cpu=cpu)
    return vecs, cpu


def evaluate(v: Variant, photos: Photos, tag: str, condition: str) -> dict[str, object]:
    s = photos.split
    prime = getattr(v, "prime", None)
    probe_images, case_images = photos.probes, lambda: photos.cases(condition)
    if prime is not None:  # reuse the vectors of the product before the change (rescue_variant)
        kept = photos.probes()
        probe_images = lambda: kept  # noqa: E731
        prime(f"{tag}-probes", kept, True)
        prime(f"{tag}-{condition}", photos.cases(condition), False)
    probes, probe_cpu = vectors(v, f"{tag}-probes", probe_images, True)
    cases, case_cpu = vectors(v, f"{tag}-{condition}", case_images, False)
    probes = [p[:1] for p in probes]
    true_case = list(range(len(s.present))) + [-1] * len(s.absent)
    cal = load_calibration("faceplugin-arcface-112")
    m = identification_metrics(score_matrix(probes, cases), true_case, [len(p) > 0 for p in probes], cal.likely_match)
    row: dict[str, object] = {"variant": v.name, "condition": condition, **{k: round(float(x), 4) for k, x in m.items()}}
    if not v.calibrated:
        row["true_match_rate"] = row["false_match_rate"] = None
    row["no_face_archive"] = sum(len(c) == 0 for c in cases)
    row["no_face_probes"] = sum(len(p) == 0 for p in probes)
    row["case_faces"] = sum(len(c) for c in cases)
    row["cpu_s_per_case_photo"] = round(case_cpu, 4)
    return row


def split_from_arguments(description: str | None) -> tuple[argparse.Namespace, object, Photos, str]:
    """The arguments every script of the ablation shares, and the split, photos and cache tag they name."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--split", default="dev", choices=("dev", "test"))
    ap.add_argument("--mated", type=int, default=200)
    ap.add_argument("--distractors", type=int, default=200)
    ap.add_argument("--conditions", nargs="*", default=["clean", "archive", "archive_b"])
    ap.add_argument("--variants", nargs="*", default=["S", "P"])
    args = ap.parse_args()
    s = make_split(args.split, args.mated, args.distractors)
    return args, s, Photos(s), f"{args.split}-{len(s.present) + len(s.absent)}-{len(s.distractors)}"


def main() -> None:
    args, s, photos, tag = split_from_arguments(__doc__)
    table = variants()
    for name in args.variants:
        v = table[name]()
        for cond in args.conditions:
            print(json.dumps(evaluate(v, photos, tag, cond)), flush=True)


if __name__ == "__main__":
    main()
