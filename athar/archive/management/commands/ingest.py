from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from athar.archive.ingest import IngestOptions, ingest
from athar.core.command import AtharCommand, progress_bar


class Command(AtharCommand):
    help = "Ingest an archive folder of photos (<facility>/<case>/<photo>), hashed and tamper-evident."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("archive_dir", metavar="ARCHIVE_DIR", help="the archive folder")
        parser.add_argument("--archive", required=True, metavar="NAME", help="the archive's name")
        parser.add_argument("--manifest", metavar="FILE", help="per-photo facts (path, facility, case, ...)")
        parser.add_argument("--pattern", metavar="REGEX",
                            help="read facility/case from file names, e.g. '(?P<facility>\\d+)_(?P<case>\\d+)_(?P<n>\\d+)'")
        parser.add_argument("--no-faces", action="store_true", help="skip face detection and embedding")
        parser.add_argument("--workers", type=int, default=0, help="worker processes (default: one per core)")

    def run(self, options: dict[str, Any]) -> dict[str, Any]:
        pattern = options.get("pattern")
        if pattern:
            _check_pattern(pattern)
        opts = IngestOptions(
            root=Path(options["archive_dir"]), archive=options["archive"],
            manifest=Path(options["manifest"]) if options.get("manifest") else None,
            pattern=pattern, faces=not options["no_faces"], workers=options["workers"],
        )
        with progress_bar("ingest") as advance, progress_bar("faces") as face_advance:
            summary, archive = ingest(opts, progress=advance, on_total=advance.set_total,  # type: ignore[attr-defined]
                                      face_progress=face_advance)
        return summary.as_dict(archive)

    def describe(self, result: dict[str, Any]) -> str:
        lines = [
            f"archive {result['archive']}: {result['files_seen']} files seen, {result['photos_added']} photos added, "
            f"{result['duplicates']} exact duplicates, {result['near_duplicates']} near-duplicates, "
            f"{result['cases']} cases in {result['facilities']} facilities",
        ]
        if result["rejected"]:
            lines.append(f"{len(result['rejected'])} files reported:")
            lines += [f"  {r['path']}: {r['reason']}" for r in result["rejected"]]
        return "\n".join(lines)


def _check_pattern(pattern: str) -> None:
    import re

    try:
        compiled = re.compile(pattern)
    except re.error as exc:
        raise CommandError(f"--pattern is not a valid regular expression: {exc}") from exc
    missing = {"facility", "case"} - set(compiled.groupindex)
    if missing:
        raise CommandError(f"--pattern needs named groups (?P<facility>…) and (?P<case>…); missing: {', '.join(sorted(missing))}")
