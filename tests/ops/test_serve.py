"""``athar serve`` (and ``athar demo``) run the matching worker beside the web server: a report is
compared with the archives within seconds, and stopping the server stops the worker."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from tests.cli_helpers import ATHAR, athar_env, run_athar

pytestmark = pytest.mark.nodb


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rankings_of(home: Path) -> int:
    with sqlite3.connect(home / "athar.sqlite3") as db:
        return int(db.execute("select count(*) from identification_ranking where report_id is not null")
                   .fetchone()[0])


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
