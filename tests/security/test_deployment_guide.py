"""The production guide's commands, run exactly as written in docs/deployment.md."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.security.pg import pg_available, scratch_database

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "deployment.md"
BLOCK = re.compile(r"<!-- tested -->\s*```sh\n(.*?)```", re.S)

pytestmark = pytest.mark.slow


def guide_blocks() -> list[str]:
    return BLOCK.findall(GUIDE.read_text(encoding="utf-8"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run_guide(tmp_path: Path, database_url: str = "", restore_url: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ATHAR_", "DATABASE_URL", "DJANGO_"))}
    env.update({
        "PATH": f"{Path(sys.executable).parent}:{env.get('PATH', '')}",
        "ATHAR_HOME": str(tmp_path / "srv-athar"), "ATHAR_SECRETS": str(tmp_path / "etc-athar"),
        "BACKUP_DIR": str(tmp_path / "backups"), "RESTORE_HOME": str(tmp_path / "restored"),
        "ATHAR_PORT": str(_free_port()), "ADMIN_PASSWORD": "a long admin password 2026",
        "DATABASE_URL": database_url, "RESTORE_DATABASE_URL": restore_url,
    })
    script = "set -euo pipefail\n" + "\n".join(guide_blocks())
    return subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=900)


def test_the_guide_has_tested_blocks():
    assert len(guide_blocks()) >= 5


def test_the_guide_runs_on_sqlite(tmp_path):
    proc = _run_guide(tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "strict-transport-security" in proc.stdout.lower()
    assert '"ok":true' in proc.stdout.replace(" ", "")  # restore's verify
    backups = list((tmp_path / "backups").glob("athar-backup-*.tar.enc"))
    assert backups and backups[0].read_bytes().startswith(b"athar-backup-encrypted/2")


@pytest.mark.skipif(not pg_available(), reason="PostgreSQL not reachable")
def test_the_guide_runs_on_postgresql(tmp_path):
    with scratch_database("athar_guide") as url, scratch_database("athar_guide_restore") as restore_url:
        proc = _run_guide(tmp_path, url, restore_url)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert '"engine":"postgresql"' in proc.stdout.replace(" ", "")
