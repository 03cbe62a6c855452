"""Screening of embedding variants: detect once per photo, embed each face many ways.

For every photo of a benchmark set (probes, and cases under a condition) this runs the
pipeline's detection, grouping and turn choice once, then for each kept face stores
several embeddings (plain, mirror, grey, gamma-normalised, crop autocontrast, shifted and
scaled alignments, eye band masked, blurred, bicubic warp, landmarks on an enlarged small
face, each of the four quarter-turns; for probes also photometric augmentations and
low-resolution versions). The true quarter turn and the degradations degrade.py applied are
recorded, and 500 clean dev photos of people outside the benchmark serve as a score-
normalisation cohort. ``--eval`` then scores every variant of docs/history/faces.md ("What was
tried") with the same metrics as identification.py, without re-running detection, and
splits the misses (no face, same-photo similarity, degradation). Vectors live in /tmp only
(``ATHAR_VARIANTS_DIR``, default /tmp/athar-variants); dev split only.

    nice -n 10 .venv/bin/python benchmarks/faces/variants.py --collect --eval --conditions archive clean
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image, ImageEnhance, ImageFilter, ImageOps

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import degrade  # noqa: E402
from identification import _seed  # noqa: E402
from identity_split import LFW, _bucket, make_split  # noqa: E402

from athar.matching.faces.align import similarity_matrix, warp  # noqa: E402
from athar.matching.faces.calibration import load_calibration  # noqa: E402
from athar.matching.faces.datatypes import Box  # noqa: E402
from athar.matching.faces.evaluation import identification_metrics, score_matrix  # noqa: E402
from athar.matching.faces.onnx_models import DLIB5_IN_ARCFACE_112  # noqa: E402
from athar.matching.faces.pipeline import MIN_FACE_EVIDENCE, FacePipeline  # noqa: E402
from athar.matching.faces.rotation import ROTATIONS, points_to_original, rotate_cw  # noqa: E402

OUT = Path(os.environ.get("ATHAR_VARIANTS_DIR", "/tmp/athar-variants"))
TRUE_TURN: list[int] = []


def _record_turn() -> None:
    def quarter_turn(img: Image.Image, rng: random.Random) -> Image.Image:
        angle = rng.choice((90, 180, 270))
        APPLIED.append("quarter_turn")
        TRUE_TURN.append(angle)  # counter-clockwise by angle: undone by a clockwise turn of angle
        return img.rotate(angle, expand=True)

    def tilt(img: Image.Image, rng: random.Random) -> Image.Image:
        TRUE_TURN.append(0)
        APPLIED.append("tilt")
        angle = rng.uniform(8, 20) * rng.choice((-1, 1))
        return img.rotate(angle, resample=Image.Resampling.BILINEAR, fillcolor=(90, 90, 90))

    degrade.quarter_turn = quarter_turn  # type: ignore[assignment]
    degrade.tilt = tilt  # type: ignore[assignment]
    for name in FLAGS:  # which degradations an archive photo went through (for the breakdown)
        if name not in ("quarter_turn", "tilt"):
            setattr(degrade, name, _flagged(name, getattr(degrade, name)))


FLAGS = ("grey_cast", "low_light", "closed_eyes", "swelling", "canvas", "small", "quarter_turn", "tilt")
APPLIED: list[str] = []


def _flagged(name: str, fn):  # type: ignore[no-untyped-def]
    def wrapped(*args, **kwargs):  # type: ignore[no-untyped-def]
        APPLIED.append(name)
        return fn(*args, **kwargs)

    return wrapped


def box_to_rotated(box: Box, r: int, w: int, h: int) -> Box:
    """Original-photo box into the frame of the photo turned clockwise by r."""
    rw, rh = (h, w) if r in (90, 270) else (w, h)
    corners = np.array([[box.left, box.top], [box.right, box.bottom]], np.float32)
    pts = points_to_original(corners, (360 - r) % 360, rw, rh)
    (x1, y1), (x2, y2) = pts.min(0), pts.max(0)
    return Box(float(x1), float(y1), float(x2), float(y2))


def _grey(c: Image.Image) -> Image.Image:
    return c.convert("L").convert("RGB")


def _gamma(c: Image.Image) -> Image.Image:
    a = np.asarray(c, np.float32) / 255.0
    lum = a[28:100, 28:84].mean()
    g = float(np.clip(np.log(0.45) / np.log(max(min(lum, 0.95), 0.05)), 0.5, 2.0))
    return Image.fromarray((255 * a**g).clip(0, 255).astype(np.uint8))


def _crop_ac(c: Image.Image) -> Image.Image:
    return ImageOps.autocontrast(c, cutoff=1)


def _shifted(img: Image.Image, points: np.ndarray, scale: float, dx: float, dy: float) -> Image.Image:
    m = similarity_matrix(points, DLIB5_IN_ARCFACE_112)
    t = np.array([[scale, 0, 56 * (1 - scale) + dx], [0, scale, 56 * (1 - scale) + dy], [0, 0, 1]], np.float64)
    full = t @ np.vstack([m.astype(np.float64), [0, 0, 1]])
    return warp(img, full[:2].astype(np.float32), 112)


def _eyemask(c: Image.Image) -> Image.Image:
    """The eye band replaced by a strong blur of itself: eye state (open/shut) is hidden."""
    band = (20, 38, 92, 66)
    out = c.copy()
    out.paste(c.crop(band).filter(ImageFilter.GaussianBlur(4)), band[:2])
    return out


def _bicubic(img: Image.Image, points: np.ndarray) -> Image.Image:
    m = similarity_matrix(points, DLIB5_IN_ARCFACE_112)
    full = np.vstack([m.astype(np.float64), [0.0, 0.0, 1.0]])
    inv = np.linalg.inv(full)[:2].ravel()
    return img.transform((112, 112), Image.Transform.AFFINE, tuple(float(x) for x in inv), Image.Resampling.BICUBIC)


def _upscaled_crop(pipe: FacePipeline, rimg: Image.Image, c, points):  # type: ignore[no-untyped-def]
    """Small face: landmarks again on a bicubic ×k enlargement of the region, then align from it."""
    b = c.det.box
    side = min(b.width, b.height)
    k = 100.0 / max(side, 1.0)
    pad = 1.0 * max(b.width, b.height)
    x0, y0 = max(0, int(b.left - pad)), max(0, int(b.top - pad))
    x1, y1 = min(rimg.width, int(b.right + pad)), min(rimg.height, int(b.bottom + pad))
    region = rimg.crop((x0, y0, x1, y1))
    big = region.resize((max(1, round(region.width * k)), max(1, round(region.height * k))), Image.Resampling.BICUBIC)
    bb = Box((b.left - x0) * k, (b.top - y0) * k, (b.right - x0) * k, (b.bottom - y0) * k)
    pts = pipe.model.landmarker.landmarks(np.asarray(big), bb)
    return _bicubic(big, pts)


TTA = [(1.03, 0, 0), (0.97, 0, 0), (1.0, 2, 0), (1.0, -2, 0), (1.0, 0, 2), (1.0, 0, -2)]


def face_vectors(pipe: FacePipeline, work: Image.Image, c, points, evidence, all_turns: bool) -> dict[str, np.ndarray]:  # type: ignore[no-untyped-def]
    emb = pipe.model.embedder
    e = emb.embed
    rimg = rotate_cw(work, c.rotation)
    crop = emb.align(rimg, points, "dlib5")
    flip = ImageOps.mirror(crop)
    v: dict[str, np.ndarray] = {
        "base": e(crop),
        "flip": e(flip),
        "grey": e(_grey(crop)),
        "grey_flip": e(_grey(flip)),
        "gamma": e(_gamma(crop)),
        "gamma_flip": e(_gamma(flip)),
        "cac": e(_crop_ac(crop)),
        "cac_flip": e(_crop_ac(flip)),
    }
    for k, (s, dx, dy) in enumerate(TTA):
        v[f"tta{k}"] = e(_shifted(rimg, points, s, dx, dy))
    g, gf = _grey(crop), _grey(flip)
    v["eyemask_grey"] = e(_eyemask(g))
    v["eyemask_grey_flip"] = e(_eyemask(gf))
    v["greyblur"] = e(g.filter(ImageFilter.GaussianBlur(1.0)))
    v["greyblur_flip"] = e(gf.filter(ImageFilter.GaussianBlur(1.0)))
    bc = _bicubic(rimg, points)
    v["bicubic_grey"] = e(_grey(bc))
    v["bicubic_grey_flip"] = e(_grey(ImageOps.mirror(bc)))
    side = min(c.original_box.width, c.original_box.height)
    up = _upscaled_crop(pipe, rimg, c, points) if side < 90 else None
    v["lmup_grey"] = e(_grey(up)) if up is not None else v["grey"]
    v["lmup_grey_flip"] = e(_grey(ImageOps.mirror(up))) if up is not None else v["grey_flip"]
    if all_turns:
        from athar.matching.faces.orientation import upright_logits

        w, h = work.size
        box = c.original_box
        up = upright_logits(work, box)
        v["upright"] = np.array([up[r] for r in ROTATIONS], np.float32)
        for r in ROTATIONS:
            rr = rotate_cw(work, r)
            pts = pipe.model.landmarker.landmarks(np.asarray(rr), box_to_rotated(box, r, w, h))
            cr = emb.align(rr, pts, "dlib5")
            v[f"turn{r}"] = e(cr)
            v[f"turn{r}_flip"] = e(ImageOps.mirror(cr))
    hsv = np.asarray(crop.convert("HSV"), np.float32)
    v["sat"] = np.array([hsv[28:100, 28:84, 1].mean() / 255.0], np.float32)
    v["rotation"] = np.array([c.rotation], np.float32)
    v["evidence"] = np.array([evidence], np.float32)
    v["area"] = np.array([c.original_box.area], np.float32)
    return v


def analyse(pipe: FacePipeline, img: Image.Image, all_turns: bool) -> list[dict[str, np.ndarray]]:
    work, seen = pipe.prepare(img.convert("RGB"))
    kept = pipe._merge(work, pipe._candidates(seen))
    faces = [face_vectors(pipe, work, c, p, ev, all_turns) for c, p, ev in kept if ev >= MIN_FACE_EVIDENCE]
    # family order: upright first, then largest
    return sorted(faces, key=lambda f: (float(f["rotation"][0]) != 0, -float(f["area"][0])))


# Query-side augmentations: generic photometric changes of the whole photo, then the
# pipeline's own preparation (autocontrast) and the same landmarks.
def _aug_images(img: Image.Image) -> dict[str, Image.Image]:
    a = np.asarray(img, np.float32) / 255.0
    return {
        "aug_lowc": ImageEnhance.Contrast(ImageEnhance.Color(img).enhance(0.3)).enhance(0.6),
        "aug_dark": Image.fromarray((255 * 0.5 * a**1.6).astype(np.uint8)),
        "aug_blur": img.filter(ImageFilter.GaussianBlur(1.2)),
        "aug_jpeg": degrade.jpeg(img, random.Random(0), quality=25),
    }


def analyse_probe(pipe: FacePipeline, img: Image.Image) -> list[dict[str, np.ndarray]]:
    work, seen = pipe.prepare(img.convert("RGB"))
    kept = [(c, p, ev) for c, p, ev in pipe._merge(work, pipe._candidates(seen)) if ev >= MIN_FACE_EVIDENCE]
    if not kept:
        return []
    kept.sort(key=lambda t: (t[0].rotation != 0, -t[0].original_box.area))
    c, p, ev = kept[0]
    v = face_vectors(pipe, work, c, p, ev, all_turns=False)
    emb = pipe.model.embedder
    for name, aimg in _aug_images(img.convert("RGB")).items():
        awork, _ = pipe.prepare(aimg)
        crop = emb.align(rotate_cw(awork, c.rotation), p, "dlib5")
        v[name] = emb.embed(crop)
        v[name + "_flip"] = emb.embed(ImageOps.mirror(crop))
    # resolution-matched queries: the family's crop reduced to a 36 / 56 px face, enlarged again
    crop = emb.align(rotate_cw(work, c.rotation), p, "dlib5")
    for side in (36, 56):
        low = _grey(crop.resize((side, side), Image.Resampling.BILINEAR).resize((112, 112), Image.Resampling.BILINEAR))
        v[f"low{side}_grey"] = emb.embed(low)
        v[f"low{side}_grey_flip"] = emb.embed(ImageOps.mirror(low))
    return [v]


def save(path: Path, per_image: list[list[dict[str, np.ndarray]]], extra: dict[str, np.ndarray]) -> None:
    keys = sorted({k for faces in per_image for f in faces for k in f})
    owner = np.array([i for i, faces in enumerate(per_image) for _ in faces], np.int64)
    arrays = {k: np.stack([f[k] for faces in per_image for f in faces]) if len(owner) else np.zeros((0, 1)) for k in keys}
    np.savez(path, owner=owner, n=len(per_image), **arrays, **extra)


def collect(split: str, mated: int, distractors: int, conditions: list[str]) -> None:
    _record_turn()
    pipe = FacePipeline("arcface")
    s = make_split(split, mated, distractors)
    OUT.mkdir(parents=True, exist_ok=True)
    tag = f"{split}-{mated}-{distractors}"
    p = OUT / f"{tag}-probes.npz"
    if not p.exists():
        t = time.time()
        imgs = [Image.open(x).convert("RGB") for _, x, _ in s.present] + [Image.open(x).convert("RGB") for _, x in s.absent]
        save(p, [analyse_probe(pipe, im) for im in imgs], {})
        print(f"probes {len(imgs)} in {time.time() - t:.0f}s", flush=True)
    others = [Image.open(x).convert("RGB") for _, x in s.distractors[-20:]]
    items = [(n, c) for n, _, c in s.present] + list(s.distractors)
    for cond in conditions:
        path = OUT / f"{tag}-{cond}.npz"
        if path.exists():
            continue
        t = time.time()
        per, turns, flags = [], [], []
        for i, (name, cpath) in enumerate(items):
            TRUE_TURN.clear()
            APPLIED.clear()
            rng = random.Random(_seed(name, cond))
            img = degrade.apply(cond, Image.open(cpath).convert("RGB"), rng, others[i % len(others)])
            turns.append(TRUE_TURN[-1] if TRUE_TURN else 0)
            flags.append([f in APPLIED for f in FLAGS])
            per.append(analyse(pipe, img, all_turns=True))
            if i % 100 == 0:
                print(f"{cond} {i}/{len(items)} {time.time() - t:.0f}s", flush=True)
        save(path, per, {"true_turn": np.array(turns, np.int64), "flags": np.array(flags, bool)})
        print(f"{cond} {len(items)} in {time.time() - t:.0f}s", flush=True)
    cohort = OUT / f"{split}-cohort.npz"
    if not cohort.exists():  # clean photos of 500 dev people outside the benchmark
        used = {n for n, _, _ in s.present} | {n for n, _ in s.absent} | {n for n, _ in s.distractors}
        want = 0 if split == "dev" else 1
        people = sorted((d for d in LFW.iterdir() if d.is_dir() and _bucket(d.name) % 2 == want and d.name not in used),
                        key=lambda d: _bucket(d.name))[:500]
        save(cohort, [analyse(pipe, Image.open(sorted(d.glob("*.jpg"))[0]).convert("RGB"), all_turns=False)[:1] for d in people], {})


# ---------------------------------------------------------------- evaluation
def load(path: Path) -> dict[str, np.ndarray]:
    z = np.load(path)
    return {k: z[k] for k in z.files}


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-12)


def per_owner(z: dict[str, np.ndarray], vec: np.ndarray) -> list[np.ndarray]:
    return [vec[z["owner"] == i] for i in range(int(z["n"]))]


def combo(z: dict[str, np.ndarray], names: list[str]) -> np.ndarray:
    return unit(sum(unit(z[n]) for n in names))  # type: ignore[arg-type]


def metrics(probes: list[np.ndarray], cases: list[np.ndarray], present: int, absent: int, likely) -> dict[str, float]:  # type: ignore[no-untyped-def]
    true_case = list(range(present)) + [-1] * absent
    m = identification_metrics(score_matrix(probes, cases), true_case, [len(p) > 0 for p in probes], likely)
    m["no_face_archive"] = float(sum(len(c) == 0 for c in cases))
    return {k: round(v, 3) for k, v in m.items() if k not in ("probes", "absent_probes", "cases")}


def evaluate(split: str, mated: int, distractors: int, cond: str, threshold: float | None) -> None:
    """Every variant of docs/history/faces.md "What was tried", then where the losses are."""
    tag = f"{split}-{mated}-{distractors}"
    P, C = load(OUT / f"{tag}-probes.npz"), load(OUT / f"{tag}-{cond}.npz")
    n_absent = round(mated * 0.2)
    present = mated - n_absent  # the stored probe order is present then absent (as in identification.py)
    n_cases = int(C["n"])
    first = [np.where(P["owner"] == i)[0][:1] for i in range(int(P["n"]))]
    if threshold is not None:
        likely = lambda s: s >= threshold  # noqa: E731
    else:
        likely = load_calibration("faceplugin-arcface-112").likely_match

    def show(label: str, m: dict[str, float]) -> None:
        print(json.dumps({"variant": label, **m}), flush=True)

    def run(label: str, pnames: list[str], cases: list[str] | list[np.ndarray]) -> None:
        pv = per_owner(P, combo(P, pnames))
        cv = per_owner(C, combo(C, cases)) if isinstance(cases[0], str) else cases  # type: ignore[arg-type]
        show(label, metrics([p[:1] for p in pv], cv, present, n_absent, likely))  # type: ignore[arg-type]

    def run_scores(label: str, face_scores) -> None:  # type: ignore[no-untyped-def]
        """face_scores(probe index) -> one score per archive face; a case scores its best face."""
        S = np.full((len(first), n_cases), -1e9)
        for i, ix in enumerate(first):
            if len(ix):
                np.maximum.at(S[i], C["owner"], face_scores(i, ix[0]))
        m = identification_metrics(S, list(range(present)) + [-1] * n_absent, [len(x) > 0 for x in first], lambda s: False)
        m["no_face_archive"] = float(sum(int((C["owner"] == j).sum()) == 0 for j in range(n_cases)))
        show(label, {k: round(v, 3) for k, v in m.items() if k not in ("probes", "absent_probes", "cases")})

    B, F, G = ["base"], ["base", "flip"], ["grey", "grey_flip"]
    run("baseline", B, B)
    run("flip both", F, F)
    run("grey both", ["grey"], ["grey"])
    run("grey+flip both (adopted: grey-mirror)", G, G)
    run("base+grey+flips both", F + G, F + G)
    run("gamma+flip both", ["gamma", "gamma_flip"], ["gamma", "gamma_flip"])
    run("crop autocontrast+flip both", ["cac", "cac_flip"], ["cac", "cac_flip"])
    augs = [f"aug_{a}{f}" for a in ("lowc", "dark", "blur", "jpeg") for f in ("", "_flip")]
    run("flip; query aug (all 4)+flip", F + augs, F)
    for a in ("lowc", "dark", "blur", "jpeg"):
        run(f"flip; query aug {a}", F + [f"aug_{a}", f"aug_{a}_flip"], F)
    run("flip; archive TTA shifts", F, F + [f"tta{k}" for k in range(len(TTA))])
    run("flip; archive TTA scale only", F, F + ["tta0", "tta1"])
    # orientation: oracle true turn, and top-2 turns as separate vectors
    turn = C["true_turn"][C["owner"]]
    tv = np.stack([combo(C, [f"turn{r}", f"turn{r}_flip"]) for r in ROTATIONS], 1)  # (faces, 4, d)
    oracle = tv[np.arange(len(turn)), turn // 90]
    run("flip; ORACLE true turn", F, per_owner(C, oracle))
    chosen = (C["rotation"][:, 0] // 90).astype(int)
    print("turn agreement (largest face per photo):", turn_agreement(C, chosen), flush=True)
    order = np.argsort(-C["upright"], 1)
    second = np.where(order[:, 0] == chosen, order[:, 1], order[:, 0])
    two = [np.concatenate([a, b]) for a, b in zip(per_owner(C, tv[np.arange(len(chosen)), chosen]), per_owner(C, tv[np.arange(len(chosen)), second]))]
    run("flip; chosen + 2nd upright turn", F, two)
    EM = ["eyemask_grey", "eyemask_grey_flip"]
    GB = ["greyblur", "greyblur_flip"]
    run("grey-mirror, eye band masked both sides", EM, EM)
    run("grey-mirror averaged with eye-masked, both sides", G + EM, G + EM)
    run("grey-mirror after 1 px blur, both sides", GB, GB)
    run("grey-mirror + blurred grey-mirror, both sides", G + GB, G + GB)
    run("grey-mirror, bicubic alignment warp both sides", ["bicubic_grey", "bicubic_grey_flip"], ["bicubic_grey", "bicubic_grey_flip"])
    run("grey-mirror, landmarks on enlarged faces < 90 px, archive side", G, ["lmup_grey", "lmup_grey_flip"])
    p_col, p_grey, c_col, c_grey = combo(P, F), combo(P, G), combo(C, F), combo(C, G)
    for t in (0.1, 0.15, 0.2, 0.3):
        low_sat = C["sat"][:, 0] < t
        run_scores(f"grey only if crop saturation < {t} (share {low_sat.mean():.2f})",
                   lambda i, j, low_sat=low_sat: np.where(low_sat, c_grey @ p_grey[j], c_col @ p_col[j]))
    side = np.sqrt(C["area"][:, 0])
    for k in (36, 56):
        low = combo(P, [f"low{k}_grey", f"low{k}_grey_flip"])
        run_scores(f"grey-mirror; query = mean with its {k} px version", lambda i, j, low=low: c_grey @ unit(p_grey[j] + low[j]))
        for t in (40, 50, 60):
            run_scores(f"grey-mirror; {k} px query for archive faces < {t} px",
                       lambda i, j, low=low, t=t: np.where(side < t, c_grey @ low[j], c_grey @ p_grey[j]))
    pm, cm = p_grey.mean(0), c_grey.mean(0)
    run_scores("grey-mirror, centred by each side's mean", lambda i, j: unit(c_grey - cm) @ unit(p_grey[j] - pm))
    cohorts = {}
    if cond != "clean" and (OUT / f"{tag}-clean.npz").exists():
        CL = load(OUT / f"{tag}-clean.npz")
        cohorts["clean photos of the distractors (leaks: gallery people)"] = combo(CL, G)[CL["owner"] >= present]
    if (OUT / f"{split}-cohort.npz").exists():
        cohorts["500 other identities"] = combo(load(OUT / f"{split}-cohort.npz"), G)
    for name, coh in cohorts.items():
        sims = np.sort(c_grey @ coh.T, 1)[:, -50:]
        mu, sd = sims.mean(1), sims.std(1) + 1e-6
        run_scores(f"grey-mirror, Z-norm vs top-50 of cohort: {name}", lambda i, j, mu=mu, sd=sd: (c_grey @ p_grey[j] - mu) / sd)
    losses(P, C, tag, present, oracle)


def losses(P: dict[str, np.ndarray], C: dict[str, np.ndarray], tag: str, present: int, oracle: np.ndarray) -> None:
    """Misses split by no face / same-photo similarity, and rank-1 by applied degradation."""
    cleanp = OUT / f"{tag}-clean.npz"
    if not cleanp.exists() or "flags" not in C:
        return
    CL = load(cleanp)
    for label, names in (("flip", ["base", "flip"]), ("grey-mirror", ["grey", "grey_flip"])):
        clean_v = [v[:1] for v in per_owner(CL, combo(CL, names))]
        arch_v = per_owner(C, combo(C, names))
        orc_v = per_owner(C, oracle)
        sims = np.array([float((a @ c[0]).max()) if len(a) and len(c) else -1 for a, c in zip(arch_v, clean_v)])[:present]
        osims = np.array([float((a @ c[0]).max()) if len(a) and len(c) else -1 for a, c in zip(orc_v, clean_v)])[:present]
        pv = per_owner(P, combo(P, names))
        sm = score_matrix([p[:1] for p in pv], arch_v)
        ranks = np.array([1 + int((sm[i] > sm[i, i]).sum()) if len(pv[i]) else sm.shape[1] for i in range(present)])
        print(json.dumps({
            "vectors": label, "present": present, "misses at rank 1": int((ranks > 1).sum()),
            "misses with no face": int(((ranks > 1) & (sims == -1)).sum()),
            "misses with same-photo sim < 0.3": int(((ranks > 1) & (sims > -1) & (sims < 0.3)).sum()),
            "misses with same-photo sim >= 0.3": int(((ranks > 1) & (sims >= 0.3)).sum()),
            "same-photo sim < 0.3 (all), with oracle turn": [int(((sims > -1) & (sims < 0.3)).sum()), int(((osims > -1) & (osims < 0.3)).sum())],
            "median same-photo sim": round(float(np.median(sims[sims > -1])), 3),
        }), flush=True)
        flags = C["flags"][:present]
        for k, f in enumerate(FLAGS):
            m = flags[:, k]
            print(f"  {label:11s} {f:13s} n={int(m.sum()):3d} rank-1 with {np.mean(ranks[m] == 1):.3f} without {np.mean(ranks[~m] == 1):.3f}")
        ce, sw = flags[:, FLAGS.index("closed_eyes")], flags[:, FLAGS.index("swelling")]
        for a in (False, True):
            for b in (False, True):
                m = (ce == a) & (sw == b)
                print(f"  {label:11s} closed_eyes={a!s:5} swelling={b!s:5} n={int(m.sum()):3d} rank-1 {np.mean(ranks[m] == 1):.3f} rank-10 {np.mean(ranks[m] <= 10):.3f}")


def turn_agreement(C: dict[str, np.ndarray], chosen: np.ndarray) -> str:
    ok = tot = 0
    for i in range(int(C["n"])):
        idx = np.where(C["owner"] == i)[0]
        if len(idx):
            j = idx[np.argmax(C["area"][idx, 0])]
            tot += 1
            ok += int(chosen[j] * 90 == C["true_turn"][i])
    return f"{ok}/{tot}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="dev")
    ap.add_argument("--mated", type=int, default=300)
    ap.add_argument("--distractors", type=int, default=400)
    ap.add_argument("--conditions", nargs="*", default=["archive", "clean"])
    ap.add_argument("--collect", action="store_true")
    ap.add_argument("--eval", action="store_true")
    ap.add_argument("--threshold", type=float, default=None)
    args = ap.parse_args()
    if args.collect:
        collect(args.split, args.mated, args.distractors, args.conditions)
    if args.eval:
        for cond in args.conditions:
            print(f"== {cond}")
            evaluate(args.split, args.mated, args.distractors, cond, args.threshold)


if __name__ == "__main__":
    main()
