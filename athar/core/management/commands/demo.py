from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from athar.core.command import AtharCommand
from athar.core.demo import DemoContext, run_demo


class Command(AtharCommand):
    help = "Build a demo (synthetic archive, one account per role) in the data directory and serve it."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--no-serve", action="store_true", help="only build the demo")
        parser.add_argument("--faces", metavar="DIR", help="a folder of <identity>/<photo> face images")

    def run(self, options: dict[str, Any]) -> dict[str, Any]:
        if settings.PRODUCTION:
            raise CommandError("athar demo refuses to run with ATHAR_ENV=production (it creates known accounts)")
        faces = Path(options["faces"]) if options.get("faces") else None
        if faces is not None and not faces.is_dir():
            raise CommandError(f"--faces: folder not found: {faces}")
        context = run_demo(DemoContext(settings.ATHAR_HOME, faces))
        url = f"http://{options['host']}:{options['port']}/"
        result = {"home": str(settings.ATHAR_HOME), **context.made, "url": url,
                  "instructions": [*context.lines, f"Site: {url}"]}
        if options["no_serve"]:
            return result
        self.finish(result, bool(options.get("json")))
        from athar.core.server import serve

        serve(options["host"], options["port"])
        sys.exit(0)

    def describe(self, result: dict[str, Any]) -> str:
        return "\n".join(result["instructions"])
