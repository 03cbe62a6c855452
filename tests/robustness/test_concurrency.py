"""Two ingests of one archive at once, and a linkage killed midway, leave athar consistent."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from athar.archive.synthetic import make_archive
from tests.cli_helpers import ATHAR, athar_env, last_json, run_athar
from tests.security.pg import pg_available, scratch_database

pytestmark = pytest.mark.slow


def _start(home: Path, *args: str, **extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen([*ATHAR, *args], env=athar_env(home, **extra), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _ingest_twice_at_once(home: Path, root: Path, **extra: str) -> list[tuple[int, str]]:
    run_athar(home, "archive", "stats", **extra)  # the store exists before both start
    procs = [_start(home, "ingest", str(root), "--archive", "Twice", "--json", **extra) for _ in range(2)]
    return [(p.wait(timeout=600), p.communicate()[1]) for p in procs]


def _assert_consistent(home: Path, archive_photos: int, **extra: str) -> None:
    again = last_json(run_athar(home, "ingest", str(home.parent / "archive"), "--archive", "Twice", "--json", **extra))
    assert again["photos_added"] == 0, "a third run found photos the first two lost"
    verify = last_json(run_athar(home, "verify", "--json", **extra))
    assert verify["ok"], verify["problems"]
    stats = last_json(run_athar(home, "archive", "stats", "--json", **extra))
    assert stats["photos"] == verify["originals"]
    assert stats["photos"] >= archive_photos


ENGINES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(not pg_available(),
                                                                       reason="PostgreSQL not reachable"))]


def _twice(tmp_path: Path, engine: str):
    """Run two ingests of one archive at once; yields (exit codes and errors, home, archive, env)."""
    archive = make_archive(tmp_path / "archive", cases_per_facility=6, faulty=True)
    home = tmp_path / "home"
    if engine == "sqlite":
        extra = {"ATHAR_INGEST_WORKERS": "1"}
        return _ingest_twice_at_once(home, archive.root, **extra), home, archive, extra, None
    database = scratch_database("athar_twice")
    url = database.__enter__()
    extra = {"DATABASE_URL": url, "ATHAR_INGEST_WORKERS": "1"}
    return _ingest_twice_at_once(home, archive.root, **extra), home, archive, extra, database


@pytest.mark.parametrize("engine", ENGINES)
def test_two_ingests_at_once_leave_the_store_consistent(tmp_path, engine):
    """Whatever each run's outcome, nothing is lost, doubled or half-written."""
    results, home, archive, extra, database = _twice(tmp_path, engine)
    try:
        assert any(code == 0 for code, _ in results)
        _assert_consistent(home, archive.photos, **extra)
        if engine == "sqlite":
            with sqlite3.connect(home / "athar.sqlite3") as db:
                counts = db.execute("SELECT COUNT(*), COUNT(DISTINCT path) FROM archive_photosighting").fetchone()
            assert counts[0] == counts[1], "a file was recorded twice"
    finally:
        if database is not None:
            database.__exit__(None, None, None)


@pytest.mark.parametrize("engine", ENGINES)
def test_two_ingests_at_once_both_succeed(tmp_path, engine):
    results, home, archive, extra, database = _twice(tmp_path, engine)
    try:
        failures = [err for code, err in results if code != 0]
        assert not failures, "an ingest failed while another ran:\n" + "\n".join(f[-800:] for f in failures)
    finally:
        if database is not None:
            database.__exit__(None, None, None)


def _kill_when_running(proc: subprocess.Popen[str], database: Path, timeout: float = 120) -> bool:
    """SIGKILL the process once its linkage run has started (row 'running'); True if it was killed so."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=1) as db:
                running = db.execute("SELECT COUNT(*) FROM registry_linkagerun WHERE status='running'").fetchone()[0]
        except sqlite3.Error:
            running = 0
        if running:
            time.sleep(0.3)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)
            return True
        time.sleep(0.05)
    proc.wait(timeout=600)
    return False


def test_linkage_killed_midway_then_rerun_is_consistent(tmp_path):
    """`athar registry link` killed with SIGKILL, then run again: one consistent result."""
    from athar.matching.linkage.synthetic import generate_reports

    home = tmp_path / "home"
    reports = tmp_path / "reports.csv"
    generate_reports(600, seed=3).to_csv(reports, index=False)
    run_athar(home, "registry", "import", str(reports), "--json")
    proc = _start(home, "registry", "link", "--json")
    killed_running = _kill_when_running(proc, home / "athar.sqlite3")
    first = last_json(run_athar(home, "registry", "link", "--json"))
    second = last_json(run_athar(home, "registry", "link", "--json"))
    assert first.get("persons") == second.get("persons")
    with sqlite3.connect(home / "athar.sqlite3") as db:
        current = db.execute("SELECT COUNT(*) FROM registry_linkagerun WHERE is_current").fetchone()[0]
        runs = db.execute("SELECT COUNT(*) FROM registry_linkagerun").fetchone()[0]
    assert current == 1, "exactly one linkage run is in force after the crash"
    assert runs == 2 + int(killed_running)
    verify = last_json(run_athar(home, "verify", "--json"))
    assert verify["ok"], verify["problems"]
