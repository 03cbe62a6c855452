"""Serving athar with gunicorn from inside the ``athar`` command (no separate config needed)."""

from __future__ import annotations

import sys
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


def serve(host: str, port: int, workers: int = 2) -> None:
    """Block serving on host:port; logs go to standard error."""
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)
    sys.stderr.write(f"athar: serving on http://{host}:{port}/ (Ctrl+C to stop)\n")
    _AtharApplication({
        "bind": f"{host}:{port}", "workers": workers, "threads": 4, "worker_class": "gthread",
        "accesslog": None, "errorlog": "-", "timeout": 60, "graceful_timeout": 10,
    }).run()
