"""The JSON API: per-user tokens, exactly the web's permissions, outsiders see nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from athar.api.models import ApiToken
from tests.web.conftest import world  # noqa: F401  (fixture)
from tests.web.factories import make_candidate


def _client(user=None, token=None):
    client = Client()
    if user is not None:
        _, token = ApiToken.issue(user, "test")
    if token:
        client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


@pytest.mark.django_db
def test_openapi_is_published(client):
    spec = client.get("/api/openapi.json").json()
    assert "/api/reports" in spec["paths"] and "/api/stats" in spec["paths"]


@pytest.mark.django_db
def test_stats_are_public(client, world):
    data = client.get("/api/stats").json()
    assert data["cases"] == 1 and data["facilities"][0]["facility"] == "215"


@pytest.mark.django_db
def test_without_or_with_a_bad_or_revoked_token_nothing(world):
    for client in (_client(), _client(token="athar_nonsense")):
        for url in ("/api/reports", f"/api/reports/{world.report.pk}", "/api/claims", "/api/candidates/1"):
            assert client.get(url).status_code == 401
    row, token = ApiToken.issue(world.family, "x")
    row.revoked_at = row.created_at
    row.save()
    assert _client(token=token).get("/api/reports").status_code == 401


@pytest.mark.django_db
def test_family_sees_only_its_reports_and_candidates(world):
    candidate = make_candidate(world.report, world.case)
    mine = _client(world.family)
    assert [r["id"] for r in mine.get("/api/reports").json()] == [world.report.pk]
    assert mine.get(f"/api/reports/{world.report.pk}/candidates").json()[0]["id"] == candidate.pk
    outsider = _client(world.other_family)
    assert [r["id"] for r in outsider.get("/api/reports").json()] == [world.other_report.pk]
    assert outsider.get(f"/api/reports/{world.report.pk}").status_code == 404
    assert outsider.get(f"/api/reports/{world.report.pk}/candidates").status_code == 404
    assert outsider.get(f"/api/candidates/{candidate.pk}").status_code == 404
    assert outsider.post(f"/api/candidates/{candidate.pk}/claim", {"verdict": "yes"},
                         content_type="application/json").status_code == 404
    assert outsider.get("/api/claims").json() == []
    assert _client(world.archivist).get("/api/reports").json() == []


@pytest.mark.django_db
def test_family_claims_through_the_api(world):
    candidate = make_candidate(world.report, world.case)
    client = _client(world.family)
    response = client.post(f"/api/candidates/{candidate.pk}/claim", {"verdict": "yes"}, content_type="application/json")
    assert response.status_code == 201 and response.json()["verdict"] == "is_them"
    assert len(client.get("/api/claims").json()) == 1
    assert _client(world.other_family).get("/api/claims").json() == []


@pytest.mark.django_db
def test_unlikely_candidates_are_not_listed_for_families(world):
    make_candidate(world.report, world.case, likely=False)
    assert _client(world.family).get(f"/api/reports/{world.report.pk}/candidates").json() == []
