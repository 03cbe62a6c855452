"""``athar candidates (--person ID | --report ID) [--limit N] [--json]``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from athar.core.command import AtharCommand


class Command(AtharCommand):
    help = "Ranked archive cases for a missing person or a report, with the decision and the reasons."

    def add_command_arguments(self, parser: CommandParser) -> None:
        who = parser.add_mutually_exclusive_group(required=True)
        who.add_argument("--person", metavar="ID", help="a missing person (id or public id)")
        who.add_argument("--report", metavar="ID", help="a report by its report_id from the import (or #row-id)")
        parser.add_argument("--source", help="the report's source, when several sources use the same report_id")
        parser.add_argument("--limit", type=int, default=10, help="cases to list (default 10, at most 50)")
        parser.add_argument("--refresh", action="store_true",
                            help="rank again now instead of using the worker's last ranking")

    def run(self, options: dict[str, Any]) -> dict[str, Any]:
        from athar.identification.commands import candidates

        return candidates(options)

    def describe(self, result: dict[str, Any]) -> str:
        from athar.identification.commands import describe_candidates

        return describe_candidates(result)
