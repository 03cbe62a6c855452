"""Issue 19: which step limits rank-1 and rank-10 on the degraded archive photos — detection, alignment or
the embedding of a damaged face — measured with oracles, on both degradation models.

The degradations are geometric in a known way (a resize, a paste on a sheet, a turn), so the 5 points
dlib finds on the *clean* photo (on LFW's known face region) can be carried into the degraded photo.
That gives two oracles next to the product (P) and the simple baseline (S), every case embedded once:

- ``O-box``: the product's detector box on the clean photo, carried over, with the photo turned so that
  the face is upright — perfect detection and turn; the product's landmarks (dlib's 5 points on the
  degraded, enhanced photo) and its embedding recipe do the rest.
- ``O-align``: the clean photo's 5 points carried over — perfect detection, turn and landmarks; only
  the embedding of the damaged face is left.

So P → O-box is what detection (and the turn, and the choice of faces) costs, O-box → O-align what the
landmarks cost, and O-align → 1.0 what the embedder loses on the damaged face itself. ``P∪O-align``
adds the oracle face to the product's faces of each case (mean-max: the best counts): what perfect
detection would add on top of the product without removing anything it finds.

The misses of P at rank 1 are also counted by cause: the case has no face; the case's faces do not
include the person (best cosine with the clean photo's oracle vector under 0.3, where strangers'
99th percentile is 0.26); the person's face was kept but a stranger scored higher.

Nothing in degrade.py or degrade_b.py changes: their geometric steps are wrapped, and the random draws
of each step are replayed from a copy of the generator's state, so the photos are pixel for pixel those
of ablation.py (whose cached P and S vectors are read, not recomputed, when present).

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python benchmarks/faces/limits.py --split dev --conditions clean archive archive_b

``--why`` also analyses again the cases whose kept faces are none of them the person, and says whether the
person's head was among them (at a wrong turn, or misaligned) or another object was kept instead.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import ablation  # noqa: E402
import degrade  # noqa: E402
import degrade_b  # noqa: E402

from athar.matching.faces.calibration import load_calibration  # noqa: E402
from athar.matching.faces.datatypes import Box  # noqa: E402
from athar.matching.faces.evaluation import identification_metrics, score_matrix  # noqa: E402
from athar.matching.faces.pipeline import FacePipeline, embed_crop  # noqa: E402

CACHE = ablation.CACHE.parent / "limits"
WRONG_FACE_BELOW = 0.3


# ---- the geometry of a degradation, recorded without changing it ------------------------------------

def rotation_affine(w: int, h: int, angle: float, expand: bool,
                    out_size: tuple[int, int] | None = None) -> tuple[np.ndarray, tuple[int, int]]:
    """PIL's ``rotate(angle, expand)`` as a forward 3×3 map of input to output pixels, and the output size
    (the same arithmetic as Image.rotate, which builds the reverse map); ``out_size``: the size PIL gave."""
    a = -math.radians(angle % 360.0)
    m = [round(math.cos(a), 15), round(math.sin(a), 15), 0.0, round(-math.sin(a), 15), round(math.cos(a), 15), 0.0]

    def tf(x: float, y: float) -> tuple[float, float]:
        return m[0] * x + m[1] * y + m[2], m[3] * x + m[4] * y + m[5]

    cx, cy = w / 2, h / 2
    m[2], m[5] = tf(-cx, -cy)
    m[2] += cx
    m[5] += cy
    nw, nh = w, h
    if expand:
        xs, ys = zip(*(tf(x, y) for x, y in ((0, 0), (w, 0), (w, h), (0, h))))
        nw, nh = out_size or (math.ceil(max(xs)) - math.floor(min(xs)), math.ceil(max(ys)) - math.floor(min(ys)))
        m[2], m[5] = tf(-(nw - w) / 2.0, -(nh - h) / 2.0)
    reverse = np.array([[m[0], m[1], m[2]], [m[3], m[4], m[5]], [0, 0, 1]])
    return np.linalg.inv(reverse), (nw, nh)


def scale_affine(sx: float, sy: float, dx: float = 0.0, dy: float = 0.0) -> np.ndarray:
    return np.array([[sx, 0, dx], [0, sy, dy], [0, 0, 1.0]])


class Geometry:
    """Wraps the geometric steps of both degradation models; ``matrix`` maps the clean photo's pixels
    to the degraded photo's, for the photo degraded last."""

    def __init__(self) -> None:
        self.matrix = np.eye(3)
        self._wrap()

    def reset(self) -> None:
        self.matrix = np.eye(3)

    def _then(self, m: np.ndarray) -> None:
        self.matrix = m @ self.matrix

    def _wrap(self) -> None:
        geo = self
        small, tilt, quarter, canvas = degrade.small, degrade.tilt, degrade.quarter_turn, degrade.canvas
        scene, apply_b = degrade_b._scene, degrade_b.apply_b

        def w_small(img: Image.Image, rng: random.Random) -> Image.Image:
            out = small(img, rng)
            geo._then(scale_affine(out.width / img.width, out.height / img.height))
            return out

        def w_tilt(img: Image.Image, rng: random.Random) -> Image.Image:
            replay = random.Random()
            replay.setstate(rng.getstate())
            out = tilt(img, rng)
            angle = replay.uniform(8, 20) * replay.choice((-1, 1))
            geo._then(rotation_affine(img.width, img.height, angle, expand=False)[0])
            return out

        def w_quarter(img: Image.Image, rng: random.Random) -> Image.Image:
            replay = random.Random()
            replay.setstate(rng.getstate())
            out = quarter(img, rng)
            m, size = rotation_affine(img.width, img.height, replay.choice((90, 180, 270)), expand=True)
            assert size == out.size, (size, out.size)
            geo._then(m)
            return out

        def w_canvas(img: Image.Image, rng: random.Random, other: Image.Image | None = None) -> Image.Image:
            replay = random.Random()
            replay.setstate(rng.getstate())
            out = canvas(img, rng, other)
            fw, fh = round(img.width * 0.55), round(img.height * 0.55)
            x, y = replay.randint(20, 200), replay.randint(40, 480 - fh - 20)
            geo._then(scale_affine(fw / img.width, fh / img.height, x, y))
            return out

        def w_scene(img: Image.Image, other: Image.Image | None, rng: random.Random) -> Any:
            sheet, face_w, centre, colour = scene(img, other, rng)
            s = face_w / 115.0
            hw, hh = max(8, round(img.width * s)), max(8, round(img.height * s))
            geo._then(scale_affine(hw / img.width, hh / img.height, centre[0] - hw / 2, centre[1] - hh / 2))
            geo.sheet_size = sheet.size
            return sheet, face_w, centre, colour

        def w_apply_b(img: Image.Image, rng: random.Random, other: Image.Image | None = None) -> Image.Image:
            geo.sheet_size = img.size
            out = apply_b(img, rng, other)
            m, size = rotation_affine(*geo.sheet_size, degrade_b.LAST["angle"], expand=True)
            assert size == out.size, (size, out.size)
            geo._then(m)
            return out

        degrade.small, degrade.tilt, degrade.quarter_turn, degrade.canvas = w_small, w_tilt, w_quarter, w_canvas
        degrade_b._scene, degrade_b.apply_b = w_scene, w_apply_b


GEOMETRY = Geometry()


def degraded_with_geometry(photos: ablation.Photos, condition: str) -> tuple[list[Image.Image], list[np.ndarray]]:
    """The case photos of ablation.Photos.cases(condition), each with its clean → degraded matrix."""
    s = photos.split
    items = [(n, c) for n, _, c in s.present] + list(s.distractors)
    out, mats = [], []
    for i, (name, path) in enumerate(items):
        img, other = Image.open(path).convert("RGB"), photos.others[i % len(photos.others)]
        GEOMETRY.reset()
        if condition == "archive_b":
            out.append(degrade_b.apply_b(img, random.Random(ablation._seed(name, "archive_b")), other))
        else:
            out.append(degrade.apply(condition, img, random.Random(ablation._seed(name, condition)), other))
        mats.append(GEOMETRY.matrix.copy())
    return out, mats


def clean_points(img: Image.Image) -> np.ndarray:
    """dlib's 5 points on LFW's known face region of a clean photo (as degrade_b.face_points)."""
    d, sp = degrade_b._landmarker()
    w, h = img.size
    rect = d.rectangle(int(w * 0.27), int(h * 0.27), int(w * 0.73), int(h * 0.73))
    return np.array([(q.x, q.y) for q in sp(np.asarray(img), rect).parts()], np.float32)


def carry(points: np.ndarray, m: np.ndarray) -> np.ndarray:
    return (np.c_[points, np.ones(len(points))] @ m.T)[:, :2].astype(np.float32)


# ---- the oracles ----------------------------------------------------------------------------------

class Oracles:
    def __init__(self) -> None:
        self.pipe = FacePipeline()
        self.model = self.pipe.model

    def clean_box(self, img: Image.Image, points: np.ndarray) -> Box | None:
        """The product detector's box of the person on the clean photo (the one holding the nose)."""
        _, seen = self.pipe.prepare(img)
        nose = points[4]
        boxes = [d.box for d in self.model.detector.detect(np.asarray(seen))
                 if d.box.left <= nose[0] <= d.box.right and d.box.top <= nose[1] <= d.box.bottom]
        return max(boxes, key=lambda b: b.area) if boxes else None

    def align_vector(self, img: Image.Image, points: np.ndarray) -> np.ndarray:
        work, _ = self.pipe.prepare(img)
        return embed_crop(self.model.embedder, self.model.embedder.align(work, points, "dlib5"), self.model.recipe)

    def box_vector(self, img: Image.Image, clean_pts: np.ndarray, box: Box, m: np.ndarray) -> np.ndarray:
        """Perfect box and turn: the degraded photo turned so that the face is upright, the carried box,
        the product's landmarks there."""
        deg_pts = carry(clean_pts, m)
        eyes_clean = clean_pts[0:2].mean(0) - clean_pts[2:4].mean(0)
        eyes_deg = deg_pts[0:2].mean(0) - deg_pts[2:4].mean(0)
        turn = math.degrees(math.atan2(eyes_deg[1], eyes_deg[0]) - math.atan2(eyes_clean[1], eyes_clean[0]))
        work, _ = self.pipe.prepare(img)
        up = work.rotate(turn, resample=Image.Resampling.BICUBIC, expand=True)  # PIL turns counter-clockwise
        r, _ = rotation_affine(work.width, work.height, turn, expand=True, out_size=up.size)
        up_pts = carry(clean_pts, r @ m)
        e = up_pts[0:2].mean(0) - up_pts[2:4].mean(0)
        assert abs(math.atan2(e[1], e[0]) - math.atan2(eyes_clean[1], eyes_clean[0])) < 0.05, "not upright"
        corners = carry(np.array([[box.left, box.top], [box.right, box.top], [box.right, box.bottom],
                                  [box.left, box.bottom]], np.float32), r @ m)
        b = Box(float(corners[:, 0].min()), float(corners[:, 1].min()), float(corners[:, 0].max()), float(corners[:, 1].max()))
        points = self.model.landmarker.landmarks(np.asarray(up), b)
        return embed_crop(self.model.embedder, self.model.embedder.align(up, points, "dlib5"), self.model.recipe)


def oracle_vectors(photos: ablation.Photos, tag: str, condition: str) -> dict[str, list[np.ndarray]]:
    path = CACHE / hashlib.sha256(b"limits-v1").hexdigest()[:12] / f"{tag}-{condition}.npz"
    if path.exists():
        z = np.load(path)
        return {k: [z[k][i][None, :] if z[k + "_ok"][i] else np.zeros((0, 512), np.float32) for i in range(len(z[k]))]
                for k in ("O-box", "O-align", "person")}
    s = photos.split
    items = [c for _, _, c in s.present] + [p for _, p in s.distractors]
    images, mats = degraded_with_geometry(photos, condition)
    o = Oracles()
    out: dict[str, list[np.ndarray]] = {"O-box": [], "O-align": [], "person": []}
    for path_i, img, m in zip(items, images, mats):
        clean = Image.open(path_i).convert("RGB")
        pts = clean_points(clean)
        out["person"].append(o.align_vector(clean, pts)[None, :])
        out["O-align"].append(o.align_vector(img, carry(pts, m))[None, :])
        box = o.clean_box(clean, pts)
        out["O-box"].append(o.box_vector(img, pts, box, m)[None, :] if box is not None else np.zeros((0, 512), np.float32))
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, np.ndarray] = {}
    for k, vs in out.items():
        arrays[k] = np.stack([v[0] if len(v) else np.zeros(512, np.float32) for v in vs])
        arrays[k + "_ok"] = np.array([len(v) > 0 for v in vs])
    np.savez(path, **arrays)
    return out


def metrics(name: str, condition: str, probes: list[np.ndarray], cases: list[np.ndarray], n_present: int,
            n_absent: int) -> dict[str, Any]:
    true_case = list(range(n_present)) + [-1] * n_absent
    cal = load_calibration("faceplugin-arcface-112")
    m = identification_metrics(score_matrix(probes, cases), true_case, [len(p) > 0 for p in probes], cal.likely_match)
    return {"variant": name, "condition": condition, **{k: round(float(v), 4) for k, v in m.items()},
            "no_face_archive": sum(len(c) == 0 for c in cases)}


def causes(probes: list[np.ndarray], cases: list[np.ndarray], person: list[np.ndarray], n_present: int) -> dict[str, int]:
    """Why P misses rank 1 (and rank 10) for a present person."""
    sims = score_matrix(probes, cases)
    out = {"rank1_misses": 0, "no_face": 0, "not_the_person": 0, "outranked": 0,
           "rank10_misses": 0, "rank10_no_face": 0, "rank10_not_the_person": 0, "rank10_outranked": 0}
    for i in range(n_present):
        row = sims[i]
        rank = 1 + int(np.sum(row > row[i])) if len(cases[i]) else len(cases)
        for limit, prefix in ((1, ""), (10, "rank10_")):
            if rank <= limit:
                continue
            out[f"{prefix}misses" if prefix else "rank1_misses"] += 1
            if len(cases[i]) == 0:
                out[prefix + "no_face"] += 1
            elif float(np.max(cases[i] @ person[i][0])) < WRONG_FACE_BELOW:
                out[prefix + "not_the_person"] += 1
            else:
                out[prefix + "outranked"] += 1
    return out


def why_not_the_person(photos: ablation.Photos, tag: str, condition: str, probes: list[np.ndarray],
                       cases: list[np.ndarray], person: list[np.ndarray]) -> dict[str, Any]:
    """For P's misses at rank 1 whose faces are none of them the person: is the person's head among the
    kept faces (the carried nose inside a kept box), and how far is that face's eye line turned from the
    oracle's (over 45°: a wrong turn)? The photos are analysed again by the product."""
    s = photos.split
    n = len(s.present)
    sims = score_matrix(probes, cases)
    images, mats = degraded_with_geometry(photos, condition)
    pipe = FacePipeline()
    out = {"wrong_turn": 0, "right_head_misaligned": 0, "another_object": 0, "faces": []}
    for i in range(n):
        if not len(cases[i]) or 1 + int(np.sum(sims[i] > sims[i][i])) == 1:
            continue
        if float(np.max(cases[i] @ person[i][0])) >= WRONG_FACE_BELOW:
            continue
        pts = carry(clean_points(Image.open(s.present[i][2]).convert("RGB")), mats[i])
        nose = pts[4]
        at = [f for f in pipe.analyse(images[i]) if f.box.left <= nose[0] <= f.box.right and f.box.top <= nose[1] <= f.box.bottom]
        if not at:
            out["another_object"] += 1
            continue
        f = at[0]
        fe, e = f.landmarks[0:2].mean(0) - f.landmarks[2:4].mean(0), pts[0:2].mean(0) - pts[2:4].mean(0)
        turn = (math.degrees(math.atan2(fe[1], fe[0]) - math.atan2(e[1], e[0])) + 180) % 360 - 180
        out["wrong_turn" if abs(turn) > 45 else "right_head_misaligned"] += 1
        out["faces"].append({"case": i, "eye_line_off_degrees": round(turn), "raw_length": round(float(f.feature_norm or 0), 2),
                             "landmark_error_px": round(float(np.abs(f.landmarks - pts).mean()), 1)})
    return out


def main() -> None:
    if "--why" in sys.argv:
        sys.argv.remove("--why")
        why = True
    else:
        why = False
    args, s, photos, tag = ablation.split_from_arguments(__doc__)
    table = ablation.variants()
    n_present, n_absent = len(s.present), len(s.absent)
    for cond in args.conditions:
        o = oracle_vectors(photos, tag, cond)
        product = table["P"]()
        p_probes, _ = ablation.vectors(product, f"{tag}-probes", photos.probes, True)
        p_probes = [p[:1] for p in p_probes]
        rows: dict[str, list[np.ndarray]] = {}
        for name in args.variants:
            rows[name], _ = ablation.vectors(table[name](), f"{tag}-{cond}", lambda c=cond: photos.cases(c), False)
        for name, cases in rows.items():
            probes = p_probes
            if name.startswith("S"):
                probes, _ = ablation.vectors(table[name](), f"{tag}-probes", photos.probes, True)
                probes = [p[:1] for p in probes]
            print(json.dumps(metrics(name, cond, probes, cases, n_present, n_absent)), flush=True)
        for name in ("O-box", "O-align"):
            print(json.dumps(metrics(name, cond, p_probes, o[name], n_present, n_absent)), flush=True)
        if "P" in rows:
            union = [np.concatenate([a, b]) for a, b in zip(rows["P"], o["O-align"])]
            print(json.dumps(metrics("P∪O-align", cond, p_probes, union, n_present, n_absent)), flush=True)
            print(json.dumps({"variant": "P", "condition": cond, "causes": causes(p_probes, rows["P"], o["person"], n_present)}), flush=True)
            print(json.dumps({"variant": "O-align", "condition": cond,
                              "causes": causes(p_probes, o["O-align"], o["person"], n_present)}), flush=True)
            if why:
                print(json.dumps({"variant": "P", "condition": cond,
                                  "not_the_person": why_not_the_person(photos, tag, cond, p_probes, rows["P"], o["person"])}), flush=True)


if __name__ == "__main__":
    main()
