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


def compiled() -> None:
    """athar's modules compiled to bytecode once, as ``pip install`` does: the command is timed as
    installed. Without it, an environment with ``PYTHONDONTWRITEBYTECODE`` (these machines set it)
    recompiles every module on every command, about 0.25 CPU-second that no installation pays."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "athar")], check=True,
                   stdout=subprocess.DEVNULL)


def athar(home: Path, *arguments: str) -> tuple[float, float, dict]:
    """Run an athar command in a fresh process (SQLite in ``home``): (wall seconds, CPU seconds, its
    JSON result). Call ``compiled()`` first."""
    env = {**os.environ, "ATHAR_HOME": str(home), "PYTHONPATH": str(REPO)}
    env.pop("DATABASE_URL", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # read the bytecode compiled() wrote
    start, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run([sys.executable, "-m", "athar.cli", *arguments, "--json"], env=env, cwd=REPO,
                          capture_output=True, text=True, check=False)
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if done.returncode:
        raise SystemExit(f"athar {' '.join(arguments)} failed:\n{done.stderr[-3000:]}")
    return seconds, cpu, json.loads(done.stdout.strip().splitlines()[-1])
