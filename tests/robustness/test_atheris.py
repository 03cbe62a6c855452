"""The atheris harnesses of ``fuzz/`` run briefly: each must finish its runs with no finding.

A short, bounded smoke run (``-runs=1500``, at most 12 s of fuzzing each, fixed seed) on a
freshly generated seed corpus; the long campaigns are run by hand (fuzz/README.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("atheris", reason="atheris is not installed (pip install -e '.[test]')")

ROOT = Path(__file__).resolve().parents[2]
FUZZ = ROOT / "fuzz"
HARNESSES = ("images", "import", "names", "export")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fuzz-corpus")
    subprocess.run([sys.executable, str(FUZZ / "make_corpus.py"), str(out)], check=True, capture_output=True,
                   timeout=120)
    return out


@pytest.mark.parametrize("harness", HARNESSES)
def test_harness_finds_nothing(harness: str, corpus: Path, tmp_path: Path) -> None:
    new = tmp_path / "new"
    new.mkdir()
    env = {**os.environ, "ATHAR_HOME": str(tmp_path / "home"), "PYTHONHASHSEED": "0"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    command = [sys.executable, str(FUZZ / f"fuzz_{harness}.py"), "-runs=1500", "-max_total_time=12",
               "-timeout=20", "-rss_limit_mb=2048", "-seed=1", f"-artifact_prefix={tmp_path}/",
               str(new), str(corpus / harness)]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, errors="replace",
                          timeout=120)
    findings = sorted(p.name for p in tmp_path.glob("*") if p.name.startswith(("crash-", "timeout-", "oom-")))
    assert done.returncode == 0 and not findings, (
        f"fuzz_{harness}.py exited {done.returncode}, artifacts {findings}:\n{done.stderr[-4000:]}")
    assert "Done" in done.stderr, done.stderr[-2000:]
