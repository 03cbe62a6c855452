"""Ingestion throughput (photos/s) with --no-faces, for 250-px and 1,000-px JPEGs.

Usage: .venv/bin/python benchmarks/ingest_throughput.py [--photos 2000] [--workers 0]
Builds synthetic archives (generated pictures) in a temporary folder, runs the real `athar ingest`
in a subprocess with a fresh data directory, and prints photos per second (wall clock, including
hashing, decoding, perceptual hashes, four derivatives, the database writes and the audit chain).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")

from athar.archive.synthetic import make_archive  # noqa: E402


def run(size: int, photos: int, workers: int, scratch: Path) -> dict[str, float]:
    cases = max(1, photos // (5 * 4))
    archive = make_archive(scratch / f"arc{size}", cases_per_facility=cases, photos_per_case=4, size=size)
    home = scratch / f"home{size}"
    env = {**os.environ, "ATHAR_HOME": str(home)}
    env.pop("DATABASE_URL", None)
    subprocess.run([sys.executable, "-m", "athar.cli", "archive", "stats"], env=env, check=True,
                   capture_output=True)  # create and migrate the store outside the timing
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "athar.cli", "ingest", str(archive.root), "--archive", "bench",
                           "--no-faces", "--json", "--workers", str(workers)], env=env, check=True,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - started
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"size_px": size, "photos": result["photos_added"], "seconds": round(seconds, 2),
            "photos_per_second": round(result["photos_added"] / seconds, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--photos", type=int, default=2000)
    parser.add_argument("--large-photos", type=int, default=500)
    parser.add_argument("--workers", type=int, default=0, help="0: one per core")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = [run(250, args.photos, args.workers, Path(tmp)), run(1000, args.large_photos, args.workers, Path(tmp))]
    for row in rows:
        print(f"{row['size_px']:>5} px: {row['photos']} photos in {row['seconds']} s = {row['photos_per_second']} photos/s")
    print(json.dumps({"cpu_count": os.cpu_count(), "results": rows}))


if __name__ == "__main__":
    main()
