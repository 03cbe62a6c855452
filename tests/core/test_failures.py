"""One error contract for every command: a mistake or an outage is one line, a JSON error line
under --json, exit 1 (2 for usage), no traceback; a bug asks to be reported and says where its log is."""

from __future__ import annotations

import errno
import json
import subprocess
from pathlib import Path

import pytest

from athar.core.failures import explain
from tests.cli_helpers import ATHAR, athar_env

pytestmark = pytest.mark.nodb


def athar(home: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ATHAR, *args], env=athar_env(home, **extra), capture_output=True, text=True, timeout=300)


def contract(proc: subprocess.CompletedProcess[str], code: int) -> str:
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.strip().splitlines()[-1].startswith("error: "), proc.stderr
    return str(json.loads(proc.stdout.strip().splitlines()[-1])["error"])


@pytest.mark.parametrize("args", [("status", "--json"), ("claims", "--json"), ("backup", "/tmp/x.tar", "--json")])
def test_an_unreachable_database_is_one_error_line_even_before_the_command_runs(tmp_path: Path, args) -> None:
    proc = athar(tmp_path / "home", *args, DATABASE_URL="postgres://postgres@127.0.0.1:1/none")
    assert "database cannot be reached" in contract(proc, 1)


def test_usage_errors_exit_2_with_the_json_line(tmp_path: Path) -> None:
    assert "required" in contract(athar(tmp_path / "home", "backup", "--json"), 2)
    assert "unknown command" in contract(athar(tmp_path / "home", "no-such-command", "--json"), 2)


def test_a_full_disk_and_a_user_error_are_explained_and_a_plain_bug_is_not() -> None:
    message, code = explain(OSError(errno.ENOSPC, "No space left on device", "/data/x"))  # type: ignore[misc]
    assert code == 1 and "disk is full" in message
    assert explain(ValueError("bug")) is None


def test_a_bug_asks_to_be_reported_and_says_where_the_log_is(tmp_path: Path, monkeypatch) -> None:
    import io
    import sys

    from athar.core import failures

    monkeypatch.setattr(failures, "error_log", lambda: tmp_path / "errors.log")
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    with pytest.raises(SystemExit) as stopped:
        try:
            {}["surprise"]
        except KeyError as exc:
            failures.fail_on(exc, as_json=True)
    assert stopped.value.code == 1
    error = json.loads(out.getvalue().strip().splitlines()[-1])["error"]
    assert "please report" in error and str(tmp_path / "errors.log") in error
    assert "Traceback" in err.getvalue() and "KeyError" in (tmp_path / "errors.log").read_text()
