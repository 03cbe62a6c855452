"""Training crops for the archive-robust embedder (benchmarks/faces/finetune/train.py).

For LFW dev photos of people used by **no** benchmark (neither face split, dev or test, nor
the identification sets: make_split(…, 400, 1200) on both splits is excluded), this runs
the product's own detection, turn choice and alignment on the clean photo and on several
degraded copies (degrade.py: the "archive" mix and single degradations, new seeds), and
stores every aligned 112×112 crop as uint8 (colour; the recipe turns them grey). No
identity labels are used by the training: a degraded crop learns to land where the clean
crop of the same photo lands under the original model.

    nice .venv/bin/python benchmarks/faces/finetune/make_data.py /tmp/ft/data --workers 2
"""

from __future__ import annotations

import argparse
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import degrade  # noqa: E402
from identification import _seed  # noqa: E402
from identity_split import LFW, make_split  # noqa: E402

from athar.matching.faces.pipeline import FacePipeline  # noqa: E402

VARIANTS = ("archive", "archive", "archive", "archive_spec", "single", "single")
PER_IDENTITY = 10


def training_photos(per_identity: int = PER_IDENTITY) -> list[Path]:
    """Photos of identities outside every benchmark set (at most ``per_identity`` each)."""
    used: set[str] = set()
    for split in ("dev", "test"):
        s = make_split(split, 400, 1200)
        used |= {n for n, *_ in s.present} | {n for n, _ in s.absent} | {n for n, _ in s.distractors}
    out = []
    for d in sorted(p for p in LFW.iterdir() if p.is_dir() and p.name not in used):
        out += sorted(d.glob("*.jpg"))[:per_identity]
    return out


def crops(pipe: FacePipeline, img: Image.Image) -> list[np.ndarray]:
    """Every kept face's aligned crop, as the product would embed it (largest first)."""
    return [np.asarray(f.crop.convert("RGB"), dtype=np.uint8) for f in pipe.aligned_faces(img)]


def _save(out: str, name: str, rows: list[tuple[str, str, np.ndarray, np.ndarray]]) -> None:
    np.savez_compressed(
        Path(out) / name,
        photo=np.array([r[0] for r in rows]),
        kind=np.array([r[1] for r in rows]),
        clean=np.stack([r[2] for r in rows]),
        degraded=np.stack([r[3] for r in rows]),
    )


def _job(args: tuple[int, list[Path], list[Path], str, tuple[str, ...], int, tuple[str, ...]]) -> int:
    """One worker's photos; saved in chunks so that training can start on part of the data."""
    worker, photos, others, out, variants, chunk, tag = args
    pipe = FacePipeline()
    rows: list[tuple[str, str, np.ndarray, np.ndarray]] = []
    total = 0
    for i, path in enumerate(photos):
        img = Image.open(path).convert("RGB")
        clean = crops(pipe, img)
        for v, kind in enumerate(variants if clean else ()):
            rng = random.Random(_seed("finetune", *tag, path.name, str(v)))
            other = Image.open(others[rng.randrange(len(others))]).convert("RGB")
            name = rng.choice(sorted(degrade.SINGLE)) if kind == "single" else kind
            for crop in crops(pipe, degrade.apply(name, img, rng, other)):
                rows.append((str(path), name, clean[0], crop))
        if (i + 1) % chunk == 0 or i + 1 == len(photos):
            if rows:
                _save(out, f"part{worker}_{i // chunk:03d}.npz", rows)
            total += len(rows)
            rows = []
            print(f"worker {worker}: {i + 1}/{len(photos)}", file=sys.stderr, flush=True)
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out", type=Path)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--variants", nargs="*", default=list(VARIANTS), help="degradations per photo (default: %(default)s)")
    ap.add_argument("--chunk", type=int, default=100, help="photos per saved part file")
    ap.add_argument("--per-identity", type=int, default=PER_IDENTITY, help="photos per person at most (default: %(default)s)")
    ap.add_argument("--tag", default="", help="mixed into every degradation seed: new degraded copies of the same photos (rounds 1-2: none)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    photos = training_photos(args.per_identity)
    if args.limit:
        photos = photos[:: max(1, len(photos) // args.limit)][: args.limit]
    others = photos[::7]
    jobs = [(w, photos[w :: args.workers], others, str(args.out), tuple(args.variants), args.chunk, (args.tag,) if args.tag else ()) for w in range(args.workers)]
    with ProcessPoolExecutor(args.workers) as ex:
        counts = list(ex.map(_job, jobs))
    print({"photos": len(photos), "pairs": sum(counts)})


if __name__ == "__main__":
    main()
