"""What ``athar candidates``, ``athar claims`` and ``athar conflicts`` do (the management commands
in athar/core/management/commands are thin wrappers)."""

from __future__ import annotations

import datetime as dt
import json
from argparse import SUPPRESS, ArgumentParser
from typing import Any

from athar.accounts import second_factor
from athar.accounts.models import User
from athar.archive.models import Case
from athar.audit.chain import record
from athar.identification import claims as claim_rules
from athar.identification import conflicts as conflict_rules
from athar.identification.models import Claim, Conflict, ForensicResult, Identification, Review
from athar.identification.ranking import (
    current_ranking, rank_and_store, ranking_result, subject_for_person, subject_for_report,
)
from athar.registry.lookup import find_report
from athar.registry.models import MissingPerson


def find_person(value: str) -> MissingPerson:
    text = str(value).strip()
    person = MissingPerson.objects.filter(pk=int(text)).first() if text.isdigit() else \
        MissingPerson.objects.filter(public_id=text).first() if len(text) == 36 else None
    if person is None:
        raise ValueError(f"no missing person {text!r}")
    return person


def find_case(value: str) -> Case:
    text = str(value).strip()
    case = Case.objects.filter(pk=int(text)).first() if text.isdigit() else \
        Case.objects.filter(public_id=text).first() if len(text) == 36 else None
    if case is None:
        raise ValueError(f"no case {text!r} (give its id or public id)")
    return case


def find_user(login: str) -> User:
    user = User.objects.by_login(login)
    if user is None or not user.is_active:
        raise ValueError(f"no active account {login!r}")
    return user


def acting_user(login: str) -> User:
    """The account a decision is recorded for, proven by its own credentials.

    Whoever runs the command cannot act as another reviewer: the account's password is read from
    the first line of standard input (never an argument), and, where two-factor sign-in is required
    for it, a current code from the second (``athar.accounts.second_factor``). Both outcomes are
    audited."""
    user = find_user(login)
    password, code = second_factor.read_identity()
    try:
        if not password:
            raise PermissionError("no password was given")
        second_factor.confirm_identity(user, password, code, via="cli")
    except PermissionError as exc:
        record("cli.actor_refused", object_type="user", object_id=user.pk, actor="cli", data={"via": "cli"})
        raise ValueError(f"the credentials of {login!r} were not accepted ({exc}): give the account's password on "
                         "the first line of standard input (and a current two-factor code on the second)") from None
    record("cli.actor_authenticated", object_type="user", object_id=user.pk, actor=f"user:{user.pk}",
           data={"via": "cli"})
    return user


def _get(model: Any, pk: Any, what: str) -> Any:
    row = model.objects.filter(pk=int(pk)).first() if str(pk).isdigit() else None
    if row is None:
        raise ValueError(f"no {what} {pk!r}")
    return row


# --- candidates --------------------------------------------------------------------------------
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
def claims_arguments(parser: ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="action", metavar="ACTION")
    ls = subs.add_parser("list", help="claims and identifications (the default)")
    for p in (parser, ls):
        p.add_argument("--person", help="only this missing person")
        p.add_argument("--case", help="only this case")
    add = subs.add_parser("add", help="record 'this is him/her', 'not him/her' or 'not sure'")
    add.add_argument("--person", required=True)
    add.add_argument("--case", required=True)
    add.add_argument("--verdict", required=True, choices=["is_them", "not_them", "not_sure"])
    add.add_argument("--certainty", default="probable", choices=["certain", "probable", "unsure"])
    add.add_argument("--relation", default="", help="relation to the person (brother, mother …)")
    add.add_argument("--on-behalf-of", default="", help="a caseworker recording a relative's word: who")
    add.add_argument("--report", default="", help="the report on whose behalf the claim is made")
    add.add_argument("--by", required=True, metavar="LOGIN")
    wd = subs.add_parser("withdraw", help="withdraw a claim, with a reason")
    wd.add_argument("claim")
    rv = subs.add_parser("review", help="approve or reject an identification (two independent approvals publish)")
    rv.add_argument("identification")
    rv.add_argument("--decision", required=True, choices=["approve", "reject"])
    rr = subs.add_parser("reverse-review", help="reverse a review, with a reason")
    rr.add_argument("review")
    wi = subs.add_parser("withdraw-identification", help="withdraw an identification, with a reason")
    wi.add_argument("identification")
    fo = subs.add_parser("forensic", help="record a DNA, dental or other result from outside athar")
    fo.add_argument("--person", required=True)
    fo.add_argument("--case", required=True)
    fo.add_argument("--kind", required=True, choices=["dna", "dental", "fingerprint", "other"])
    fo.add_argument("--result", required=True, choices=["match", "exclusion", "inconclusive"])
    fo.add_argument("--reference", default="")
    inf = subs.add_parser("inform", help="record that a family was told of a verified identification")
    inf.add_argument("identification")
    inf.add_argument("--report", required=True, help="the family's report (its id or report id)")
    inf.add_argument("--method", required=True, choices=["in_person", "phone"])
    inf.add_argument("--on", default="", metavar="YYYY-MM-DD", help="the day the family was told (default today)")
    pub = subs.add_parser("publish", help="publish a verified identification (every family informed and consenting)")
    pub.add_argument("identification")
    unp = subs.add_parser("unpublish", help="take a publication back, with a reason (it stays verified)")
    unp.add_argument("identification")
    for p in (wd, rv, rr, wi, fo, inf, pub, unp):
        p.add_argument("--by", required=True, metavar="LOGIN",
                       help="the account acting: its password (and two-factor code) is read from standard input")
    for p in (wd, rv, rr, wi, unp):
        p.add_argument("--reason", default="")
    _json_everywhere(ls, add, wd, rv, rr, wi, fo, inf, pub, unp)


def _json_everywhere(*parsers: ArgumentParser) -> None:
    """``--json`` also after an action's arguments (without overriding one given before it)."""
    for p in parsers:
        p.add_argument("--json", action="store_true", default=SUPPRESS,
                       help="print the result as one JSON object (last line)")


def claims(options: dict[str, Any]) -> dict[str, Any]:
    action = options.get("action") or "list"
    if action == "add":
        report = find_report(options["report"]) if options.get("report") else None
        claim = claim_rules.make_claim(
            find_person(options["person"]), find_case(options["case"]), options["verdict"], acting_user(options["by"]),
            certainty=options["certainty"], relation=options["relation"], on_behalf_of=options["on_behalf_of"],
            report=report)
        return {"claim": claim_dict(claim), **_listing(person=claim.person, case=claim.case)}
    by = acting_user(options["by"]) if options.get("by") else None
    if action == "withdraw":
        claim = claim_rules.withdraw_claim(_get(Claim, options["claim"], "claim"), by, options["reason"])
        return {"claim": claim_dict(claim), **_listing(person=claim.person, case=claim.case)}
    if action == "review":
        ident = _get(Identification, options["identification"], "identification")
        row = claim_rules.review(ident, by, options["decision"], options["reason"])
        return {"review": review_dict(row), **_listing(person=ident.person, case=ident.case)}
    if action == "reverse-review":
        row = claim_rules.reverse_review(_get(Review, options["review"], "review"), by, options["reason"])
        ident = row.identification
        return {"review": review_dict(row), **_listing(person=ident.person, case=ident.case)}
    if action == "withdraw-identification":
        ident = claim_rules.withdraw_identification(_get(Identification, options["identification"], "identification"),
                                                    by, options["reason"])
        return _listing(person=ident.person, case=ident.case)
    if action in ("inform", "publish", "unpublish"):
        return _publication_step(action, _get(Identification, options["identification"], "identification"), by, options)
    if action == "forensic":
        person, case = find_person(options["person"]), find_case(options["case"])
        row = claim_rules.record_forensic(person, case, options["kind"], options["result"], by, options["reference"])
        return {"forensic_result": row.pk, **_listing(person=person, case=case)}
    person = find_person(options["person"]) if options.get("person") else None
    case = find_case(options["case"]) if options.get("case") else None
    return _listing(person=person, case=case, either=False)


def _publication_step(action: str, ident: Identification, by: Any, options: dict[str, Any]) -> dict[str, Any]:
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
    from django.db.models import Q

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


def claim_dict(c: Claim) -> dict[str, Any]:
    return {"id": c.pk, "person": c.person_id, "case": c.case_id, "verdict": c.verdict, "certainty": c.certainty,
            "relation": c.relation, "by": f"user:{c.by_id}", "role": c.by.role, "on_behalf_of": c.on_behalf_of,
            "report": c.report_id, "at": c.created_at, "active": c.active, "withdrawn_at": c.withdrawn_at,
            "withdrawn_reason": c.withdrawn_reason, "set_aside_at": c.set_aside_at,
            "set_aside_reason": c.set_aside_reason}


def review_dict(r: Review) -> dict[str, Any]:
    return {"id": r.pk, "identification": r.identification_id, "reviewer": f"user:{r.reviewer_id}",
            "decision": r.decision, "reason": r.reason, "at": r.created_at, "reversed_at": r.reversed_at,
            "reversed_reason": r.reversed_reason}


def ident_dict(i: Identification) -> dict[str, Any]:
    return {"id": i.pk, "person": i.person_id, "case": i.case_id, "status": i.status,
            "evidence_level": i.evidence_level, "published_at": i.published_at,
            "approvals": len(claim_rules.approvals(i)),
            "blocking_conflicts": [c.pk for c in claim_rules.blocking_conflicts(i)],
            "families_informed": sorted(i.informed.values_list("report_id", flat=True)),
            "publication_blockers": claim_rules.publication_blockers(i) if i.status == "verified" else [],
            "reviews": [review_dict(r) for r in i.reviews.order_by("id")]}


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
def conflicts_arguments(parser: ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="action", metavar="ACTION")
    ls = subs.add_parser("list", help="open conflicts (the default); --all for resolved ones too")
    for p in (parser, ls):
        p.add_argument("--all", action="store_true", help="resolved conflicts too")
    for name, text in (("resolve", "settle a conflict: choose the claim that stands (--keep), with a reason"),
                       ("reopen", "reverse a resolution (the claims it set aside stand again)")):
        p = subs.add_parser(name, help=text)
        p.add_argument("conflict")
        if name == "resolve":
            p.add_argument("--keep", required=True, metavar="CLAIM|none",
                           help="the id of the claim that stands, or 'none': every other claim is set aside")
        p.add_argument("--by", required=True, metavar="LOGIN",
                       help="the reviewer acting: its password (and two-factor code) is read from standard input")
        p.add_argument("--reason", required=True)
        _json_everywhere(p)
    _json_everywhere(ls)


def conflicts(options: dict[str, Any]) -> dict[str, Any]:
    action = options.get("action") or "list"
    if action in ("resolve", "reopen"):
        conflict = _get(Conflict, options["conflict"], "conflict")
        by = acting_user(options["by"])
        if action == "resolve":
            keep = None if options["keep"].strip().lower() == "none" else _get(Claim, options["keep"], "claim")
            conflict = conflict_rules.resolve(conflict, by, options["reason"], keep=keep)
        else:
            conflict = conflict_rules.reopen(conflict, by, options["reason"])
        return {"conflict": conflict_dict(conflict)}
    rows = Conflict.objects.all() if options.get("all") else Conflict.objects.filter(resolved_at__isnull=True)
    return {"conflicts": [conflict_dict(c) for c in rows.order_by("id")]}


def conflict_dict(c: Conflict) -> dict[str, Any]:
    return {"id": c.pk, "kind": c.kind, "person": c.person_id, "case": c.case_id,
            "claims": sorted(c.claims.values_list("id", flat=True)), "detail": c.detail, "opened_at": c.opened_at,
            "open": c.is_open, "resolved_at": c.resolved_at,
            "resolved_by": f"user:{c.resolved_by_id}" if c.resolved_by_id else None, "resolution": c.resolution,
            "kept_claim": c.kept_claim_id,
            "set_aside_claims": sorted(c.set_aside_claims.values_list("id", flat=True))}


def describe_conflicts(result: dict[str, Any]) -> str:
    rows = result.get("conflicts") or ([result["conflict"]] if "conflict" in result else [])
    lines = []
    for c in rows:
        state = "OPEN" if c["open"] else f"resolved by {c['resolved_by']}: {c['resolution']}"
        lines.append(f"conflict {c['id']} [{c['kind']}] person {c['person'] or '—'} case {c['case'] or '—'} "
                     f"claims {c['claims']}: {state}\n    {json.dumps(c['detail'], ensure_ascii=False)}")
    return "\n".join(lines) or "no open conflicts"
