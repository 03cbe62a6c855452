"""Start-up stays cheap: loading Django and every command loads none of the heavy libraries.

pandas, Splink, DuckDB, SciPy, the face models' runtimes … cost every ``athar`` command seconds of
imports when a module that every command loads imports them at its top (docs/archive.md,
"Start-up"). They are imported by the code that uses them. Time is measured in
``benchmarks/``; this test checks the cause, which does not depend on the machine's load.
"""

from __future__ import annotations

import subprocess

from tests.cli_helpers import ATHAR, athar_env, last_json

# Imported only by the commands that use them (linkage, number reading, faces, evaluations; ninja
# and pydantic by the API, that is by the web server).
HEAVY = ("pandas", "splink", "duckdb", "sqlglot", "scipy", "onnxruntime", "faiss", "dlib", "pyspark", "cv2",
         "sklearn", "pyarrow", "ftfy", "ninja", "pydantic")

# What ``athar --help`` does (Django set up, every command's class and actions loaded), then
# ``athar status --json`` on a fresh store (created and migrated first), in one process.
SCRIPT = f"""
import json, sys
from athar import cli

def heavy():
    return sorted(name for name in {HEAVY!r} if name in sys.modules)

cli.main(["--help"])
after_help = heavy()
try:
    cli.main(["status", "--json"])
except SystemExit as exit:
    assert not exit.code, exit.code
print(json.dumps({{"after_help": after_help, "after_status": heavy()}}))
"""


def test_help_and_status_load_no_heavy_library(tmp_path):
    proc = subprocess.run([ATHAR[0], "-c", SCRIPT], env=athar_env(tmp_path / "home"), text=True,
                          capture_output=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "commands:" in proc.stdout  # the help was printed, every command loaded
    assert (tmp_path / "home" / "athar.sqlite3").exists()  # the status ran on a migrated store
    loaded = last_json(proc)
    assert loaded == {"after_help": [], "after_status": []}, (
        f"{loaded}: a module loaded at start-up imports these at its top; import them in the function that "
        "uses them (run `python -X importtime -m athar.cli status --json` to find which)")
