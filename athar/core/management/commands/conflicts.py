"""``athar conflicts``: conflicts that block publication; resolve or reopen them with a reason."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from athar.core.command import AtharCommand


class Command(AtharCommand):
    help = "Conflicts between claims and evidence (list, resolve, reopen); open ones block publication."

    def add_command_arguments(self, parser: CommandParser) -> None:
        from athar.identification.commands import conflicts_arguments

        conflicts_arguments(parser)

    def run(self, options: dict[str, Any]) -> dict[str, Any]:
        from athar.identification.commands import conflicts

        return conflicts(options)

    def describe(self, result: dict[str, Any]) -> str:
        from athar.identification.commands import describe_conflicts

        return describe_conflicts(result)
