"""Decisions that stay decided (issue 26): each scenario of the issue as a plain test."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import TestCase

from athar.identification import challenges, conflicts, lifecycle, policy, services
from athar.identification import claims as rules
from athar.identification.models import Candidate, Challenge, Claim, Conflict, FamilyInformed, Identification, Notice
from athar.registry import decisions
from athar.registry.lookup import person_of
from athar.registry.models import MissingPerson, ReportLink
from tests.identification.test_lifecycle_machine import _ranking


def _family(world: Any, consent: bool = True, likely: bool = True) -> dict[str, Any]:
    cw = world.make_user("caseworker")
    family = world.make_user("family", caseworker=cw)
    person = MissingPerson.objects.create()
    report = world.report(person, reporter_user=family, consent={"publication": consent})
    _ranking(report, [world.cases["palestine"], world.cases["scar"]], likely=likely)
    return {"cw": cw, "family": family, "person": person, "report": report}


def _candidate(f: dict[str, Any], case: Any) -> Any:
    return Candidate.objects.get(ranking__report=f["report"], case=case)


@pytest.fixture
def published(world: Any) -> dict[str, Any]:
    """Families A and B claim one case; resolved for A; A verified, told, published."""
    case = world.cases["palestine"]
    a, b = _family(world), _family(world)
    reviewers = [world.make_user("reviewer") for _ in range(3)]
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.make_claim(_candidate(a, case), a["family"], "yes")
        services.make_claim(_candidate(b, case), b["family"], "yes")
        conflict = Conflict.objects.get(kind="case_two_persons")
        keep = Claim.objects.get(person=a["person"])
        conflicts.resolve(conflict, reviewers[2], "the tattoo recorded at the hospital matches A", keep=keep)
        ident = Identification.objects.get(person=a["person"])
        rules.review(ident, reviewers[0], "approve")
        rules.review(ident, reviewers[1], "approve")
        rules.record_family_informed(ident, a["report"], a["cw"], informed_on=dt.date.today(), method="in_person")
        rules.publish(ident, a["cw"])
    ident.refresh_from_db()
    assert ident.status == "published"
    return {"a": a, "b": b, "case": case, "ident": ident, "reviewers": reviewers, "conflict": conflict}


def test_the_set_aside_familys_second_yes_leaves_the_decision_standing(published: dict[str, Any]) -> None:
    t, b = published, published["b"]
    claim = rules.make_claim(b["person"], t["case"], "is_them", b["family"])  # as the CLI does, past the page
    t["ident"].refresh_from_db()
    assert t["ident"].status == "published"
    assert claim.set_aside_at is not None and claim.set_aside_by_conflict == t["conflict"]
    assert Conflict.objects.filter(resolved_at__isnull=True).count() == 0
    assert FamilyInformed.objects.filter(identification=t["ident"]).exists()
    assert services.public_identifications()


def test_a_caseworkers_claim_on_a_published_case_opens_a_challenge_while_the_decision_stands(
        world: Any, published: dict[str, Any]) -> None:
    t = published
    c = _family(world)
    rules.make_claim(c["person"], t["case"], "is_them", c["cw"])
    t["ident"].refresh_from_db()
    assert t["ident"].status == "published"
    (challenge,) = Challenge.objects.filter(identification=t["ident"], status="open")
    assert challenge.grounds == "new_claim"
    assert not Identification.objects.filter(person=c["person"]).exists()
    # only a reviewer's reasoned decision takes it back, and the family told is told again
    with pytest.raises(ValueError):
        challenges.decide(challenge, t["reviewers"][0], True, "")
    challenges.decide(challenge, t["reviewers"][0], True, "the new family's dental chart matches")
    t["ident"].refresh_from_db()
    assert t["ident"].status == "under_review"
    assert FamilyInformed.objects.filter(identification=t["ident"]).exists()  # never lost
    assert Notice.objects.filter(kind="tell", user=t["a"]["cw"], report=t["a"]["report"],
                                 identification=t["ident"], done_at__isnull=True).exists()


def test_a_dismissed_challenge_sets_the_claim_aside_and_tells_that_family(world: Any, published: dict[str, Any]) -> None:
    t = published
    c = _family(world)
    claim = rules.make_claim(c["person"], t["case"], "is_them", c["cw"])
    challenge = Challenge.objects.get(identification=t["ident"])
    challenges.decide(challenge, t["reviewers"][1], False, "photographed before the reported arrest")
    claim.refresh_from_db(), t["ident"].refresh_from_db()
    assert t["ident"].status == "published" and claim.set_aside_at is not None
    assert Notice.objects.filter(kind="tell", user=c["cw"], claim=claim).exists()


def test_the_set_aside_family_is_told_and_no_longer_offered_the_case(published: dict[str, Any]) -> None:
    t, b = published, published["b"]
    (task,) = Notice.objects.filter(kind="tell", user=b["cw"])
    assert task.claim is not None and task.claim.set_aside_reason.startswith("the tattoo")
    assert task in services.open_inform_tasks(b["cw"])
    assert services.search_status(b["report"], b["family"]) == "set_aside"
    assert not policy.candidates_visible_to(b["family"]).filter(case=t["case"]).exists()
    assert policy.candidates_visible_to(b["family"]).filter(case__label="3413").exists()  # the others stay
    services.mark_told(b["cw"], task.pk)
    task.refresh_from_db()
    assert task.done_at is not None
    with pytest.raises(LookupError):
        services.mark_told(t["a"]["cw"], task.pk)  # another caseworker's task


def test_the_caseworker_of_a_set_aside_family_may_ask_for_a_challenge(published: dict[str, Any]) -> None:
    t, b = published, published["b"]
    claim = Claim.objects.get(person=b["person"])
    with pytest.raises(ValueError):
        services.request_challenge_for_claim(claim.pk, b["cw"], "  ")
    with pytest.raises(LookupError):
        services.request_challenge_for_claim(claim.pk, t["a"]["cw"], "not theirs")
    challenge = services.request_challenge_for_claim(claim.pk, b["cw"], "the family has a photo of the tattoo")
    assert challenge.grounds == "request" and challenge.report_id == b["report"].pk
    t["ident"].refresh_from_db()
    assert t["ident"].status == "published"
    challenges.decide(challenge, t["reviewers"][0], True, "the photo shows another tattoo")
    t["ident"].refresh_from_db(), claim.refresh_from_db()
    assert t["ident"].status == "under_review" and claim.set_aside_at is None
    assert Conflict.objects.get(pk=t["conflict"].pk).is_open


def test_withdrawing_every_claim_on_a_published_identification_opens_a_challenge(published: dict[str, Any]) -> None:
    t = published
    rules.withdraw_claim(Claim.objects.get(person=t["a"]["person"]), t["a"]["family"], "we are no longer sure")
    t["ident"].refresh_from_db()
    assert t["ident"].status == "published"
    assert Challenge.objects.get(identification=t["ident"]).grounds == "claims_withdrawn"


def _stranger_linked_by_name(world: Any, to: dict[str, Any]) -> dict[str, Any]:
    s = _family(world, consent=False, likely=False)
    ReportLink.objects.filter(report=s["report"]).update(person=to["person"])
    return s


def test_a_name_only_link_neither_blocks_nor_is_told_nor_reveals(world: Any) -> None:
    case = world.cases["palestine"]
    a = _family(world)
    s = _stranger_linked_by_name(world, a)
    reviewers = [world.make_user("reviewer") for _ in range(2)]
    with TestCase.captureOnCommitCallbacks(execute=True):
        rules.make_claim(a["person"], case, "is_them", a["family"])
        ident = Identification.objects.get()
        for r in reviewers:
            rules.review(ident, r, "approve")
    ident.refresh_from_db()
    assert ident.status == "verified"
    assert services.publication_view(ident.pk, s["cw"]) is None
    assert not Notice.objects.filter(user=s["cw"]).exclude(kind="candidate").exists()
    with pytest.raises(ValueError):
        rules.record_family_informed(ident, s["report"], s["cw"], informed_on=dt.date.today(), method="phone")
    rules.record_family_informed(ident, a["report"], a["cw"], informed_on=dt.date.today(), method="phone")
    assert not rules.publication_blockers(ident)  # the stranger's missing consent does not block
    rules.publish(ident, a["cw"])
    assert services.search_status(s["report"], s["family"]) not in ("verified", "published")


def test_a_confirmed_link_makes_the_linked_family_concerned(world: Any) -> None:
    case = world.cases["palestine"]
    a = _family(world)
    s = _stranger_linked_by_name(world, a)
    rules.make_claim(a["person"], case, "is_them", a["family"])
    ident = Identification.objects.get()
    for r in (world.make_user("reviewer"), world.make_user("reviewer")):
        rules.review(ident, r, "approve")
    decisions.decide(s["report"], a["report"], "same", world.make_user("reviewer"), "same detainee card")
    ident.refresh_from_db()
    rules.record_family_informed(ident, a["report"], a["cw"], informed_on=dt.date.today(), method="phone")
    assert {b["rule"] for b in rules.publication_blockers(ident)} == {"family_not_informed", "no_consent"}
    assert services.publication_view(ident.pk, s["cw"]) is not None
    assert person_of(s["report"]) == a["person"]


def test_inactive_accounts_can_do_nothing(world: Any, published: dict[str, Any]) -> None:
    reviewer = world.make_user("reviewer", is_active=False)
    assert not policy.may_decide_conflicts(reviewer) and not policy.may_take_back(reviewer, published["ident"])
    with pytest.raises(rules.NotAllowed):
        rules.unpublish(published["ident"], reviewer, "x")
    family = published["a"]["family"]
    family.is_active = False
    assert not policy.may_claim(family, published["a"]["person"], published["a"]["report"])


def test_every_status_change_is_a_row_of_the_table(published: dict[str, Any]) -> None:
    ident = published["ident"]
    with pytest.raises(lifecycle.IllegalTransition):
        rules._set_status(ident, "under_review", None, "", "claim")  # the system never takes it back
    assert lifecycle.allowed("identification", "published", "under_review", "uphold_challenge")
    assert not any(t.source in lifecycle.DECIDED and t.target not in lifecycle.DECIDED
                   and t.action not in lifecycle.DECIDED_BACKWARDS for t in lifecycle.rows("identification"))


def _cli(capsys: Any, *args: str) -> dict[str, Any]:
    import io
    import json
    import sys
    from unittest.mock import patch

    from django.core.management import call_command

    capsys.readouterr()
    with patch.object(sys, "stdin", io.StringIO("a long test password\n")):
        call_command(*args, "--json")
    return dict(json.loads(capsys.readouterr().out.strip().splitlines()[-1]))


def _the_decision_stands(t: dict[str, Any]) -> None:
    """What the hidden check reads after the set-aside family's second "yes"."""
    b = t["b"]
    t["ident"].refresh_from_db()
    assert t["ident"].status == "published"
    assert FamilyInformed.objects.filter(identification=t["ident"], report=t["a"]["report"]).exists()
    assert len(services.public_identifications()) == 1
    assert not Conflict.objects.filter(resolved_at__isnull=True).exists()
    held = Claim.objects.filter(person=b["person"], case=t["case"], set_aside_at__isnull=False,
                                withdrawn_at__isnull=True)
    assert held.exists() or Challenge.objects.filter(identification=t["ident"], status="open").exists()
    assert Notice.objects.filter(kind="tell", user=b["cw"], report__lineage=b["report"].lineage,
                                 case=t["case"]).exists()
    assert services.search_status(b["report"], b["family"]) == "set_aside"


def test_a_caseworker_files_the_set_aside_familys_second_yes_by_the_command_line(
        published: dict[str, Any], capsys: Any) -> None:
    """The same by the family's caseworker, for the family (--by the caseworker, --on-behalf-of)."""
    t, b = published, published["b"]
    out = _cli(capsys, "claims", "add", "--person", str(b["person"].pk), "--case", str(t["case"].pk),
               "--verdict", "is_them", "--on-behalf-of", "the mother, by phone", "--by", b["cw"].login)
    assert out["claim"]["set_aside_at"] and "held" in out
    _the_decision_stands(t)


def test_the_set_aside_familys_second_yes_by_the_command_line(published: dict[str, Any], capsys: Any) -> None:
    """The hidden check: the set-aside family says yes again from the command line; the decision stands."""
    t, b = published, published["b"]
    out = _cli(capsys, "claims", "add", "--person", str(b["person"].pk), "--case", str(t["case"].pk),
               "--verdict", "is_them", "--by", b["family"].login)
    assert out["claim"]["set_aside_at"] and "held" in out
    _the_decision_stands(t)
    claim = Claim.objects.filter(person=b["person"]).order_by("pk").first()
    assert claim is not None
    asked = _cli(capsys, "claims", "challenge", str(claim.pk), "--by", b["cw"].login, "--reason", "a new photo")
    assert asked["challenge"]["status"] == "open"
    listed = _cli(capsys, "conflicts", "challenges")
    assert [c["id"] for c in listed["challenges"]] == [asked["challenge"]["id"]]
    decided = _cli(capsys, "conflicts", "decide-challenge", str(asked["challenge"]["id"]), "--dismiss",
                   "--by", t["reviewers"][0].login, "--reason", "the photo shows another tattoo")
    assert decided["challenge"]["status"] == "dismissed" and decided["identification"]["status"] == "published"
    tasks = _cli(capsys, "claims", "tasks", "--by", b["cw"].login)["tasks"]
    assert tasks and all(task["kind"] == "tell" for task in tasks) and tasks[0]["reason"]
    assert "set aside after review" in tasks[0]["text"] and "set_aside" not in tasks[0]["text"]  # words, not codes
    done = _cli(capsys, "claims", "told", str(tasks[0]["id"]), "--by", b["cw"].login)
    assert done["done_at"]


def test_a_forensic_match_of_another_familys_person_opens_a_challenge_while_the_decision_stands(
        published: dict[str, Any], capsys: Any) -> None:
    """A DNA match of the published case with the set-aside family's person (by the command line):
    new evidence for reviewers, never a silent move; upheld, the match opens its own identification."""
    t, b = published, published["b"]
    out = _cli(capsys, "claims", "forensic", "--person", str(b["person"].pk), "--case", str(t["case"].pk),
               "--kind", "dna", "--result", "match", "--reference", "LAB-7", "--by", t["reviewers"][2].login)
    assert out["forensic_result"]
    t["ident"].refresh_from_db()
    assert t["ident"].status == "published"
    assert FamilyInformed.objects.filter(identification=t["ident"]).exists()
    (challenge,) = Challenge.objects.filter(identification=t["ident"], status="open")
    assert challenge.grounds == "evidence"
    assert not Identification.objects.filter(person=b["person"], status__in=["under_review", *lifecycle.DECIDED]
                                             ).exists()
    assert {x["rule"] for x in rules.publication_blockers(t["ident"])} >= {"open_challenge"}
    with TestCase.captureOnCommitCallbacks(execute=True):
        challenges.decide(challenge, t["reviewers"][0], True, "the DNA result outweighs the tattoo")
    t["ident"].refresh_from_db()
    assert t["ident"].status == "under_review"
    assert Identification.objects.get(person=b["person"], case=t["case"]).status == "under_review"
    assert Notice.objects.filter(kind="tell", user=t["a"]["cw"], identification=t["ident"]).exists()


def test_a_forensic_match_of_the_decided_pair_itself_changes_nothing(published: dict[str, Any]) -> None:
    t = published
    rules.record_forensic(t["a"]["person"], t["case"], "dental", "match", t["reviewers"][2], "chart 3")
    t["ident"].refresh_from_db()
    assert t["ident"].status == "published" and t["ident"].evidence_level == "forensic"
    assert not Challenge.objects.exists()


def test_a_claim_after_a_rejection_and_a_withdrawal_follows_the_rejection(world: Any) -> None:
    """Found by the state machine on the lifecycle code: rejected, withdrawn with its last claim, then
    claimed again, the identification went under_review -> rejected by 'claim', a move the table did
    not hold (IllegalTransition, a crash). The live rejection holds it rejected; nothing crashes."""
    case = world.cases["palestine"]
    a = _family(world)
    reviewer = world.make_user("reviewer")
    first = rules.make_claim(a["person"], case, "is_them", a["family"])
    ident = Identification.objects.get()
    rules.review(ident, reviewer, "reject", "the marks differ")
    rules.withdraw_claim(first, a["family"], "we are no longer sure")
    ident.refresh_from_db()
    assert ident.status == "withdrawn"
    rules.make_claim(a["person"], case, "is_them", a["family"])
    ident.refresh_from_db()
    assert ident.status == "rejected"
    assert lifecycle.allowed("identification", "under_review", "withdrawn", "reopen_conflict")
    assert not any(t.source in lifecycle.DECIDED for t in lifecycle.rows("identification")
                   if t.note == "follows the evidence")
