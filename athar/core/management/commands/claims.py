"""``athar claims``: list claims and identifications; add, withdraw, review, publish."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from athar.core.command import AtharCommand


class Command(AtharCommand):
    help = "Claims on candidates and identifications under review (list, add, withdraw, review, forensic)."

    def add_command_arguments(self, parser: CommandParser) -> None:
        from athar.identification.commands import claims_arguments

        claims_arguments(parser)

    def run(self, options: dict[str, Any]) -> dict[str, Any]:
        from athar.identification.commands import claims

        return claims(options)

    def describe(self, result: dict[str, Any]) -> str:
        from athar.identification.commands import describe_claims

        return describe_claims(result)
