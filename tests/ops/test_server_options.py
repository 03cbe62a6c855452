"""``athar serve`` keeps gunicorn's control socket in its own data folder, one per port."""

from __future__ import annotations

import stat
from pathlib import Path

from gunicorn.config import Config

from athar.ops.server import server_options


def test_the_control_socket_is_private_to_this_store(settings, tmp_path: Path) -> None:
    settings.ATHAR_HOME = tmp_path
    options = server_options("127.0.0.1", 8765, 2)
    assert options["control_socket"] == str(tmp_path / "run" / "gunicorn-8765.ctl")
    assert stat.S_IMODE((tmp_path / "run").stat().st_mode) == 0o700
    assert server_options("127.0.0.1", 8766, 2)["control_socket"] != options["control_socket"]
    config = Config()  # every option is one gunicorn knows, with a value it accepts
    for key, value in options.items():
        config.set(key, value)
    assert config.control_socket == options["control_socket"] and config.control_socket_mode == 0o600


def test_no_connection_stays_with_one_worker_process(settings, tmp_path: Path) -> None:
    """Keep-alive connections stay with the process that accepted them: 50 clients connecting at
    once loaded one of two processes (one core, Python's GIL) and left the other idle."""
    settings.ATHAR_HOME = tmp_path
    config = Config()
    for key, value in server_options("127.0.0.1", 8765, 2).items():
        config.set(key, value)
    assert config.keepalive == 0 and config.worker_class_str == "gthread" and config.workers == 2


def test_two_web_processes_per_core_by_default(monkeypatch) -> None:
    """One process per core left requests waiting on a busy process's GIL while a core idled."""
    from athar.ops import server

    monkeypatch.setattr(server.os, "sched_getaffinity", lambda _pid: {0, 1, 2})
    assert server.default_workers() == 6
    monkeypatch.setattr(server.os, "sched_getaffinity", lambda _pid: {0})
    assert server.default_workers() == 2
