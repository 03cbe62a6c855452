"""``athar archive stats`` and ``athar export evidence``."""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from athar.archive.evidence import export_evidence, facility_by_code, facility_stats, find_case
from athar.archive.models import Archive, Photo, PhotoSighting
from athar.core.command import subcommand


def _describe_stats(result: dict[str, Any]) -> str:
    lines = [f"{result['archives']} archives, {result['cases']} cases, {result['photos']} photos"]
    lines += [f"  {r['archive']} / {r['facility']} {r['name']}: {r['cases']} cases, {r['photos']} photos"
              for r in result["facilities"]]
    return "\n".join(lines)


@subcommand("archive", "stats", "Cases and photos per facility.", describe=_describe_stats)
def archive_stats(options: dict[str, Any]) -> dict[str, Any]:
    rows = facility_stats()
    return {"archives": Archive.objects.count(), "cases": sum(r["cases"] for r in rows),
            "photos": Photo.objects.count(), "facilities": rows}


def _export_arguments(parser: ArgumentParser) -> None:
    scope = parser.add_mutually_exclusive_group(required=True)
    scope.add_argument("--case", metavar="ID", help="a case (id or public id)")
    scope.add_argument("--facility", metavar="CODE", help="every case of a facility (e.g. 215)")
    parser.add_argument("out_dir", metavar="OUT_DIR", help="an empty or new folder")


@subcommand("export", "evidence", "Originals of a case or facility with a verifiable manifest (sha256sum -c).",
            arguments=_export_arguments)
def export_evidence_command(options: dict[str, Any]) -> dict[str, Any]:
    if options.get("case"):
        case = find_case(options["case"])
        sightings = PhotoSighting.objects.filter(case=case)
        scope = {"type": "case", "id": str(case.pk), "label": case.label, "facility": case.facility.code}
    else:
        facility = facility_by_code(options["facility"])
        sightings = PhotoSighting.objects.filter(case__facility=facility)
        scope = {"type": "facility", "id": str(facility.pk), "code": facility.code}
    return export_evidence(sightings, Path(options["out_dir"]), scope)
