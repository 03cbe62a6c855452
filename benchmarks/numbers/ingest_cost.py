"""What reading numbers during ingest costs: `athar ingest --no-faces` with and without `--no-numbers`.

Usage: python benchmarks/numbers/ingest_cost.py [--photos 100] [--size 1000]
Builds one synthetic archive (athar.archive.synthetic: generated pictures with a number card, no
person), ingests it twice into fresh stores in subprocesses (one worker), and prints, per run, the
wall time and the CPU seconds of the ingest process. The machine's load changes the wall time; the
CPU seconds are the figure to compare.
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

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")

from athar.archive.synthetic import make_archive  # noqa: E402


def ingest(archive_root: Path, home: Path, flags: list[str]) -> dict[str, object]:
    env = {**os.environ, "ATHAR_HOME": str(home), "PYTHONPATH": str(ROOT)}
    env.pop("DATABASE_URL", None)
    subprocess.run([sys.executable, "-m", "athar.cli", "archive", "stats"], env=env, check=True, capture_output=True)
    before, started = os.times(), time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "athar.cli", "ingest", str(archive_root), "--archive", "bench",
                           "--no-faces", "--json", "--workers", "1", *flags], env=env, check=True,
                          capture_output=True, text=True)
    after, wall = os.times(), time.perf_counter() - started
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return {"numbers": "off" if flags else "on", "photos": result["photos_added"], "wall_s": round(wall, 1),
            "cpu_s": round(cpu, 1), "numbers_summary": result.get("numbers")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=100)
    parser.add_argument("--size", type=int, default=1000)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="athar-ingest-numbers-"))
    archive = make_archive(scratch / "archive", cases_per_facility=max(1, args.photos // 20), photos_per_case=4,
                           size=args.size)
    for name, flags in (("off", ["--no-numbers"]), ("on", [])):
        print(json.dumps(ingest(archive.root, scratch / f"home-{name}", flags)))


if __name__ == "__main__":
    main()
