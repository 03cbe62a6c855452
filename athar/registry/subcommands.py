"""``athar registry import|link|template``, ``athar places import`` and ``athar eval linkage``."""

from __future__ import annotations

import datetime as dt
import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from athar.accounts.acting import acting_user
from athar.core.command import subcommand
from athar.core.errors import UserError
from athar.registry import consent as consent_rules
from athar.registry import decisions, lookup
from athar.registry.evaluation import evaluate_file
from athar.registry.importing import import_reports
from athar.registry.lookup import find_report
from athar.registry.models import LinkDecision, Report, ReviewPair
from athar.registry.places import import_gazetteer
from athar.registry.privacy import erase_report, export_report
from athar.registry.template import template_bytes

ENGINES = ("duckdb", "spark")


def _import_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="CSV (UTF-8, UTF-8 with BOM, Windows-1256) or XLSX")
    parser.add_argument("--source", default="", help="source of rows without a source column (default: file name)")


def _describe_import(result: dict[str, Any]) -> str:
    lines = [f"{result['imported']} reports imported ({result['new_versions']} new versions), "
             f"{result['unchanged']} unchanged, {len(result['rejected'])} rejected"
             + (f" (resumed after row {result['resumed_after_row']})" if result.get("resumed_after_row") else "")]
    lines += [f"  warning: {w}" for w in result["warnings"]]
    lines += [f"  row {r['row']}: {r['reason']}" for r in result["rejected"][:100]]
    return "\n".join(lines)


@subcommand("registry", "import", "Import reports of the missing from CSV or XLSX (the athar template or "
            "the Syrian Detainee Finder format).", arguments=_import_arguments, describe=_describe_import)
def registry_import(options: dict[str, Any]) -> dict[str, Any]:
    return import_reports(Path(options["file"]), source=options.get("source") or "", progress=_print_progress)


def _print_progress(done: int, total: int | None, rate: float) -> None:
    """One line per committed chunk on standard error (standard output keeps the result)."""
    of = f"/{total}" if total is not None else ""
    sys.stderr.write(f"athar registry import: {done}{of} rows ({rate:.0f} rows/s), committed\n")
    sys.stderr.flush()


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
    from athar.registry.linkage import link_all  # here, not at the top: it loads pandas (start-up, docs/archive.md)

    return link_all(engine=options.get("engine") or "duckdb")


def _template_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--format", choices=("csv", "xlsx"), default=None,
                        help="file format (default: from OUT's extension, else csv)")
    parser.add_argument("--lang", choices=("ar", "en"), default="ar", help="header language (default ar)")
    parser.add_argument("out", metavar="OUT", help="file to write")


@subcommand("registry", "template", "Write the report template (CSV or XLSX, Arabic or English headers).",
            arguments=_template_arguments)
def registry_template(options: dict[str, Any]) -> dict[str, Any]:
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
            f"F1 {result['bcubed_f1']:.4f}\n"
            f"review    {result['review_pairs']} pairs offered ({result['review_share']:.1%} of the records); "
            f"recall with review {result['recall_with_review']:.4f}")


@subcommand("eval", "linkage", "Score linkage on a file with known persons (in a scratch store).",
            arguments=_eval_arguments, describe=_describe_eval)
def eval_linkage(options: dict[str, Any]) -> dict[str, Any]:
    return evaluate_file(Path(options["file"]), options["truth_column"], options.get("engine") or "duckdb")


def _review_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--limit", type=int, default=50, metavar="N")


def _describe_review(result: dict[str, Any]) -> str:
    lines = [f"{result['open']} pairs waiting for review"]
    lines += [f"  pair {p['pair_id']}: report {p['left_report']} ~ report {p['right_report']}  "
              f"probability {p['probability']:.2f}  {p['reasons']}" for p in result["pairs"]]
    return "\n".join(lines)


@subcommand("registry", "review", "List the pairs of reports the linkage was unsure of (the review queue).",
            arguments=_review_arguments, describe=_describe_review)
def registry_review(options: dict[str, Any]) -> dict[str, Any]:
    pairs = ReviewPair.objects.filter(status=ReviewPair.Status.OPEN, run__is_current=True).order_by("-probability")
    return {"open": pairs.count(), "pairs": [
        {"pair_id": p.pk, "left_report": p.left_report_id, "right_report": p.right_report_id,
         "probability": round(p.probability, 4), "reasons": _reasons(p.explanation)}
        for p in pairs[: options["limit"]]]}


def _reasons(explanation: Any) -> str:
    if isinstance(explanation, dict):
        return "; ".join(str(v) for v in explanation.get("reasons", explanation.values()))[:300]
    return str(explanation)[:300]


def _decide_arguments(parser: ArgumentParser) -> None:
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--pair", type=int, metavar="ID", help="a pair from 'athar registry review'")
    target.add_argument("--reports", type=int, nargs=2, metavar=("A", "B"), help="two report ids")
    parser.add_argument("--verdict", required=True, choices=["same", "different", "unsure"])
    parser.add_argument("--reason", required=True, help="why (kept with the decision)")
    parser.add_argument("--by", required=True, metavar="LOGIN", help="the reviewer's login (email or phone); its password (and two-factor code) on standard input")


@subcommand("registry", "decide", "Record a reviewer's verdict on two reports (same / different / unsure); "
            "it wins over the model on the next link.", arguments=_decide_arguments)
def registry_decide(options: dict[str, Any]) -> dict[str, Any]:
    user = acting_user(options["by"])
    if options.get("pair"):
        pair = ReviewPair.objects.filter(pk=options["pair"]).first()
        if pair is None:
            raise UserError(f"no review pair {options['pair']}")
        left, right = pair.left_report, pair.right_report
    else:
        found = Report.objects.in_bulk(options["reports"])
        missing = [r for r in options["reports"] if r not in found]
        if missing:
            raise UserError(f"no report {missing[0]}")
        left, right = found[options["reports"][0]], found[options["reports"][1]]
    decision = decisions.decide(left, right, options["verdict"], user, options["reason"])
    return {"decision_id": decision.pk, "left_report": decision.left_report_id,
            "right_report": decision.right_report_id, "verdict": decision.verdict,
            "note": "applied on the next 'athar registry link'"}


def _undecide_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("decision", type=int, metavar="DECISION_ID")
    parser.add_argument("--reason", required=True)
    parser.add_argument("--by", required=True, metavar="LOGIN",
                        help="the reviewer's login; its password (and two-factor code) on standard input")


@subcommand("registry", "undecide", "Withdraw a reviewer's decision (kept, marked reversed, with who and why).",
            arguments=_undecide_arguments)
def registry_undecide(options: dict[str, Any]) -> dict[str, Any]:
    user = acting_user(options["by"])
    decision = LinkDecision.objects.filter(pk=options["decision"]).first()
    if decision is None:
        raise UserError(f"no decision {options['decision']}")
    undo = decisions.reverse(decision, user, options["reason"])
    return {"decision_id": decision.pk, "reversal_id": undo.pk}


def _privacy_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--report", required=True, metavar="ID", help="the report's report_id (or #row id)")
    parser.add_argument("--source", default=None, help="when several sources use the same report_id")


def _describe_person(result: dict[str, Any]) -> str:
    if result["person"] is None:
        return f"report {result['report']}: not linked yet (run 'athar registry link', or wait for the worker)"
    lines = [f"missing person {result['person']}: {len(result['reports'])} report(s) (linked by the registry: "
             "its judgement, not a fact)"]
    for item in result["reports"]:
        said = ", ".join(f"{k}={v}" for k, v in item["facts"].items())
        lines.append(f"  report {item['id']} ({item['source']} / {item['report_id']}): {said}")
    return "\n".join(lines)


@subcommand("registry", "person", "Show the missing person a report belongs to and all its reports, with which "
            "source said what (operator's view: every report).", arguments=_privacy_arguments,
            describe=_describe_person)
def registry_person(options: dict[str, Any]) -> dict[str, Any]:
    report = find_report(options["report"], options.get("source"))
    person = lookup.person_of(report)
    reports = lookup.reports_of(person) if person is not None else [report]
    facts = (*lookup.PERSON_FACTS, "reporter_relation")
    return {"report": report.pk, "person": str(person.public_id) if person is not None else None,
            "reports": [{"id": r.pk, "source": r.source, "report_id": r.report_id,
                         "facts": {f: str(getattr(r, f)) for f in facts if lookup.says(r, f)}}
                        for r in reports if r.is_current and r.erased_at is None]}


def _export_data_arguments(parser: ArgumentParser) -> None:
    _privacy_arguments(parser)
    parser.add_argument("out", metavar="OUT", help="a new JSON file")


@subcommand("registry", "export-data", "Export everything athar holds about a report (all versions) as JSON, "
            "on the family's request.", arguments=_export_data_arguments)
def registry_export_data(options: dict[str, Any]) -> dict[str, Any]:
    import json


    out = Path(options["out"])
    if out.exists():
        raise UserError(f"{out} exists: choose a new file")
    report = find_report(options["report"], options.get("source"))
    data = export_report(report)
    out.write_text(json.dumps(data, ensure_ascii=False, indent=2, default=str), encoding="utf-8")
    out.chmod(0o600)
    return {"report": report.pk, "out": str(out)}


def _erase_arguments(parser: ArgumentParser) -> None:
    _privacy_arguments(parser)
    parser.add_argument("--confirm", action="store_true", help="required: erasure cannot be undone")


@subcommand("registry", "erase", "Erase a report's personal data on the family's request (tombstone, contact "
            "key destroyed, photos removed; the audit chain keeps identifiers only).", arguments=_erase_arguments)
def registry_erase(options: dict[str, Any]) -> dict[str, Any]:
    if not options.get("confirm"):
        raise UserError("erasure cannot be undone: add --confirm")
    report = find_report(options["report"], options.get("source"))
    return {"report": report.pk, **erase_report(report)}


def _consent_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--report", required=True, metavar="ID", help="the report's report_id (or #row id)")
    parser.add_argument("--source", default=None, help="when several sources use the same report_id")
    answer = parser.add_mutually_exclusive_group(required=True)
    answer.add_argument("--given", action="store_true", help="the family consents to publication")
    answer.add_argument("--withdrawn", action="store_true", help="the family withdraws (or refuses) its consent")
    parser.add_argument("--method", required=True, choices=[m.value for m in consent_rules.STAFF_METHODS],
                        help="how the family said so")
    parser.add_argument("--on", default="", metavar="YYYY-MM-DD", help="the day the family said so (default today)")
    parser.add_argument("--words", default="", help="the family's own words (kept encrypted, never in the audit log)")
    parser.add_argument("--by", required=True, metavar="LOGIN",
                        help="the caseworker's login; its password (and two-factor code) on standard input")


def _describe_consent(result: dict[str, Any]) -> str:
    state = "given" if result["consent"]["given"] else "not given"
    return (f"report {result['report']}: consent to publication {state} "
            f"({result['consent']['how'] or 'never said'}); record {result['record']}")


@subcommand("registry", "consent", "Record a family's consent to publication (or its withdrawal) given on paper, "
            "by phone or in person (a caseworker of the report; password on stdin).",
            arguments=_consent_arguments, describe=_describe_consent)
def registry_consent(options: dict[str, Any]) -> dict[str, Any]:
    user = acting_user(options["by"])
    report = find_report(options["report"], options.get("source"))
    try:
        given_on = dt.date.fromisoformat(options["on"]) if options.get("on") else None
    except ValueError:
        raise UserError(f"--on {options['on']!r} is not a date (YYYY-MM-DD)") from None
    row = consent_rules.record_consent(report, user, publication=bool(options.get("given")),
                                       method=options["method"], given_on=given_on, words=options.get("words") or "")
    now = consent_rules.publication_consent(report)
    return {"report": row.report_id, "record": row.pk,
            "consent": {"given": now.given, "how": now.how, "given_on": now.given_on.isoformat() if now.given_on else None}}
