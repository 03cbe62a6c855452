"""Benchmark: ``athar ingest`` against a plain loop over the same photos, side by side (issue 31).

    nice .venv/bin/python benchmarks/ingest_throughput.py [--photos 2000] [--large-photos 400] [--json]

For each size (250 px and 1,600 px) it

1. writes a synthetic archive (``archive/synthetic.py``: generated pictures and a number card, no
   person; ``<facility>/<case>/<photo>.jpg`` with a ``cases.csv``);
2. times the **plain loop** in this process: for every file, read the bytes, sha256 them, decode
   them fully with Pillow, make a 320-px thumbnail and write it as a JPEG — the floor any ingest pays;
3. times ``athar ingest DIR --archive bench --no-faces --no-numbers --workers W --json`` in a fresh SQLite store
   (created and migrated beforehand by another command, so migrations are not timed): wall time
   of the command (interpreter and Django start-up included; athar's modules compiled to bytecode
   first, as an installation has them), CPU seconds of the process and its
   workers, and the ingest's own ``seconds`` from its JSON (without start-up).

What the ingest does beyond the loop, and is included in its time: the original kept
content-addressed and read-only, EXIF read, a 1,600-px viewing copy, the thumbnail, two blurred
copies, pHash and dHash, near-duplicate lookup, the database rows, one audit event per photo
(hash-chained), and one ``os.sync()`` per batch before the batch is committed. Face detection and
embedding are **not** included (``--no-faces``): they are a separate phase (``athar faces index``),
measured in docs/faces.md; nor is reading the numbers written in the photos (``--no-numbers``), also
a phase after the files (``athar numbers index``, measured in docs/numbers.md). ``--workers 1`` (the default here) compares one process with one
process; ``--workers 0`` lets the ingest use one process per core, while the loop keeps one.

``--profile FILE`` runs the 250-px ingest (``--profile-size 1600``: the 1,600-px one) under cProfile
(in this process) and writes the stats.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.athar_command import athar, compiled  # noqa: E402  (the repository on the path first)

THUMB = 320
TARGETS = {250: 0.1, 1600: 0.5}


def make(folder: Path, size: int, photos: int) -> Path:
    """A synthetic archive of about ``photos`` photos (four per case, five facilities)."""
    from athar.archive.synthetic import make_archive

    cases = max(1, round(photos / (5 * 4)))
    return make_archive(folder / f"archive-{size}", cases_per_facility=cases, photos_per_case=4, size=size).root


def photo_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.jpg") if p.is_file())


def plain_loop(files: list[Path], out: Path) -> tuple[float, float]:
    """Read, hash, decode, thumbnail, write: (wall seconds, CPU seconds)."""
    from PIL import Image

    out.mkdir(parents=True, exist_ok=True)
    start, cpu = time.perf_counter(), time.process_time()
    for path in files:
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        image = Image.open(io.BytesIO(data))
        image.load()
        image.thumbnail((THUMB, THUMB))
        image.convert("RGB").save(out / f"{digest}.jpg", "JPEG", quality=82)
    return time.perf_counter() - start, time.process_time() - cpu


def measure(folder: Path, size: int, photos: int, workers: int) -> dict[str, float | int]:
    """Both sides on the same files, in the same run."""
    root = make(folder, size, photos)
    files = photo_files(root)
    plain, plain_cpu = plain_loop(files, folder / f"plain-{size}")
    home = folder / f"home-{size}"
    athar(home, "archive", "stats")  # create and migrate the store outside the timing
    wall, cpu, result = athar(home, "ingest", str(root), "--archive", "bench", "--no-faces", "--no-numbers",
                              "--workers", str(workers))
    n = len(files)
    inner = float(result.get("seconds") or wall)
    inner_cpu = float(result.get("cpu_seconds") or cpu)
    return {
        "size_px": size, "photos": n, "photos_added": result["photos_added"], "workers": workers,
        "plain_photos_per_s": round(n / plain, 1), "ingest_photos_per_s": round(n / wall, 1),
        "ingest_photos_per_s_in_process": round(n / inner, 1),
        "ratio": round(plain / wall, 3), "ratio_in_process": round(plain / inner, 3),
        "ratio_cpu": round(plain_cpu / cpu, 3), "ratio_cpu_in_process": round(plain_cpu / inner_cpu, 3),
        "target": TARGETS.get(size, 0.0),
        "plain_seconds": round(plain, 2), "ingest_seconds_wall": round(wall, 2),
        "ingest_seconds_in_process": round(inner, 2), "plain_cpu_seconds": round(plain_cpu, 2),
        "ingest_cpu_seconds": round(cpu, 2), "ingest_cpu_seconds_in_process": round(inner_cpu, 2),
    }


def profile_ingest(folder: Path, size: int, photos: int, out: Path) -> None:
    """The ingest of ``size``-px photos in this process under cProfile (one worker: everything in
    one profile)."""
    import cProfile

    root = make(folder, size, photos)
    os.environ["ATHAR_HOME"] = str(folder / "home-profile")
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")
    import django

    django.setup()
    from athar.archive.ingest import IngestOptions, ingest
    from athar.core.store import ensure_store

    ensure_store()
    options = IngestOptions(root=root, archive="bench", faces=False, numbers=False, workers=1)
    cProfile.runctx("ingest(options)", globals(), {"ingest": ingest, "options": options}, filename=str(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=int, default=2000, help="photos at 250 px")
    parser.add_argument("--large-photos", type=int, default=400, help="photos at 1,600 px")
    parser.add_argument("--workers", type=int, default=1, help="ingest processes (1: like the loop; 0: one per core)")
    parser.add_argument("--json", action="store_true", help="print only the JSON line on standard output")
    parser.add_argument("--profile", type=Path, default=None, help="cProfile one ingest into FILE")
    parser.add_argument("--profile-size", type=int, choices=(250, 1600), default=250,
                        help="the photos' size for --profile (--photos or --large-photos of them)")
    options = parser.parse_args()
    compiled()  # the command timed as installed: bytecode written once
    with tempfile.TemporaryDirectory(prefix="athar-ingest-bench-") as tmp:
        if options.profile:
            count = options.photos if options.profile_size == 250 else options.large_photos
            profile_ingest(Path(tmp), options.profile_size, count, options.profile)
            print(f"profile written to {options.profile}", file=sys.stderr)
            return
        rows = [measure(Path(tmp), 250, options.photos, options.workers),
                measure(Path(tmp), 1600, options.large_photos, options.workers)]
    for row in rows:
        print(f"{row['size_px']:>5} px, {row['photos']} photos: plain loop {row['plain_photos_per_s']}/s, "
              f"athar ingest {row['ingest_photos_per_s']}/s (in process {row['ingest_photos_per_s_in_process']}/s) "
              f"→ ratio {row['ratio']} (in process {row['ratio_in_process']}; CPU seconds {row['ratio_cpu']}, in process {row['ratio_cpu_in_process']}); "
              f"target ≥ {row['target']}", file=sys.stderr if options.json else sys.stdout)
    print(json.dumps({"cpu_count": os.cpu_count(), "load_average": os.getloadavg(), "results": rows}))


if __name__ == "__main__":
    main()
