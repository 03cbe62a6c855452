"""Running the real ``athar`` command in a subprocess with its own data directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ATHAR = [sys.executable, "-m", "athar.cli"]


def athar_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    env.update({"ATHAR_HOME": str(home), "ATHAR_ENV": "development"}, **extra)
    return env


def run_athar(home: Path, *args: str, stdin: str | None = None, check: bool = True,
              **extra: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*ATHAR, *args], env=athar_env(home, **extra), input=stdin, text=True,
                          capture_output=True, timeout=600)
    if check and proc.returncode != 0:
        raise AssertionError(f"athar {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc


def last_json(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The contract: the last line of standard output is one JSON object."""
    line = proc.stdout.strip().splitlines()[-1]
    value = json.loads(line)
    assert isinstance(value, dict)
    return value
