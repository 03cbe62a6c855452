from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from athar.core.command import AtharCommand
from athar.core.server import serve


class Command(AtharCommand):
    help = "Serve the web site (gunicorn; static files included) at http://HOST:PORT."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--workers", type=int, default=2)

    def run(self, options: dict[str, Any]) -> dict[str, Any]:
        serve(options["host"], options["port"], options["workers"])
        return {"served": True}
