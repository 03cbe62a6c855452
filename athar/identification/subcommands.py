"""``athar eval identify`` and ``athar export identification``."""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from athar.core.command import subcommand


def _eval_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--archive-dir", required=True, metavar="A", help="<facility>/<case>/<photo> with cases.csv")
    parser.add_argument("--reports", required=True, metavar="R", help="reports file (template columns + photos)")
    parser.add_argument("--truth-column", required=True, metavar="COL",
                        help="the true case's folder name, empty when the person is not in the archive")
    parser.add_argument("--face-cache", metavar="DIR", default="",
                        help="reuse face vectors computed before for the same photo bytes (repeated benchmark runs)")


def _describe_eval(result: dict[str, Any]) -> str:
    lines = [f"{result['cases']} cases, {result['reports_total']} reports ({result['algorithm']})"]
    for group in ("with_photo", "without_photo"):
        m = result[group]
        lines.append(f"  {group:<14} reports {m['reports']}: rank-1 {m['rank1']}, rank-10 {m['rank10']}, "
                     f"median rank {m['median_rank']}, top2pct {m['top2pct']}, mean views {m['mean_views']}")
    f = result["face_only"]
    lines.append(f"  face alone     reports {f['reports']}: rank-1 {f['rank1']}, rank-10 {f['rank10']}, "
                 f"median rank {f['median_rank']}")
    lines.append(f"  false-match rate (people not in the archive, {result['absent_reports']}): {result['false_match_rate']}")
    lines.append(f"  ranking: {result['rank_seconds_per_report'] * 1000:.1f} ms per report")
    return "\n".join(lines)


@subcommand("eval", "identify", "Score candidate ranking on an archive and reports with known answers (scratch store).",
            arguments=_eval_arguments, describe=_describe_eval)
def eval_identify(options: dict[str, Any]) -> dict[str, Any]:
    from athar.identification.evaluation import evaluate

    cache = Path(options["face_cache"]) if options.get("face_cache") else None
    return evaluate(Path(options["archive_dir"]), Path(options["reports"]), options["truth_column"], cache)


def _export_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("identification", metavar="ID", help="an identification id (athar claims lists them)")
    parser.add_argument("out_dir", metavar="OUT_DIR", help="an empty or new folder")


@subcommand("export", "identification", "A dossier of one identification for a court or commission (facts, "
            "evidence, decisions, reviewers, photo hashes, audit-chain head).", arguments=_export_arguments)
def export_identification_command(options: dict[str, Any]) -> dict[str, Any]:
    from athar.identification.dossier import export_identification
    from athar.identification.models import Identification

    ident = Identification.objects.filter(pk=int(options["identification"])).first() \
        if str(options["identification"]).isdigit() else None
    if ident is None:
        raise ValueError(f"no identification {options['identification']!r}")
    return export_identification(ident, Path(options["out_dir"]))
