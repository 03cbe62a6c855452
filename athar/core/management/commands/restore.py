from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import CommandParser

from athar.core.backup import restore_backup
from athar.core.command import AtharCommand


class Command(AtharCommand):
    help = ("Restore a backup (athar backup) into an empty ATHAR_HOME and database, then migrate and "
            "verify it; --force replaces existing data.")

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("archive", metavar="IN", help="a backup file made by athar backup")
        parser.add_argument("--force", action="store_true", help="replace the data already in ATHAR_HOME/database")

    def run(self, options: dict[str, Any]) -> dict[str, Any]:
        from athar.archive.verify import verify_store

        result = restore_backup(Path(options["archive"]), force=options["force"])
        call_command("migrate", interactive=False, verbosity=0, stdout=StringIO())
        report = verify_store()
        result["verify"] = report.as_dict()
        result["_exit_code"] = 0 if not report.problems else 3
        return result

    def describe(self, result: dict[str, Any]) -> str:
        verify = result["verify"]
        state = "OK" if verify["ok"] else "ALTERED"
        lines = [f"restored {result['restored']} ({result['engine']}, {result['photos']} photos, "
                 f"{result['audit_events']} audit events) in {result['seconds']} s",
                 f"verify: {state}: {verify['originals']} originals, {verify['derivatives']} derivatives, "
                 f"{verify['audit_events']} audit events"]
        return "\n".join(lines + [f"  - {p}" for p in verify["problems"]])
