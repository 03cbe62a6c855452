from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandParser

from athar.core.backup import make_backup, prune_backups
from athar.core.command import AtharCommand, progress_bar


class Command(AtharCommand):
    help = ("Back up the database and the media store into one tar archive with a sha256 manifest "
            "(OUT: a new file, or a folder for a dated file; --retention-days prunes older ones there).")

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("out", metavar="OUT", help="a new .tar file, or a folder")
        parser.add_argument("--retention-days", type=int, default=None, metavar="N",
                            help="after a backup into a folder, delete athar backups there older than N days")

    def run(self, options: dict[str, Any]) -> dict[str, Any]:
        out = Path(options["out"])
        if options.get("retention_days") is not None and not out.is_dir():
            raise ValueError("--retention-days needs OUT to be a folder of backups")
        with progress_bar("backup") as advance:
            result = make_backup(out, progress=advance)
        if options.get("retention_days") is not None:
            result["pruned"] = prune_backups(out, options["retention_days"])
        return result

    def describe(self, result: dict[str, Any]) -> str:
        text = (f"backup written: {result['backup']} ({result['bytes'] / 1e6:.1f} MB, {result['members']} files, "
                f"{result['photos']} photos, {result['audit_events']} audit events, {result['seconds']} s)")
        if result.get("pruned"):
            text += f"\npruned {len(result['pruned'])} older backups"
        return text
