"""Faces in camera-sized photos: is a small archive face in a large photo found, and at what cost?

Real archive photos come off cameras (several megapixels), and a body shot from above may show the
face at a few per cent of the frame. The detector works at 320×240, so the pipeline also searches
overlapping tiles (``pipeline.tile_grid``). Each dev benchmark person's photo is degraded with the
'archive_spec' recipe (light, eyes, swelling, turn, camera JPEG), optionally enlarged, and pasted
at a random place on a sheet of the given size (plain grey, or textured with `--background
textured`); a face counts as found when a kept face's centre lies inside the pasted photo, and
every other kept face is a false face.

    nice .venv/bin/python benchmarks/faces/large_photos.py --n 40
    nice .venv/bin/python benchmarks/faces/large_photos.py --n 40 --before   # the pipeline before 30 Nov 2026
    nice .venv/bin/python benchmarks/faces/large_photos.py --n 40 --background textured --tile-max-side 960

Prints one JSON line per sheet size: found, false faces elsewhere, seconds per photo.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import degrade  # noqa: E402
import identification as idn  # noqa: E402
from identity_split import make_split  # noqa: E402

from athar.matching.faces import pipeline as pipeline_module  # noqa: E402
from athar.matching.faces.pipeline import FacePipeline  # noqa: E402

# (sheet width, sheet height, enlargement of the 250 px LFW photo: its face is ~110 px × this)
SHEETS = [(0, 0, 1), (1600, 1200, 1), (3000, 2000, 1), (3000, 2000, 2), (4000, 3000, 2)]


def background(width: int, height: int, kind: str, rng: random.Random) -> Image.Image:
    """A plain sheet (95, 98, 92), or a textured one: smooth blotches and a light gradient, grey
    levels ~40–200, like a floor or a body bag under fluorescent light (never flat)."""
    if kind == "plain":
        return Image.new("RGB", (width, height), (95, 98, 92))
    gen = np.random.default_rng(rng.randrange(2**32))
    coarse = gen.normal(0, 1, (height // 40 + 2, width // 40 + 2))
    field = np.asarray(Image.fromarray(coarse.astype(np.float32)).resize((width, height), Image.Resampling.BICUBIC))
    ramp = np.linspace(-1, 1, width)[None, :] * rng.uniform(-30, 30)
    grey = np.clip(120 + 35 * field + ramp + gen.normal(0, 4, (height, width)), 0, 255)
    return Image.fromarray(np.repeat(grey[..., None], 3, axis=2).astype(np.uint8))


def run(n: int, kind: str) -> list[dict[str, object]]:
    pipe, people = FacePipeline(), make_split("dev", 300, 400).present[:n]
    rows = []
    for width, height, enlarge in SHEETS:
        found = false_faces = 0
        start = time.process_time()
        for name, _, path in people:
            rng = random.Random(idn._seed(name, "archive_spec"))
            img = degrade.apply("archive_spec", Image.open(path).convert("RGB"), rng, None)
            img = img.resize((img.width * enlarge, img.height * enlarge), Image.Resampling.BICUBIC)
            if width == 0:
                found += bool(pipe.analyse(img))
                continue
            sheet = background(width, height, kind, rng)
            x, y = rng.randint(0, width - img.width), rng.randint(0, height - img.height)
            sheet.paste(img, (x, y))
            inside = [x <= (f.box.left + f.box.right) / 2 <= x + img.width and y <= (f.box.top + f.box.bottom) / 2 <= y + img.height
                      for f in pipe.analyse(sheet)]
            found += any(inside)
            false_faces += inside.count(False)
        rows.append({"sheet": f"{width}x{height}" if width else "photo alone", "background": kind, "face_px": 110 * enlarge,
                     "tile_max_side": pipeline_module.TILE_MAX_SIDE,
                     "flat_range": pipeline_module.FLAT_RANGE, "found": found, "photos": len(people),
                     "false_faces": false_faces, "cpu_seconds_per_photo": round((time.process_time() - start) / len(people), 3)})
        print(json.dumps(rows[-1]), flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=40, help="dev people (one photo each)")
    ap.add_argument("--before", action="store_true",
                    help="as the pipeline was before 30 Nov 2026: plain autocontrast on flat photos too")
    ap.add_argument("--background", choices=("plain", "textured"), default="plain")
    ap.add_argument("--tile-max-side", type=int, default=None, help="finer tile levels down to this side (pipeline.TILE_MAX_SIDE; default: 2×2 tiles only)")
    args = ap.parse_args()
    if args.tile_max_side:
        pipeline_module.TILE_MAX_SIDE = args.tile_max_side
    if args.before:
        pipeline_module.TILE_MAX_SIDE = None
        pipeline_module.FLAT_RANGE = 0
    run(args.n, args.background)


if __name__ == "__main__":
    main()
