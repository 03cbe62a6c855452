"""Serving athar with gunicorn from inside the ``athar`` command (no separate config needed)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from gunicorn.app.base import BaseApplication


class _AtharApplication(BaseApplication):
    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        # Here, not at the top: importing athar.wsgi sets Django up and builds the application,
        # which gunicorn does only once configured (and in each worker it forks).
        from athar.wsgi import application

        return application


WORKERS_PER_CORE = 2


def default_workers() -> int:
    """Two web processes per core this process may run on (at least two).

    Each process serves its four threads under one GIL: a process that happens to accept more of
    the requests arriving together runs them on one core while another waits. With one process per
    core the load benchmark (50 users, 2 cores) had p95 300 ms and p99 1,100 ms; with two per core,
    on the same code, 150 and 270 ms (docs/security.md, "Load")."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(2, WORKERS_PER_CORE * cores)


def serve(host: str, port: int, workers: int | None = None) -> None:
    """Block serving on host:port; logs go to standard error."""
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)
    sys.stderr.write(f"athar: serving on http://{host}:{port}/ (Ctrl+C to stop)\n")
    _AtharApplication(server_options(host, port, workers or default_workers())).run()


def server_options(host: str, port: int, workers: int) -> dict[str, Any]:
    """gunicorn's settings. Its control socket goes under ATHAR_HOME/run (private to the owner), one
    per port: gunicorn's default, ``~/.gunicorn/gunicorn.ctl``, is shared by every server of the user,
    so a second athar on the machine (a demo beside production) took over the first one's socket.

    No keep-alive: a connection kept open between requests stays with the worker process that
    accepted it, and clients that connect at once (50 browsers signing in) were accepted mostly by
    one process, whose threads then shared one core (Python's GIL) while the other process idled —
    measured under the load benchmark: 18 and 3 CPU-seconds in the same 25 s. A connection per
    request goes to whichever process is free to accept it (6 and 6 s in the same 15 s). Behind nginx, as
    deployed, each request is already a new connection (nginx's default to an upstream)."""
    from django.conf import settings

    run = Path(settings.ATHAR_HOME) / "run"
    run.mkdir(mode=0o700, parents=True, exist_ok=True)
    return {
        "bind": f"{host}:{port}", "workers": workers, "threads": 4, "worker_class": "gthread",
        "accesslog": None, "errorlog": "-", "timeout": 60, "graceful_timeout": 10,
        "keepalive": 0,
        "control_socket": str(run / f"gunicorn-{port}.ctl"), "control_socket_mode": 0o600,
    }
