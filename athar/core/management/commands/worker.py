"""``athar worker [--once]``: the background worker that keeps rankings current."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from athar.core.command import AtharCommand


class Command(AtharCommand):
    help = "Background worker: recompute candidate rankings when reports, cases or archives arrive."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="run every due job, then exit (tests, scripts)")
        parser.add_argument("--poll", type=float, default=5.0, help="seconds between looks at the queue when idle")
        parser.add_argument("--name", default="", help="this worker's name in the job table (default host:pid)")

    def run(self, options: dict[str, Any]) -> dict[str, Any]:
        from athar.identification.worker import run_worker

        return run_worker(once=options["once"], poll=options["poll"], name=options["name"] or None)
