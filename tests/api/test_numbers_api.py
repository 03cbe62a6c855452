"""The API's number suggestions (issue 29): archivists list and decide them with exactly the
domain's rules; every other role, and an inactive archivist, learns nothing (404 / 401)."""

from __future__ import annotations

import pytest
from django.test import Client

from athar.api.models import ApiToken
from athar.archive.models import NumberReading
from athar.core.signed_ids import sign_id
from tests.archive.test_number_readings import _case, _reading

pytestmark = pytest.mark.django_db


def _client(user):
    _, token = ApiToken.issue(user, "test")
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


def _decide(client, reading, **body):
    return client.post(f"/api/numbers/suggestions/{sign_id('number_reading', reading.pk)}/decision", body,
                       content_type="application/json")


def test_archivists_list_and_decide_others_see_nothing(make_user):
    first, second = _client(make_user("archivist")), _client(make_user("archivist"))
    case = _case(detainee="1111")
    changes, wrong = _reading(case, "2719", "detainee", 1), _reading(case, "5555", "", 2)

    for role in ("family", "caseworker", "reviewer"):
        outsider = _client(make_user(role))
        assert outsider.get("/api/numbers/suggestions").status_code == 404
        assert _decide(outsider, changes, decision="reject").status_code == 404
    inactive = make_user("archivist")
    inactive_client = _client(inactive)
    inactive.is_active = False
    inactive.save()
    assert inactive_client.get("/api/numbers/suggestions").status_code == 401

    listed = first.get("/api/numbers/suggestions").json()
    assert listed["count"] == 2 and {r["text"] for r in listed["items"]} == {"2719", "5555"}
    assert listed["items"][0]["case"] == str(case.public_id)
    assert first.post("/api/numbers/suggestions/123/decision", {"decision": "confirm"},
                      content_type="application/json").status_code == 404  # an unsigned row id finds nothing

    answer = _decide(first, changes, decision="confirm")
    assert answer.status_code == 201 and answer.json()["needs_second"] and not answer.json()["settled"]
    assert _decide(first, changes, decision="confirm").status_code == 403  # the same archivist twice
    awaiting = second.get("/api/numbers/suggestions?status=second").json()
    assert [r["id"] for r in awaiting["items"]] == [answer.json()["id"]]
    assert _decide(second, changes, decision="confirm").json()["settled"]

    assert _decide(first, wrong, decision="correct", number="٥٥٥٦").status_code == 400  # no reason
    corrected = _decide(first, wrong, decision="correct", number="٥٥٥٦", reason="last digit", kind="other")
    assert corrected.status_code == 201 and corrected.json()["number"] == "5556"
    assert _decide(second, wrong, decision="reject").status_code == 400  # already decided
    assert NumberReading.objects.get(pk=wrong.pk).status == "corrected"
