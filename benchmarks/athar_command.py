"""One ``athar`` command in a fresh process, timed: shared by the side-by-side benchmarks
(``ingest_throughput.py``, ``registry/import_speed.py``)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def athar(home: Path, *arguments: str) -> tuple[float, float, dict]:
    """Run an athar command in a fresh process (SQLite in ``home``): (wall seconds, CPU seconds, its
    JSON result)."""
    env = {**os.environ, "ATHAR_HOME": str(home), "PYTHONPATH": str(REPO)}
    env.pop("DATABASE_URL", None)
    start, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run([sys.executable, "-m", "athar.cli", *arguments, "--json"], env=env, cwd=REPO,
                          capture_output=True, text=True, check=False)
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if done.returncode:
        raise SystemExit(f"athar {' '.join(arguments)} failed:\n{done.stderr[-3000:]}")
    return seconds, cpu, json.loads(done.stdout.strip().splitlines()[-1])
