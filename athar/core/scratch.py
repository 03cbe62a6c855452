"""Running a command in a scratch store: a temporary data directory and SQLite database, so a
benchmark never touches the user's data (``athar eval …``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from typing import Any

from athar.config import env_str
from athar.core.errors import UserError

SCRATCH_FLAG = "ATHAR_SCRATCH_STORE"


def in_scratch_store() -> bool:
    return env_str(SCRATCH_FLAG) == "1"


def scratch_environment(home: str) -> dict[str, str]:
    """This process's environment pointed at a scratch data directory: SQLite there, no
    production database, no production data key (the scratch store makes its own)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "ATHAR_DATA_KEY", "ATHAR_DATA_KEY_FILE")}
    env.update({"ATHAR_HOME": home, "ATHAR_ENV": "development", "DJANGO_SETTINGS_MODULE": "athar.settings",
                SCRATCH_FLAG: "1"})
    return env


def run_in_scratch_store(args: list[str]) -> dict[str, Any]:
    """Run ``athar ARGS --json`` with a fresh temporary ATHAR_HOME; return its JSON result."""
    with tempfile.TemporaryDirectory(prefix="athar-scratch-") as home:
        proc = subprocess.run([sys.executable, "-m", "athar.cli", *args, "--json"], env=scratch_environment(home),
                              stdout=subprocess.PIPE, text=True)
        lines = proc.stdout.strip().splitlines()
        result: dict[str, Any] = json.loads(lines[-1]) if lines else {}
        if proc.returncode != 0:
            raise UserError(result.get("error") or f"scratch run failed with exit status {proc.returncode}")
        return result
