"""``athar candidates``, ``athar claims``, ``athar conflicts``, ``athar worker``, ``athar eval identify``
and ``athar export identification``: registered here
(``athar.core.command``); the shells in ``management/commands`` only name the group."""

from __future__ import annotations

import datetime as dt
import json
from argparse import ArgumentParser
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db.models import Q

from athar.accounts.acting import acting_user
from athar.archive.models import Case
from athar.core.command import command, subcommand
from athar.core.errors import UserError
from athar.identification import challenges, notices, policy, services
from athar.identification import claims as claim_rules
from athar.identification import conflicts as conflict_rules
from athar.identification.dossier import export_identification
from athar.identification.evaluation import evaluate
from athar.identification.models import (
    Challenge,
    Claim,
    Conflict,
    Identification,
    Review,
)
from athar.identification.number_search import search_by_number
from athar.identification.ranking import (
    current_ranking,
    rank_and_store,
    ranking_result,
    subject_for_person,
    subject_for_report,
)
from athar.identification.records import (
    challenge_dict,
    claim_dict,
    conflict_dict,
    ident_dict,
    review_dict,
    task_dict,
)
from athar.identification.worker import run_worker
from athar.registry.lookup import find_report
from athar.registry.models import MissingPerson


def find_person(value: str) -> MissingPerson:
    text = str(value).strip()
    person = MissingPerson.objects.filter(pk=int(text)).first() if text.isdigit() else \
        MissingPerson.objects.filter(public_id=text).first() if len(text) == 36 else None
    if person is None:
        raise UserError(f"no missing person {text!r}")
    return person


def find_case(value: str) -> Case:
    text = str(value).strip()
    case = Case.objects.filter(pk=int(text)).first() if text.isdigit() else \
        Case.objects.filter(public_id=text).first() if len(text) == 36 else None
    if case is None:
        raise UserError(f"no case {text!r} (give its id or public id)")
    return case


def _get(model: Any, pk: Any, what: str) -> Any:
    row = model.objects.filter(pk=int(pk)).first() if str(pk).isdigit() else None
    if row is None:
        raise UserError(f"no {what} {pk!r}")
    return row


# --- candidates --------------------------------------------------------------------------------
def _candidates_arguments(parser: ArgumentParser) -> None:
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--person", metavar="ID", help="a missing person (id or public id)")
    who.add_argument("--report", metavar="ID", help="a report by its report_id from the import (or #row-id)")
    parser.add_argument("--source", help="the report's source, when several sources use the same report_id")
    parser.add_argument("--limit", type=int, default=10, help="cases to list (default 10, at most 50)")
    parser.add_argument("--refresh", action="store_true",
                        help="rank again now instead of using the worker's last ranking")


@command("candidates", "Ranked archive cases for a missing person or a report, with the decision and the reasons.",
         arguments=_candidates_arguments, describe=lambda r: describe_candidates(r))
def candidates(options: dict[str, Any]) -> dict[str, Any]:
    limit = max(1, min(int(options.get("limit") or 10), 50))
    if options.get("person"):
        subject = subject_for_person(find_person(options["person"]))
    else:
        subject = subject_for_report(find_report(options["report"], options.get("source")))
    row = None if options.get("refresh") else current_ranking(subject)
    if row is None:
        row = rank_and_store(subject)
    return ranking_result(row, limit)


def describe_candidates(result: dict[str, Any]) -> str:
    decision = ("A likely match was found (a comparison, not proof)." if result["decision"] == "likely_match"
                else "No case is a likely match.")
    scope = f"{result['cases']} cases"
    if result.get("reported_facilities"):
        scope += f" ({result['cases_in_reported_facilities']} in {', '.join(result['reported_facilities'])})"
    lines = [f"{decision}  [{result['algorithm']} {result['algorithm_version']}; "
             f"{'with' if result['has_photo'] else 'without'} a family photo]",
             f"{scope} → {result['to_look_at_first']} to look at first", ""]
    for c in result["candidates"]:
        lines.append(f"#{c['rank']:<3} case {c['case']} {c['facility']}/{c['label']} number {c['detainee_number'] or '—'}"
                     f"  score {c['score']:+.1f}  p={c['probability']:.3f}{'  LIKELY MATCH' if c['likely_match'] else ''}")
        for r in c["reasons"]:
            lines.append(f"      {r['weight']:+5.1f} {r['feature']:<8} {r['detail']}")
    return "\n".join(lines)


# --- claims ------------------------------------------------------------------------------------
def _by(parser: ArgumentParser) -> None:
    parser.add_argument("--by", required=True, metavar="LOGIN",
                        help="the account acting: its password (and two-factor code) is read from standard input")


def _reason(parser: ArgumentParser, required: bool = False) -> None:
    parser.add_argument("--reason", required=required, default="")


def _list_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--person", help="only this missing person")
    parser.add_argument("--case", help="only this case")


def _add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--person", required=True)
    parser.add_argument("--case", required=True)
    parser.add_argument("--verdict", required=True, choices=["is_them", "not_them", "not_sure"])
    parser.add_argument("--certainty", default="probable", choices=["certain", "probable", "unsure"])
    parser.add_argument("--relation", default="", help="relation to the person (brother, mother …)")
    parser.add_argument("--on-behalf-of", default="", help="a caseworker recording a relative's word: who")
    parser.add_argument("--report", default="", help="the report on whose behalf the claim is made")
    parser.add_argument("--by", required=True, metavar="LOGIN")


def _one(what: str, with_reason: bool = True, extra: Callable[[ArgumentParser], None] | None = None
         ) -> Callable[[ArgumentParser], None]:
    """Arguments of an action on one row: its id, --by, a reason and any extra ones."""

    def arguments(parser: ArgumentParser) -> None:
        parser.add_argument(what)
        if extra is not None:
            extra(parser)
        _by(parser)
        if with_reason:
            _reason(parser)

    return arguments


def _forensic_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--person", required=True)
    parser.add_argument("--case", required=True)
    parser.add_argument("--kind", required=True, choices=["dna", "dental", "fingerprint", "other"])
    parser.add_argument("--result", required=True, choices=["match", "exclusion", "inconclusive"])
    parser.add_argument("--reference", default="")
    _by(parser)


def _inform_extra(parser: ArgumentParser) -> None:
    parser.add_argument("--report", required=True, help="the family's report (its id or report id)")
    parser.add_argument("--method", required=True, choices=["in_person", "phone"])
    parser.add_argument("--on", default="", metavar="YYYY-MM-DD", help="the day the family was told (default today)")


@subcommand("claims", "list", "claims and identifications (the default)", arguments=_list_arguments,
            describe=lambda r: describe_claims(r), default=True)
def claims_list(options: dict[str, Any]) -> dict[str, Any]:
    person = find_person(options["person"]) if options.get("person") else None
    case = find_case(options["case"]) if options.get("case") else None
    return _listing(person=person, case=case, either=False)


@subcommand("claims", "add", "record 'this is him/her', 'not him/her' or 'not sure'", arguments=_add_arguments,
            describe=lambda r: describe_claims(r))
def claims_add(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])  # proven first: nothing is looked up for an account that is not
    report = find_report(options["report"]) if options.get("report") else None
    claim = claim_rules.make_claim(
        find_person(options["person"]), find_case(options["case"]), options["verdict"], by,
        certainty=options["certainty"], relation=options["relation"], on_behalf_of=options["on_behalf_of"],
        report=report)
    out = {"claim": claim_dict(claim), **_listing(person=claim.person, case=claim.case)}
    if claim.set_aside_at is not None:  # a set-aside family said yes again: kept, nothing reopened
        out["held"] = ("recorded and set aside: a reviewer identified this case as someone else and the decision "
                       "stands; the family's caseworker may ask for a challenge (athar claims challenge)")
    return out


def _challenge_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("claim", help="the family's claim on the case (set aside, or on the identification)")
    _by(parser)
    parser.add_argument("--reason", required=True, help="why the reviewers should look again")


@subcommand("claims", "challenge", "ask reviewers to look again at a decided identification, for a family "
            "(its caseworker, with a reason); the decision stands until a reviewer decides",
            arguments=_challenge_arguments, describe=lambda r: describe_challenges(r))
def claims_challenge(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    claim = _get(Claim, options["claim"], "claim")
    if claim.report is None:
        raise UserError(f"claim {claim.pk} names no family's report: nothing to ask for")
    ident = Identification.objects.active().filter(case_id=claim.case_id).first()
    if ident is None:
        raise UserError(f"nothing decided holds case {claim.case_id}: there is nothing to challenge")
    return {"challenge": challenge_dict(challenges.request_challenge(ident, claim.report, by, options["reason"]))}


@subcommand("claims", "told", "record that the family was told (closes a 'tell the family' task)",
            arguments=_one("task", with_reason=False), describe=lambda r: f"task {r['task']} done")
def claims_told(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    try:
        row = notices.mark_told(by, int(options["task"]) if str(options["task"]).isdigit() else -1)
    except LookupError:
        raise UserError(f"no open 'tell the family' task {options['task']!r} of {options['by']!r}") from None
    return {"task": row.pk, "done_at": row.done_at, **task_dict(row)}


@subcommand("claims", "tasks", "the caseworker's open tasks: families to inform, and to tell of a change",
            arguments=_by, describe=lambda r: "\n".join(
                f"task {t['id']} [{t['kind']}] report {t['report']} case {t['case']}: {t['text']}"
                + (f" (reviewer's reason: {t['reason']})" if t["reason"] else "") for t in r["tasks"]) or "no open tasks")
def claims_tasks(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    if not policy.may_keep_tasks(by):
        raise UserError(f"{options['by']!r} is not a caseworker: only caseworkers have tasks")
    return {"tasks": [task_dict(t) for t in notices.open_tasks(by)]}


@subcommand("claims", "withdraw", "withdraw a claim, with a reason", arguments=_one("claim"),
            describe=lambda r: describe_claims(r))
def claims_withdraw(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    claim = claim_rules.withdraw_claim(_get(Claim, options["claim"], "claim"), by, options["reason"])
    return {"claim": claim_dict(claim), **_listing(person=claim.person, case=claim.case)}


def _decision(parser: ArgumentParser) -> None:
    parser.add_argument("--decision", required=True, choices=["approve", "reject"])


@subcommand("claims", "review", "approve or reject an identification (two independent approvals verify it)",
            arguments=_one("identification", extra=_decision), describe=lambda r: describe_claims(r))
def claims_review(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    ident = _get(Identification, options["identification"], "identification")
    row = claim_rules.review(ident, by, options["decision"], options["reason"])
    return {"review": review_dict(row), **_listing(person=ident.person, case=ident.case)}


@subcommand("claims", "reverse-review", "reverse a review, with a reason", arguments=_one("review"),
            describe=lambda r: describe_claims(r))
def claims_reverse_review(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    row = claim_rules.reverse_review(_get(Review, options["review"], "review"), by, options["reason"])
    ident = row.identification
    return {"review": review_dict(row), **_listing(person=ident.person, case=ident.case)}


@subcommand("claims", "withdraw-identification", "withdraw an identification, with a reason",
            arguments=_one("identification"), describe=lambda r: describe_claims(r))
def claims_withdraw_identification(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    ident = claim_rules.withdraw_identification(_get(Identification, options["identification"], "identification"),
                                                by, options["reason"])
    return _listing(person=ident.person, case=ident.case)


@subcommand("claims", "forensic", "record a DNA, dental or other result from outside athar",
            arguments=_forensic_arguments, describe=lambda r: describe_claims(r))
def claims_forensic(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    person, case = find_person(options["person"]), find_case(options["case"])
    row = claim_rules.record_forensic(person, case, options["kind"], options["result"], by, options["reference"])
    return {"forensic_result": row.pk, **_listing(person=person, case=case)}


@subcommand("claims", "inform", "record that a family was told of a verified identification",
            arguments=_one("identification", with_reason=False, extra=_inform_extra),
            describe=lambda r: describe_claims(r))
def claims_inform(options: dict[str, Any]) -> dict[str, Any]:
    return _publication_step("inform", options)


@subcommand("claims", "publish", "publish a verified identification (every family informed and consenting)",
            arguments=_one("identification", with_reason=False), describe=lambda r: describe_claims(r))
def claims_publish(options: dict[str, Any]) -> dict[str, Any]:
    return _publication_step("publish", options)


@subcommand("claims", "unpublish", "take a publication back, with a reason (it stays verified)",
            arguments=_one("identification"), describe=lambda r: describe_claims(r))
def claims_unpublish(options: dict[str, Any]) -> dict[str, Any]:
    return _publication_step("unpublish", options)


def _publication_step(action: str, options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    ident = _get(Identification, options["identification"], "identification")
    if action == "inform":
        day = dt.date.fromisoformat(options["on"]) if options.get("on") else dt.date.today()
        claim_rules.record_family_informed(ident, find_report(options["report"]), by, informed_on=day,
                                           method=options["method"])
    elif action == "publish":
        claim_rules.publish(ident, by)
    else:
        claim_rules.unpublish(ident, by, options["reason"])
    ident.refresh_from_db()
    return {"identification": ident_dict(ident), **_listing(person=ident.person, case=ident.case)}


def _listing(person: MissingPerson | None = None, case: Case | None = None, either: bool = True) -> dict[str, Any]:
    q = Q()
    if person is not None and case is not None and either:
        q = Q(person=person) | Q(case=case)
    else:
        if person is not None:
            q &= Q(person=person)
        if case is not None:
            q &= Q(case=case)
    return {"claims": [claim_dict(c) for c in Claim.objects.filter(q).select_related("by").order_by("id")],
            "identifications": [ident_dict(i) for i in Identification.objects.filter(q).order_by("id")]}


def describe_claims(result: dict[str, Any]) -> str:
    lines = []
    for c in result.get("claims", []):
        state = ("active" if c["active"] else f"set aside ({c['set_aside_reason']})" if c["set_aside_at"]
                 else f"withdrawn ({c['withdrawn_reason']})")
        lines.append(f"claim {c['id']}: person {c['person']} / case {c['case']}: {c['verdict']} ({c['certainty']}), "
                     f"{c['relation'] or c['role']} {c['by']}, {state}")
    for i in result.get("identifications", []):
        block = f", blocked by conflicts {i['blocking_conflicts']}" if i["blocking_conflicts"] else ""
        lines.append(f"identification {i['id']}: person {i['person']} = case {i['case']}: {i['status']}, "
                     f"evidence {i['evidence_level']}, {i['approvals']}/2 approvals{block}")
    return "\n".join(lines) or "no claims"


# --- conflicts ---------------------------------------------------------------------------------
def _all_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--all", action="store_true", help="resolved conflicts too")


def _keep(parser: ArgumentParser) -> None:
    parser.add_argument("--keep", required=True, metavar="CLAIM|none",
                        help="the id of the claim that stands, or 'none': every other claim is set aside")


def _conflict_arguments(keep: bool) -> Callable[[ArgumentParser], None]:
    def arguments(parser: ArgumentParser) -> None:
        parser.add_argument("conflict")
        if keep:
            _keep(parser)
        parser.add_argument("--by", required=True, metavar="LOGIN",
                            help="the reviewer acting: its password (and two-factor code) is read from standard input")
        parser.add_argument("--reason", required=True)

    return arguments


@subcommand("conflicts", "list", "open conflicts (the default); --all for resolved ones too",
            arguments=_all_arguments, describe=lambda r: describe_conflicts(r), default=True)
def conflicts_list(options: dict[str, Any]) -> dict[str, Any]:
    rows = Conflict.objects.all() if options.get("all") else Conflict.objects.filter(resolved_at__isnull=True)
    return {"conflicts": [conflict_dict(c) for c in rows.order_by("id")]}


@subcommand("conflicts", "resolve", "settle a conflict: choose the claim that stands (--keep), with a reason",
            arguments=_conflict_arguments(keep=True), describe=lambda r: describe_conflicts(r))
def conflicts_resolve(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    conflict = _get(Conflict, options["conflict"], "conflict")
    keep = None if options["keep"].strip().lower() == "none" else _get(Claim, options["keep"], "claim")
    return {"conflict": conflict_dict(conflict_rules.resolve(conflict, by, options["reason"], keep=keep))}


@subcommand("conflicts", "reopen", "reverse a resolution (the claims it set aside stand again)",
            arguments=_conflict_arguments(keep=False), describe=lambda r: describe_conflicts(r))
def conflicts_reopen(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    conflict = _get(Conflict, options["conflict"], "conflict")
    return {"conflict": conflict_dict(conflict_rules.reopen(conflict, by, options["reason"]))}


def _decide_challenge_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("challenge")
    choice = parser.add_mutually_exclusive_group(required=True)
    choice.add_argument("--uphold", action="store_true", help="a reversal: the identification goes back to review")
    choice.add_argument("--dismiss", action="store_true", help="the decision stands; the claims are set aside")
    parser.add_argument("--by", required=True, metavar="LOGIN",
                        help="the reviewer acting: its password (and two-factor code) is read from standard input")
    parser.add_argument("--reason", required=True)


@subcommand("conflicts", "challenges", "challenges of decided identifications (open ones; --all for every one)",
            arguments=_all_arguments, describe=lambda r: describe_challenges(r))
def conflicts_challenges(options: dict[str, Any]) -> dict[str, Any]:
    rows = Challenge.objects.all() if options.get("all") else Challenge.objects.filter(status="open")
    return {"challenges": [challenge_dict(c) for c in rows.order_by("id")]}


@subcommand("conflicts", "decide-challenge", "uphold (back to review) or dismiss (the decision stands) a "
            "challenge, with a reason", arguments=_decide_challenge_arguments,
            describe=lambda r: describe_challenges(r))
def conflicts_decide_challenge(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])  # proven first: nothing is looked up for an account that is not
    try:  # the one decision the web and the API take too
        row = services.decide_challenge(int(options["challenge"]) if str(options["challenge"]).isdigit() else -1,
                                        by, bool(options["uphold"]), options["reason"])
    except LookupError:
        raise UserError(f"no challenge {options['challenge']!r}") from None
    return {"challenge": challenge_dict(row), "identification": ident_dict(row.identification)}


def describe_challenges(result: dict[str, Any]) -> str:
    rows = result.get("challenges") or ([result["challenge"]] if "challenge" in result else [])
    return "\n".join(f"challenge {c['id']} of identification {c['identification']} [{c['grounds']}] claims "
                     f"{c['claims']}: {c['status']}" + (f" ({c['decision_reason']})" if c["decision_reason"] else "")
                     for c in rows) or "no open challenges"


def describe_conflicts(result: dict[str, Any]) -> str:
    rows = result.get("conflicts") or ([result["conflict"]] if "conflict" in result else [])
    lines = []
    for c in rows:
        state = "OPEN" if c["open"] else f"resolved by {c['resolved_by']}: {c['resolution']}"
        lines.append(f"conflict {c['id']} [{c['kind']}] person {c['person'] or '—'} case {c['case'] or '—'} "
                     f"claims {c['claims']}: {state}\n    {json.dumps(c['detail'], ensure_ascii=False)}")
    return "\n".join(lines) or "no open conflicts"


# --- worker ------------------------------------------------------------------------------------
def _worker_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--once", action="store_true", help="run every due job, then exit (tests, scripts)")
    parser.add_argument("--poll", type=float, default=5.0, help="seconds between looks at the queue when idle")
    parser.add_argument("--name", default="", help="this worker's name in the job table (default host:pid)")


@command("worker", "Background worker: recompute candidate rankings when reports, cases or archives arrive.",
         arguments=_worker_arguments)
def worker(options: dict[str, Any]) -> dict[str, Any]:
    return run_worker(once=options["once"], poll=options["poll"], name=options["name"] or None)


# --- eval identify, export identification ----------------------------------------------------
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
    cache = Path(options["face_cache"]) if options.get("face_cache") else None
    return evaluate(Path(options["archive_dir"]), Path(options["reports"]), options["truth_column"], cache)


def _export_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("identification", metavar="ID", help="an identification id (athar claims lists them)")
    parser.add_argument("out_dir", metavar="OUT_DIR", help="an empty or new folder")


@subcommand("export", "identification", "A dossier of one identification for a court or commission (facts, "
            "evidence, decisions, reviewers, photo hashes, audit-chain head).", arguments=_export_arguments)
def export_identification_command(options: dict[str, Any]) -> dict[str, Any]:
    ident = Identification.objects.filter(pk=int(options["identification"])).first() \
        if str(options["identification"]).isdigit() else None
    if ident is None:
        raise UserError(f"no identification {options['identification']!r}")
    return export_identification(ident, Path(options["out_dir"]))


def _number_search_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("number", metavar="NUMBER", help="the number the family quotes (Western or Arabic-Indic digits)")
    parser.add_argument("--by", required=True, metavar="LOGIN",
                        help="the acting caseworker (password on the first line of standard input)")


@subcommand("numbers", "search", "Cases carrying a number a family quotes: confirmed in a photo first, then as "
            "recorded by the archive, then read but not yet confirmed.", arguments=_number_search_arguments,
            describe=lambda r: "\n".join([f"{r['count']} cases carry {r['number']}"] + [
                f"  [{c['evidence']}] case {c['case_id']} {c['archive']} / {c['facility']} {c['label']}"
                for c in r["cases"]]))
def numbers_search(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    return search_by_number(by, options["number"])
