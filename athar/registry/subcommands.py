"""``athar registry import|link|template``, ``athar places import`` and ``athar eval linkage``."""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from athar.core.command import subcommand

ENGINES = ("duckdb", "spark")


def _import_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="CSV (UTF-8, UTF-8 with BOM, Windows-1256) or XLSX")
    parser.add_argument("--source", default="", help="source of rows without a source column (default: file name)")


def _describe_import(result: dict[str, Any]) -> str:
    lines = [f"{result['imported']} reports imported ({result['new_versions']} new versions), "
             f"{result['unchanged']} unchanged, {len(result['rejected'])} rejected"]
    lines += [f"  warning: {w}" for w in result["warnings"]]
    lines += [f"  row {r['row']}: {r['reason']}" for r in result["rejected"][:100]]
    return "\n".join(lines)


@subcommand("registry", "import", "Import reports of the missing from CSV or XLSX (the athar template or "
            "the Syrian Detainee Finder format).", arguments=_import_arguments, describe=_describe_import)
def registry_import(options: dict[str, Any]) -> dict[str, Any]:
    from athar.registry.importing import import_reports

    return import_reports(Path(options["file"]), source=options.get("source") or "")


def _link_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--engine", choices=ENGINES, default="duckdb", help="DuckDB embedded (default) or local Spark")


def _describe_link(result: dict[str, Any]) -> str:
    return (f"run {result['run']} ({result['algorithm']}, {result['engine']}): {result['reports']} reports → "
            f"{result['persons']} missing persons ({result['new_persons']} new); {result['linked_pairs']} linked "
            f"pairs, {result['review_pairs']} pairs for review; {result['link_seconds']} s linking, "
            f"{result['write_seconds']} s writing")


@subcommand("registry", "link", "Link all reports into missing persons (Splink); unsure pairs go to review.",
            arguments=_link_arguments, describe=_describe_link)
def registry_link(options: dict[str, Any]) -> dict[str, Any]:
    from athar.registry.linkage import link_all

    return link_all(engine=options.get("engine") or "duckdb")


def _template_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--format", choices=("csv", "xlsx"), default=None,
                        help="file format (default: from OUT's extension, else csv)")
    parser.add_argument("--lang", choices=("ar", "en"), default="ar", help="header language (default ar)")
    parser.add_argument("out", metavar="OUT", help="file to write")


@subcommand("registry", "template", "Write the report template (CSV or XLSX, Arabic or English headers).",
            arguments=_template_arguments)
def registry_template(options: dict[str, Any]) -> dict[str, Any]:
    from athar.registry.template import template_bytes

    out = Path(options["out"])
    fmt = options.get("format") or ("xlsx" if out.suffix.lower() == ".xlsx" else "csv")
    data = template_bytes(fmt, options.get("lang") or "ar")
    out.write_bytes(data)
    return {"path": str(out), "format": fmt, "lang": options.get("lang") or "ar", "bytes": len(data)}


def _places_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("path", metavar="FOLDER", help="gazetteer folder (governorates.json, districts.json, "
                                                       "subdistricts.json)")
    parser.add_argument("--source", default="", help="name of the gazetteer (default: folder name)")


@subcommand("places", "import", "Import a gazetteer of Syrian places (districts, sub-districts, aliases, P-codes).",
            arguments=_places_arguments)
def places_import(options: dict[str, Any]) -> dict[str, Any]:
    from athar.registry.places import import_gazetteer

    return import_gazetteer(Path(options["path"]), options.get("source") or "")


def _eval_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="reports in the import template, with a truth column")
    parser.add_argument("--truth-column", required=True, metavar="COL",
                        help="rows with the same value in COL are the same person")
    parser.add_argument("--engine", choices=ENGINES, default="duckdb")


def _describe_eval(result: dict[str, Any]) -> str:
    return (f"{result['records']} records in {result['seconds']} s ({result['engine']})\n"
            f"pairwise  P {result['pairwise_precision']:.4f}  R {result['pairwise_recall']:.4f}  "
            f"F1 {result['pairwise_f1']:.4f}\n"
            f"B-cubed   P {result['bcubed_precision']:.4f}  R {result['bcubed_recall']:.4f}  "
            f"F1 {result['bcubed_f1']:.4f}")


@subcommand("eval", "linkage", "Score linkage on a file with known persons (in a scratch store).",
            arguments=_eval_arguments, describe=_describe_eval)
def eval_linkage(options: dict[str, Any]) -> dict[str, Any]:
    from athar.registry.evaluation import evaluate_file

    return evaluate_file(Path(options["file"]), options["truth_column"], options.get("engine") or "duckdb")
