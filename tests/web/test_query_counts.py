"""The listing pages cost a fixed number of queries, whatever the number of rows (issue 31).

Each page is read with 10 rows and again with 200: the number of database queries must not grow.
The rows mix every state a row can show (compared or not, likely matches, a live claim, a claim set
aside, photos) so every branch of the per-row summary is asked. docs/web.md gives the counts.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from athar.api.models import ApiToken
from athar.identification.models import Claim, Identification, Review
from tests.web.factories import add_report_photo, link_person, make_candidate, make_case, make_report

pytestmark = pytest.mark.django_db


def _count(fetch: Any) -> tuple[int, Any]:
    """Queries of one request, without the rate limiter's counter: whether it inserts a new window's
    row or updates the current one depends on the clock (a minute boundary crossed while 190 rows
    are added on a busy machine), not on the page (it failed the full run so, never alone)."""
    with CaptureQueriesContext(connection) as queries:
        response = fetch()
    assert response.status_code == 200
    return len([q for q in queries if "core_counter" not in q["sql"]]), response


def _report(ten: int, two_hundred: int) -> None:
    """The counts, for docs/web.md (``pytest tests/web/test_query_counts.py -s -q``)."""
    import os

    print(f"\n{os.environ.get('PYTEST_CURRENT_TEST', '').split(' ')[0]}: {ten} queries with 10 rows, "
          f"{two_hundred} with 200 ({connection.vendor})")


def _add_reports(world: Any, families: list[Any], cases: list[Any], upto: int) -> None:
    """Reports of the caseworker's families up to ``upto``, in every state a row can show."""
    from athar.registry.models import Report

    have = Report.objects.filter(reporter_user__caseworker=world.caseworker).count()
    for i in range(have, upto):
        family = families[i % len(families)]
        report = make_report(family, world.caseworker, name=f"تقرير {i}")
        kind = i % 4
        if kind == 0:
            continue  # not compared yet
        candidate = make_candidate(report, cases[i % len(cases)], likely=kind != 3, linked=False)
        if kind == 1:
            add_report_photo(report)
        if kind == 2:
            person = link_person(report)
            claim = Claim.objects.create(person=person, case=candidate.case, verdict="is_them", by=family,
                                         report=report)
            if i % 8 == 2:  # a reviewer set it aside
                Claim.objects.filter(pk=claim.pk).update(set_aside_at=timezone.now(), set_aside_by=world.reviewer)


@pytest.fixture
def many(world: Any, make_user: Any) -> Any:
    world.families = [world.family] + [make_user("family", caseworker=world.caseworker) for _ in range(4)]
    world.cases = [world.case] + [make_case(f"Q{i}") for i in range(3)]
    return world


def _caseworker_home(client_for: Any, world: Any, rows: int) -> tuple[int, Any]:
    _add_reports(world, world.families, world.cases, rows)
    return _count(lambda: client_for(world.caseworker).get(reverse("web:caseworker_home")))


def test_the_caseworker_home_costs_the_same_with_10_and_200_reports(client_for, many):
    ten, page = _caseworker_home(client_for, many, 10)
    assert page.content.decode().count("تقرير ") >= 9
    two_hundred, page = _caseworker_home(client_for, many, 200)
    assert page.content.decode().count("تقرير ") >= 199
    _report(ten, two_hundred)
    assert two_hundred <= ten, (ten, two_hundred)


def _under_review(world: Any, upto: int) -> None:
    """Identifications waiting for review, each with a claim, some with an approval, a withdrawn
    claim or a set-aside one."""
    from athar.registry.models import MissingPerson

    for i in range(Identification.objects.count(), upto):
        case = make_case(f"R{i}")
        person = MissingPerson.objects.create()
        ident = Identification.objects.create(person=person, case=case)
        Claim.objects.create(person=person, case=case, verdict="is_them", by=world.family)
        if i % 3 == 0:
            Review.objects.create(identification=ident, reviewer=world.admin, decision="approve", reason="r")
        if i % 3 == 1:
            Claim.objects.create(person=person, case=case, verdict="is_them", by=world.other_family,
                                 set_aside_at=timezone.now())


def test_the_reviewer_queue_costs_the_same_with_10_and_200_rows(client_for, world):
    queue = reverse("web:review_queue")
    _under_review(world, 10)
    ten, _ = _count(lambda: client_for(world.reviewer).get(queue))
    _under_review(world, 200)
    two_hundred, page = _count(lambda: client_for(world.reviewer).get(queue))
    assert page.content.decode().count("/compare/") >= 200 or page.content.decode().count('<tr><td><a href') == 200
    _report(ten, two_hundred)
    assert two_hundred <= ten, (ten, two_hundred)


def test_the_reviewer_queue_counts_live_claims_only(client_for, world):
    """A claim set aside (or withdrawn) no longer counts (it did: the queue's copy of the filter
    left set-aside claims in)."""
    from athar.identification.services import open_identifications

    _under_review(world, 2)  # the second has a live claim and a set-aside one
    rows = {r.pk: r for r in open_identifications(world.reviewer)}
    ident = Identification.objects.order_by("pk")[1]
    assert rows[ident.pk].claim_count == 1
    Claim.objects.filter(person=ident.person, case=ident.case, set_aside_at__isnull=True).update(
        withdrawn_at=timezone.now())
    assert {r.pk: r for r in open_identifications(world.reviewer)}[ident.pk].claim_count == 0


def _api(user: Any, path: str) -> Any:
    from django.test import Client

    _, token = ApiToken.issue(user, "count")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    return lambda: client.get(path)


@pytest.mark.parametrize("path", ["/api/reports?limit=500", "/api/claims?limit=500"])
def test_an_api_page_costs_the_same_with_10_and_200_rows(many, path):
    _add_reports(many, many.families, many.cases, 10)
    fetch = _api(many.caseworker, path)
    fetch()  # caches warmed (in a full run earlier tests warm them): the comparison is then honest
    ten, page = _count(fetch)
    assert len(page.json()["items"]) >= (10 if "reports" in path else 2)
    _add_reports(many, many.families, many.cases, 200)
    two_hundred, page = _count(fetch)
    assert len(page.json()["items"]) >= (200 if "reports" in path else 50)
    _report(ten, two_hundred)
    assert two_hundred <= ten, (ten, two_hundred)


def test_the_api_candidate_list_costs_the_same_with_10_and_200_candidates(world):
    from athar.identification.models import Candidate, Ranking

    ranking = Ranking.objects.create(report=world.report, algorithm="t", algorithm_version="1", likely_match=True)

    def grow(upto: int) -> None:
        for i in range(ranking.candidates.count(), upto):
            Candidate.objects.create(ranking=ranking, case=make_case(f"K{i}"), rank=i + 1, score=1.0,
                                     probability=0.5, likely_match=True, reasons=[])

    from athar.core.signed_ids import sign_id

    path = f"/api/reports/{sign_id('report', world.report.pk)}/candidates?limit=500"
    grow(10)
    ten, _ = _count(_api(world.caseworker, path))
    grow(200)
    two_hundred, page = _count(_api(world.caseworker, path))
    assert len(page.json()["items"]) == 200
    _report(ten, two_hundred)
    assert two_hundred <= ten, (ten, two_hundred)
