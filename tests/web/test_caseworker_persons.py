"""The caseworker's list of reports is read by missing person: several reports the registry links to
one person are one group (each with its source and its own status), never wider than what the
caseworker may already see (issue 28: "three reports of one man as three unrelated rows")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from athar.identification.services import group_by_person
from athar.registry.models import ReportLink
from tests.web.factories import link_person, make_report

pytestmark = pytest.mark.django_db


def _groups(html: str) -> list[str]:
    table = re.search(r'<table class="reports-by-person">(.*?)</table>', html, re.S).group(1)
    return re.findall(r"<tbody[^>]*>(.*?)</tbody>", table, re.S)


def _link(report: Any, person: Any) -> None:
    ReportLink.objects.create(run=person.links.first().run, report=report, person=person, probability=0.97)


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_reports_of_one_person_are_one_group_with_their_sources(world: Any, client_for: Any, lang: str) -> None:
    person = link_person(world.report)
    second = make_report(world.family, world.caseworker, name="محمد أحمد السالم", reporter_relation="أخ الزوجة")
    _link(second, person)
    alone = make_report(world.family, world.caseworker, name="سامر خليل")
    with translation.override(lang):
        html = client_for(world.caseworker).get(reverse("web:caseworker_home")).content.decode()
        heading = translation.ngettext("One missing person, %(n)s report", "One missing person, %(n)s reports",
                                       2) % {"n": 2}
    groups = _groups(html)
    together = [g for g in groups if reverse("web:report", args=[second.pk]) in g]
    assert len(together) == 1
    assert reverse("web:report", args=[world.report.pk]) in together[0]
    assert heading in together[0] and "أخ الزوجة" in together[0] and f"<bdi>{second.source}</bdi>" in together[0]
    single = [g for g in groups if reverse("web:report", args=[alone.pk]) in g]
    assert len(single) == 1 and "person-head" not in single[0]
    assert len(groups) == 2


def test_a_link_never_shows_another_caseworkers_report(world: Any, client_for: Any) -> None:
    person = link_person(world.report)
    _link(world.other_report, person)  # the other caseworker's family, linked into the same person
    html = client_for(world.caseworker).get(reverse("web:caseworker_home")).content.decode()
    assert reverse("web:report", args=[world.other_report.pk]) not in html
    assert "person-head" not in html  # one visible report: no group heading


def test_a_decided_report_beside_an_open_one_is_said(world: Any) -> None:
    person = link_person(world.report)
    second = make_report(world.family, world.caseworker, name="محمد أحمد السالم")
    _link(second, person)
    summaries = [{"report": world.report, "status_code": "published"}, {"report": second, "status_code": "to_look_at"}]
    (group,) = group_by_person(summaries)
    assert group["decided_elsewhere"] and group["person_id"] == person.pk
    assert [s["status_code"] for s in group["items"]] == ["published", "to_look_at"]  # each keeps its own
    summaries[0]["status_code"] = "to_look_at"
    (group,) = group_by_person(summaries)
    assert not group["decided_elsewhere"]


def test_without_a_linkage_run_every_report_is_its_own_group(world: Any) -> None:
    second = make_report(world.family, world.caseworker, name="محمد أحمد السالم")
    groups = group_by_person([{"report": world.report, "status_code": "not_compared"},
                              {"report": second, "status_code": "not_compared"}])
    assert [len(g["items"]) for g in groups] == [1, 1]


def _api_get(user: Any, path: str) -> Any:
    from django.test import Client

    from athar.api.models import ApiToken

    client = Client()
    _, token = ApiToken.issue(user, "test")
    return client.get(path, HTTP_AUTHORIZATION=f"Bearer {token}")


def test_the_api_gives_staff_the_other_reports_of_the_person_and_a_family_none(world: Any) -> None:
    from athar.core.signed_ids import sign_id

    person = link_person(world.report)
    second = make_report(world.family, world.caseworker, name="محمد أحمد السالم", birth_year=1986)
    _link(second, person)
    _link(world.other_report, person)  # another caseworker's family: never listed to this one
    path = f"/api/reports/{sign_id('report', world.report.pk)}"
    staff = _api_get(world.caseworker, path).json()
    assert [r["id"] for r in staff["same_person"]] == [sign_id("report", second.pk)]
    assert staff["same_person"][0]["differs"] == ["full_name_ar", "birth_year"]
    assert _api_get(world.family, path).json()["same_person"] == []
