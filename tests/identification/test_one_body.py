"""One body, one person: the invariant holds in the database, under concurrency, on SQLite and
PostgreSQL, and whichever way a decision arrives (rules, command line)."""

from __future__ import annotations

import datetime as dt
import io
import sys
from collections.abc import Callable
from typing import Any
from unittest.mock import patch

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction

from athar.identification import claims as rules
from athar.identification import conflicts
from athar.identification.models import Claim, Conflict, Identification, Review
from tests.concurrency import in_threads
from tests.identification.conftest import World, _case

PASSWORD = "a long test password"


def _two_families_one_case(world: Any) -> dict[str, Any]:
    cw1, cw2 = world.make_user("caseworker"), world.make_user("caseworker")
    f1 = world.make_user("family", caseworker=cw1)
    f2 = world.make_user("family", caseworker=cw2)
    p1, p2 = world.person(reporter=f1), world.person(reporter=f2)
    case = world.cases["palestine"]
    c1 = rules.make_claim(p1, case, "is_them", f1)
    c2 = rules.make_claim(p2, case, "is_them", f2)
    return {"f1": f1, "f2": f2, "cw1": cw1, "cw2": cw2, "p1": p1, "p2": p2, "case": case, "c1": c1, "c2": c2,
            "r1": world.make_user("reviewer"), "r2": world.make_user("reviewer"), "r3": world.make_user("reviewer")}


def _inform(ident: Identification, person: Any, caseworker: Any) -> None:
    from athar.registry.lookup import reports_of

    for report in reports_of(person):
        report.consent = {"publication": True}
        report.save(update_fields=["consent"])
        rules.record_family_informed(ident, report, caseworker, informed_on=dt.date.today(), method="phone")


def test_two_families_one_body_resolving_picks_one_and_the_other_can_never_be_published(world: Any) -> None:
    t = _two_families_one_case(world)
    (conflict,) = Conflict.objects.filter(kind="case_two_persons")
    i1 = Identification.objects.get(person=t["p1"])
    i2 = Identification.objects.get(person=t["p2"])
    for ident in (i1, i2):
        rules.review(ident, t["r1"], "approve")
        rules.review(ident, t["r2"], "approve")
    i1.refresh_from_db(), i2.refresh_from_db()
    assert i1.status == i2.status == "under_review"  # the open conflict blocks both
    with pytest.raises(TypeError):
        conflicts.resolve(conflict, t["r3"], "a note is not a decision")  # type: ignore[call-arg]
    conflicts.resolve(conflict, t["r3"], "the tattoo recorded at the hospital matches family 1's report", keep=t["c1"])
    i1.refresh_from_db(), i2.refresh_from_db()
    t["c2"].refresh_from_db()
    assert i1.status == "verified" and i2.status == "set_aside" and t["c2"].set_aside_at is not None
    assert t["c2"].set_aside_by == t["r3"] and t["c2"].set_aside_by_conflict == conflict
    _inform(i1, t["p1"], t["cw1"])
    with pytest.raises(ValueError):
        rules.record_family_informed(i2, t["p2"].links.get().report, t["cw2"], informed_on=dt.date.today(),
                                     method="phone")
    with pytest.raises(ValueError):
        rules.review(i2, t["r3"], "approve")  # nothing to review: it was set aside
    with pytest.raises((ValueError, rules.NotAllowed)):
        rules.publish(i2, t["cw2"])
    rules.publish(i1, t["cw1"])
    i1.refresh_from_db(), i2.refresh_from_db()
    assert (i1.status, i2.status) == ("published", "set_aside")
    assert Identification.objects.filter(case=t["case"], status__in=("verified", "published")).count() == 1


def test_the_database_refuses_a_second_active_identification_of_one_case(world: Any) -> None:
    """The constraint, not the code path: even a direct update cannot make two."""
    t = _two_families_one_case(world)
    Identification.objects.filter(person=t["p1"]).update(status="verified")
    with pytest.raises(IntegrityError), transaction.atomic():
        Identification.objects.filter(person=t["p2"]).update(status="published", published_at=dt.datetime.now(dt.UTC))
    with pytest.raises(IntegrityError), transaction.atomic():
        Identification.objects.filter(person=t["p2"]).update(status="published")  # and never without a date


def test_one_live_review_per_reviewer_in_the_database(world: Any) -> None:
    t = _two_families_one_case(world)
    ident = Identification.objects.get(person=t["p1"])
    Review.objects.create(identification=ident, reviewer=t["r1"], decision="approve")
    with pytest.raises(IntegrityError), transaction.atomic():
        Review.objects.create(identification=ident, reviewer=t["r1"], decision="approve")


def test_reopening_the_conflict_brings_the_set_aside_claim_back(world: Any) -> None:
    t = _two_families_one_case(world)
    conflict = Conflict.objects.get(kind="case_two_persons")
    conflicts.resolve(conflict, t["r3"], "dental record", keep=t["c1"])
    conflicts.reopen(conflict, t["r3"], "the dental record was of another person")
    t["c2"].refresh_from_db()
    assert t["c2"].set_aside_at is None and Identification.objects.get(person=t["p2"]).status == "under_review"


def test_resolving_with_none_sets_every_claim_aside(world: Any) -> None:
    t = _two_families_one_case(world)
    conflict = Conflict.objects.get(kind="case_two_persons")
    conflicts.resolve(conflict, t["r3"], "neither family's description fits", keep=None)
    assert set(Identification.objects.values_list("status", flat=True)) == {"set_aside"}
    conflicts.reopen(conflict, t["r3"], "new evidence")
    stranger = Claim.objects.create(person=t["p1"], case=world.cases["scar"], verdict="is_them", by=t["f1"])
    with pytest.raises(ValueError, match="not an open claim"):
        conflicts.resolve(conflict, t["r3"], "x", keep=stranger)


def test_the_command_line_cannot_publish_a_set_aside_claim(world: Any, capsys: Any) -> None:
    t = _two_families_one_case(world)
    conflict = Conflict.objects.get(kind="case_two_persons")
    conflicts.resolve(conflict, t["r3"], "dental record", keep=t["c1"])
    i2 = Identification.objects.get(person=t["p2"])
    with patch.object(sys, "stdin", io.StringIO(PASSWORD + "\n")), pytest.raises(SystemExit):
        call_command("claims", "publish", str(i2.pk), "--by", t["cw2"].login, "--json")
    assert Identification.objects.get(pk=i2.pk).status == "set_aside"


# ---- under concurrency (real transactions, several connections) -----------------------------------

@pytest.fixture
def concurrent_world(transactional_db: None, make_user: Callable[..., Any]) -> Any:
    from athar.archive.facility_store import load_starting_table
    from athar.archive.models import Archive
    from athar.registry.models import LinkageRun

    load_starting_table()
    archive = Archive.objects.create(name="concurrency archive")
    cases = {"palestine": _case(archive, "215", "3412", sex="M")}
    run = LinkageRun.objects.create(status="done", is_current=True, engine="test", algorithm="test",
                                    algorithm_version="1")
    return World(cases, make_user, run)


def test_concurrent_approvals_by_one_reviewer_leave_one_row(concurrent_world: Any) -> None:
    world = concurrent_world
    family = world.make_user("family")
    person = world.person(reporter=family)
    rules.make_claim(person, world.cases["palestine"], "is_them", family)
    ident = Identification.objects.get()
    reviewer = world.make_user("reviewer")
    outcomes = in_threads(6, lambda i: rules.review(Identification.objects.get(pk=ident.pk), reviewer, "approve"))
    assert Review.objects.filter(identification=ident, reviewer=reviewer, reversed_at__isnull=True).count() == 1
    assert sum(isinstance(o, Review) for o in outcomes) == 1
    assert Identification.objects.get(pk=ident.pk).status == "under_review"  # one person is not two reviewers


def test_concurrent_verifications_of_two_identifications_of_one_case_leave_one(concurrent_world: Any) -> None:
    """Even if the conflict was wrongly lifted, the last approvals of two claims on one body,
    racing, make one active identification: the database holds the line."""
    world = concurrent_world
    case = world.cases["palestine"]
    reviewers = [world.make_user("reviewer") for _ in range(2)]
    idents = []
    for _ in range(2):
        family = world.make_user("family")
        person = world.person(reporter=family)
        rules.make_claim(person, case, "is_them", family)
        ident = Identification.objects.get(person=person)
        rules.review(ident, reviewers[0], "approve")
        idents.append(ident)
    Conflict.objects.all().delete()  # a bug elsewhere: nothing blocks any more
    in_threads(2, lambda i: rules.review(Identification.objects.get(pk=idents[i].pk), reviewers[1], "approve"))
    statuses = sorted(Identification.objects.filter(case=case).values_list("status", flat=True))
    assert statuses.count("verified") == 1, statuses


def test_concurrent_publications_leave_one(concurrent_world: Any) -> None:
    world = concurrent_world
    case = world.cases["palestine"]
    cw = world.make_user("caseworker")
    family = world.make_user("family", caseworker=cw)
    person = world.person(reporter=family, consent={"publication": True})
    rules.make_claim(person, case, "is_them", family)
    ident = Identification.objects.get()
    for _ in range(2):
        rules.review(ident, world.make_user("reviewer"), "approve")
    ident.refresh_from_db()
    rules.record_family_informed(ident, person.links.get().report, cw, informed_on=dt.date.today(), method="phone")
    outcomes = in_threads(4, lambda i: rules.publish(Identification.objects.get(pk=ident.pk), cw))
    assert sum(isinstance(o, Identification) for o in outcomes) == 1, outcomes
    from athar.audit.models import AuditEvent

    assert AuditEvent.objects.filter(action="identification.published").count() == 1


def test_each_report_is_ranked_on_its_own_evidence(world: Any) -> None:
    """The worker ranks a person (for reviewers) and each of its reports alone (for its family):
    a report's ranking never quotes another family's report."""
    from athar.identification.models import Ranking
    from athar.identification.ranking import rank_with_reports, subject_for_person

    family = world.make_user("family")
    person = world.person(reporter=family, distinguishing_marks="tattoo of a bird on the left forearm",
                          detainee_number="3412")
    other = world.report(person, reporter_user=world.make_user("family"), distinguishing_marks="",
                         detainee_number="")
    rank_with_reports(subject_for_person(person))
    mine = person.links.exclude(report=other).get().report
    assert Ranking.objects.filter(person=person, is_current=True).count() == 1
    own = Ranking.objects.get(report=other, person__isnull=True, is_current=True)
    text = str([c.reasons for c in own.candidates.all()])
    assert "bird" not in text and "reported 3412" not in text
    staff = str([c.reasons for c in Ranking.objects.get(person=person, is_current=True).candidates.all()])
    assert "bird" in staff or "reported 3412" in staff  # the person's ranking uses every report (reviewers only)
    assert Ranking.objects.filter(report=mine, person__isnull=True, is_current=True).exists()
