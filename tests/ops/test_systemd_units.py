"""The systemd units of docs/deployment.md work as written: systemd accepts them, the programs they
start exist, and every option they pass is one those programs accept (an operator copies them)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "deployment.md"
VENV_BIN = Path(sys.executable).parent
DOCUMENTED_BIN = "/opt/athar/venv/bin"


def units() -> dict[str, str]:
    """The guide's ``ini`` blocks that are units, by the file name the guide gives them."""
    text = GUIDE.read_text(encoding="utf-8")
    found = {}
    for named in re.finditer(r"`/etc/systemd/system/([\w@.-]+)`", text):
        block = re.compile(r"```ini\n(.*?)```", re.S).search(text, named.end())
        if block is not None:
            found[named.group(1)] = block.group(1)
    return found


def exec_start(unit: str) -> list[str]:
    line = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    return shlex.split(line.removeprefix("ExecStart="))


def test_the_guide_has_a_web_unit_and_a_worker_template() -> None:
    found = units()
    assert set(found) == {"athar.service", "athar-worker@.service"}
    for unit in found.values():
        assert "[Install]" in unit and "WantedBy=multi-user.target" in unit  # `systemctl enable` needs it
        assert exec_start(unit)[0].startswith(DOCUMENTED_BIN + "/")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_units(tmp_path: Path) -> None:
    for name, unit in units().items():
        path = tmp_path / name.replace("@.", "@1.")  # an instance of the template
        path.write_text(unit.replace(DOCUMENTED_BIN, str(VENV_BIN)), encoding="utf-8")
        done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(path)], capture_output=True, text=True)
        assert done.returncode == 0 and not done.stderr.strip(), (name, done.stderr)


def test_the_worker_unit_passes_options_athar_worker_accepts() -> None:
    from django.core.management import load_command_class

    command = exec_start(units()["athar-worker@.service"])
    assert command[1] == "worker"
    parser = load_command_class("athar.identification", "worker").create_parser("athar", "worker")
    parser.parse_args([a.replace("%H", "host").replace("%i", "1") for a in command[2:]])  # SystemExit if not


def test_the_web_unit_passes_options_gunicorn_accepts() -> None:
    from gunicorn.config import Config

    command = exec_start(units()["athar.service"])
    assert Path(command[0]).name == "gunicorn" and command[1] == "athar.wsgi"
    Config().parser().parse_args(command[1:])  # SystemExit for an option gunicorn does not know
