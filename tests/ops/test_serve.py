"""``athar serve`` (and ``athar demo``) run the matching worker beside the web server: a report is
compared with the archives within seconds, and stopping the server stops the worker."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli_helpers import ATHAR, athar_env, run_athar

pytestmark = pytest.mark.nodb


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rankings_of(home: Path, report_id: str = "R-1") -> int:
    """Rankings of the report imported by the test (the demo ranks its own reports as it files them)."""
    with sqlite3.connect(home / "athar.sqlite3") as db:
        return int(db.execute("select count(*) from identification_ranking where report_id in "
                              "(select id from registry_report where report_id = ?)", (report_id,)).fetchone()[0])


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_for(condition, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.5)
    return False


@pytest.mark.slow
def test_serve_compares_a_new_report_and_stops_its_worker_with_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    run_athar(home, "demo", "--no-serve", "--json")
    reports = tmp_path / "reports.csv"
    reports.write_text("report_id,full_name_ar,sex,birth_year\nR-1,سامر علي الحسن,M,1980\n", encoding="utf-8")
    run_athar(home, "registry", "import", str(reports), "--source", "org", "--json")
    assert rankings_of(home) == 0  # nothing compares a report until the worker runs
    log = (tmp_path / "serve.log").open("w+")
    server = subprocess.Popen([*ATHAR, "serve", "--port", str(free_port()), "--workers", "1"],
                              env=athar_env(home), stdout=subprocess.DEVNULL, stderr=log)
    try:
        assert wait_for(lambda: rankings_of(home) > 0, 120), "the report was never compared"
        log.seek(0)
        worker_pid = int(re.search(r"matching worker running \(pid (\d+)\)", log.read()).group(1))  # type: ignore[union-attr]
        assert alive(worker_pid)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert wait_for(lambda: not alive(worker_pid), 15), "the worker outlived the server"


def test_serve_without_the_worker_says_so_in_its_help(tmp_path: Path) -> None:
    help_text = run_athar(tmp_path / "home", "serve", "--help").stdout
    assert "--no-worker" in help_text and "worker" in run_athar(tmp_path / "home", "demo", "--help").stdout


def worker_state(home: Path) -> dict:
    proc = run_athar(home, "status", "--json", check=False)
    return json.loads(proc.stdout.strip().splitlines()[-1])["worker"] if proc.stdout.strip() else {}


@pytest.mark.slow
def test_a_worker_killed_with_sigkill_runs_again_and_a_folder_named_athar_does_not_break_it(tmp_path: Path) -> None:
    """Supervision end to end: started from a folder holding a directory named athar/ (which used to
    shadow the package in the worker), the worker beats; killed with SIGKILL, it runs again."""
    home, here = tmp_path / "home", tmp_path / "cwd"
    (here / "athar").mkdir(parents=True)
    (here / "athar" / "__init__.py").write_text("raise ImportError('the wrong athar package')\n")
    run_athar(home, "migrate")
    log = (tmp_path / "serve.log").open("w+")
    athar = [sys.executable, "-P", "-m", "athar.cli"]  # as the `athar` script runs: its folder, not here, on the path
    server = subprocess.Popen([*athar, "serve", "--port", str(free_port()), "--workers", "1"], cwd=here,
                              env=athar_env(home), stdout=subprocess.DEVNULL, stderr=log)
    try:
        assert wait_for(lambda: worker_state(home).get("alive"), 60), log.name
        first = worker_state(home)["pid"]
        os.kill(first, signal.SIGKILL)
        assert wait_for(lambda: (s := worker_state(home)).get("alive") and s["pid"] != first, 60)
        log.seek(0)
        text = log.read()
        assert "Traceback" not in text and "restarting in" in text, text
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert wait_for(lambda: not alive(worker_state(home)["pid"]), 15), "the worker outlived the server"
