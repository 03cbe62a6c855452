"""One person, several reports: a report's page lists the other reports the registry links to the same
missing person — only those the reader may already see, with what each says differently."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from athar.registry.models import ReportLink
from tests.web.factories import link_person, make_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def person(world: Any) -> dict[str, Any]:
    """The family's own report, a paper report its caseworker filed for it (another year of birth, a
    different father's name as written), and another family's report — all linked to one person."""
    paper = make_report(world.family, world.caseworker, name="محمد أحمد", birth_year=1984, father_name="أحمد",
                        reporter_relation="أخته")
    theirs = world.other_report
    person = link_person(world.report)
    run = person.links.first().run
    for other in (paper, theirs):
        ReportLink.objects.create(run=run, report=other, person=person, probability=0.97)
    return {"paper": paper, "theirs": theirs}


def _section(client: Any, report: Any) -> str:
    html = client.get(reverse("web:report", kwargs={"report_id": report.pk})).content.decode()
    start = html.find('id="same-person"')
    return html[start:html.find("</section>", start)] if start >= 0 else ""


def test_the_caseworker_sees_its_own_reports_of_the_person_with_what_differs(world, client_for, person):
    section = _section(client_for(world.caseworker), world.report)
    assert reverse("web:report", kwargs={"report_id": person["paper"].pk}) in section
    assert "أخته" in section and "سنة الولادة" in section  # who reported it; the birth year differs
    assert reverse("web:report", kwargs={"report_id": person["theirs"].pk}) not in section  # another family's
    assert "خالد" not in section


def test_the_other_caseworker_sees_nothing_of_this_family(world, client_for, person):
    assert _section(client_for(world.other_caseworker), person["theirs"]) == ""


def test_a_reviewer_sees_every_report_of_the_person(world, client_for, person):
    section = _section(client_for(world.reviewer), world.report)
    for other in (person["paper"], person["theirs"]):
        assert reverse("web:report", kwargs={"report_id": other.pk}) in section


def test_a_family_page_stays_simple(world, client_for, person):
    assert _section(client_for(world.family), world.report) == ""
