"""Two ``athar registry import`` of one file at the same moment (issue 28): whatever each run's
outcome — done, taken over, or refused because the other wrote the same reports — every row is in
the store exactly once, and a third run finds every row unchanged."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest

from athar.matching.linkage import write_template_csv
from tests.cli_helpers import ATHAR, athar_env, last_json, run_athar
from tests.security.pg import pg_available, scratch_database

pytestmark = pytest.mark.slow

ROWS = 5000
ENGINES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(not pg_available(),
                                                                       reason="PostgreSQL not reachable"))]


def _current_reports(home: Path, url: str | None) -> tuple[int, int]:
    sql = "SELECT COUNT(*), COUNT(DISTINCT report_id) FROM registry_report WHERE is_current"
    if url is None:
        with sqlite3.connect(home / "athar.sqlite3") as db:
            return db.execute(sql).fetchone()
    import psycopg

    with psycopg.connect(url) as db:
        return db.execute(sql).fetchone()  # type: ignore[return-value]


@pytest.mark.parametrize("engine", ENGINES)
def test_two_imports_of_one_file_at_once_write_every_row_once(tmp_path: Path, engine: str) -> None:
    path = write_template_csv(tmp_path / "list.csv", ROWS, seed=5)
    home = tmp_path / "home"
    database = scratch_database("athar_import_twice") if engine == "postgresql" else None
    url = database.__enter__() if database is not None else None
    extra = {"DATABASE_URL": url} if url else {}
    try:
        run_athar(home, "registry", "template", str(tmp_path / "t.csv"), **extra)  # the store, migrated
        procs = [subprocess.Popen([*ATHAR, "registry", "import", str(path), "--json"], env=athar_env(home, **extra),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        outcomes = [(p.wait(timeout=900), *p.communicate()) for p in procs]
        assert any(code == 0 for code, _out, _err in outcomes), outcomes
        for code, _out, err in outcomes:
            assert code == 0 or "Traceback" not in err, err  # a refusal in plain words, never a crash
        if any(code != 0 for code, _out, _err in outcomes):
            run_athar(home, "registry", "import", str(path), "--json", **extra)  # finish what was refused
        assert _current_reports(home, url) == (ROWS, ROWS)
        third = last_json(run_athar(home, "registry", "import", str(path), "--json", **extra))
        assert third["imported"] == 0 and third["unchanged"] == ROWS
    finally:
        if database is not None:
            database.__exit__(None, None, None)
