"""A family that changes its report (a new version) keeps what it answered and what it was told; the
consent that counts is the one in the report as the family last wrote it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from athar.identification import claims as rules
from athar.identification import policy, services
from athar.identification.models import Identification
from athar.identification.ranking import claimed_cases, subject_for_report
from athar.registry.filing import amend_report, draft_from_report
from athar.registry.models import Report, ReportLink
from tests.identification.conftest import World
from tests.web.factories import make_candidate


def _amend(report: Report, user: Any, **changes: Any) -> Report:
    return amend_report(report, {**draft_from_report(report), **changes}, user)


def test_an_answer_outlives_an_edit_of_the_report(world: World) -> None:
    caseworker = world.make_user("caseworker")
    family = world.make_user("family", caseworker=caseworker)
    report = world.report(reporter_user=family)
    case = world.cases["scar"]
    claim = services.make_claim(make_candidate(report, case, linked=False), family, "no")
    new = _amend(report, family, full_name_latin="Someone al-Khatib")
    assert new.is_current and not Report.objects.get(pk=report.pk).is_current
    assert claim in policy.claims_visible_to(family)  # the family still sees what it said
    assert claim in policy.claims_visible_to(caseworker)
    assert case.pk in claimed_cases(subject_for_report(new))  # ranked again, the case stays with its answer
    again = make_candidate(new, case, linked=False)
    assert services.claim_of(again, family) == claim  # answering again replaces, never doubles


def test_a_family_that_named_a_case_stays_under_review_after_an_edit(world: World) -> None:
    family = world.make_user("family", caseworker=world.make_user("caseworker"))
    report = world.report(reporter_user=family)
    services.make_claim(make_candidate(report, world.cases["scar"], linked=False), family, "yes")
    new = _amend(report, family, full_name_latin="Someone al-Khatib")
    assert services.search_status(new, family) == "under_review"


def _verified(world: World) -> dict[str, Any]:
    caseworker = world.make_user("caseworker")
    family = world.make_user("family", caseworker=caseworker)
    person = world.person(reporter=family, consent={"publication": True})
    report = person.links.get().report
    rules.make_claim(person, world.cases["palestine"], "is_them", family, report=report)
    ident = Identification.objects.get(person=person)
    rules.review(ident, world.make_user("reviewer"), "approve")
    rules.review(ident, world.make_user("reviewer"), "approve")
    ident.refresh_from_db()
    assert ident.status == "verified"
    rules.record_family_informed(ident, report, caseworker, informed_on=dt.date.today(), method="phone")
    return {"family": family, "caseworker": caseworker, "person": person, "report": report, "ident": ident}


def test_being_told_outlives_an_edit_and_relinking(world: World) -> None:
    t = _verified(world)
    new = _amend(t["report"], t["family"], full_name_latin="Someone al-Khatib")
    assert rules.publication_blockers(t["ident"]) == []
    assert services.search_status(new, t["family"]) == "verified"
    ReportLink.objects.filter(report=t["report"]).update(report=new)  # the next linkage run holds the new version
    assert rules.publication_blockers(t["ident"]) == []
    assert services.publication_view(t["ident"].pk, t["caseworker"])["mine"][0]["informed"]


def test_a_consent_withdrawn_in_the_new_version_is_not_outvoted_by_the_old_one(world: World) -> None:
    t = _verified(world)
    new = _amend(t["report"], t["family"], full_name_latin="Someone al-Khatib")
    new.consent = {"publication": False}
    new.save(update_fields=["consent"])
    assert {"rule": "no_consent", "report": new.pk} in rules.publication_blockers(t["ident"])
    assert services.public_identifications() == []
