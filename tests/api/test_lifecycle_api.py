"""API of the lifecycle: a caseworker's tasks (list, mark told) and reviewers' challenges (list, read,
decide), as the real roles and as outsiders (another caseworker, a family, no token)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, TestCase

from athar.api.models import ApiToken
from athar.audit.models import AuditEvent
from athar.core.signed_ids import sign_id
from athar.identification import claims as rules
from athar.identification.models import Challenge, Claim, Notice
from tests.identification.conftest import world  # noqa: F401  (fixture)
from tests.identification.test_lifecycle import _family, published  # noqa: F401  (fixtures)


def _client(user: Any = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        _, token = ApiToken.issue(user, "test")
        client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


def _post(client: Client, url: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(url, body or {}, content_type="application/json")


@pytest.mark.django_db
def test_a_caseworker_lists_its_tell_tasks_with_the_reviewers_reason_and_marks_one_told(
        published: dict[str, Any]) -> None:  # noqa: F811
    b = published["b"]
    listed = _client(b["cw"]).get("/api/tasks")
    assert listed.status_code == 200
    (task,) = listed.json()
    assert task["kind"] == "tell" and task["status"] == "set_aside" and task["done_at"] is None
    assert task["reason"].startswith("the tattoo") and "set aside" in task["text"]
    assert task["report"] == sign_id("report", b["report"].pk) and task["case"] == str(published["case"].public_id)
    done = _post(_client(b["cw"]), f"/api/tasks/{task['id']}/told")
    assert done.status_code == 200 and done.json()["done_at"]
    assert Notice.objects.get(pk=task["id"]).done_at is not None
    assert AuditEvent.objects.filter(action="identification.family_told", object_id=str(task["id"])).count() == 1
    assert _client(b["cw"]).get("/api/tasks").json() == []  # done: no longer open
    again = _post(_client(b["cw"]), f"/api/tasks/{task['id']}/told")  # twice: stays as first recorded
    assert again.status_code == 200 and again.json()["done_at"] == done.json()["done_at"]


@pytest.mark.django_db
def test_outsiders_cannot_see_or_close_a_caseworkers_task(world: Any, published: dict[str, Any]) -> None:  # noqa: F811
    b = published["b"]
    task = Notice.objects.get(kind="tell", user=b["cw"])
    other_cw, family = published["a"]["cw"], b["family"]
    assert _client(other_cw).get("/api/tasks").json() == []  # A's caseworker: its own tasks only
    assert _post(_client(other_cw), f"/api/tasks/{task.pk}/told").status_code == 404
    assert _client(family).get("/api/tasks").status_code == 403
    assert _post(_client(family), f"/api/tasks/{task.pk}/told").status_code == 403
    assert _client(published["reviewers"][0]).get("/api/tasks").status_code == 403
    assert Client().get("/api/tasks").status_code == 401
    assert _post(Client(), f"/api/tasks/{task.pk}/told").status_code == 401
    inform = Notice.objects.filter(kind="inform", user=published["a"]["cw"]).first()
    if inform is not None:  # an 'inform' task closes by recording the family informed, never here
        assert _post(_client(published["a"]["cw"]), f"/api/tasks/{inform.pk}/told").status_code == 404
    assert _post(_client(b["cw"]), "/api/tasks/99999999999/told").status_code == 422
    task.refresh_from_db()
    assert task.done_at is None


def _challenge(world: Any, published: dict[str, Any]) -> tuple[Challenge, dict[str, Any]]:  # noqa: F811
    c = _family(world)
    with TestCase.captureOnCommitCallbacks(execute=True):
        rules.make_claim(c["person"], published["case"], "is_them", c["cw"])
    return Challenge.objects.get(identification=published["ident"]), c


@pytest.mark.django_db
def test_a_reviewer_reads_and_decides_a_challenge_through_the_api(world: Any, published: dict[str, Any]) -> None:  # noqa: F811
    challenge, c = _challenge(world, published)
    reviewer = _client(published["reviewers"][1])
    assert [row["id"] for row in reviewer.get("/api/challenges").json()] == [challenge.pk]
    page = reviewer.get(f"/api/challenges/{challenge.pk}").json()
    assert page["identification_status"] == "published" and page["grounds"] == "new_claim"
    assert [col["side"] for col in page["columns"]] == ["standing", "challenging"]
    assert page["columns"][1]["report"] == sign_id("report", c["report"].pk)
    assert {f["feature"] for f in page["facts"]} >= {"sex", "marks", "number"}
    assert all(len(f["sides"]) == 2 for f in page["facts"])
    assert "contact" not in str(page) and "reporter" not in str(page)  # never a contact detail
    refused = _post(reviewer, f"/api/challenges/{challenge.pk}/decision", {"decision": "dismiss", "reason": " "})
    assert refused.status_code == 400
    decided = _post(reviewer, f"/api/challenges/{challenge.pk}/decision",
                    {"decision": "dismiss", "reason": "photographed before the reported arrest"})
    assert decided.status_code == 200 and decided.json()["status"] == "dismissed"
    published["ident"].refresh_from_db()
    assert published["ident"].status == "published"
    assert Claim.objects.get(person=c["person"]).set_aside_at is not None
    assert Notice.objects.filter(kind="tell", user=c["cw"]).exists()
    again = _post(reviewer, f"/api/challenges/{challenge.pk}/decision", {"decision": "uphold", "reason": "x"})
    assert again.status_code == 400  # already decided


@pytest.mark.django_db
def test_only_reviewers_read_or_decide_challenges(world: Any, published: dict[str, Any]) -> None:  # noqa: F811
    challenge, c = _challenge(world, published)
    for user in (c["cw"], c["family"], published["a"]["cw"]):
        client = _client(user)
        assert client.get("/api/challenges").status_code == 403
        assert client.get(f"/api/challenges/{challenge.pk}").status_code == 403
        assert _post(client, f"/api/challenges/{challenge.pk}/decision",
                     {"decision": "uphold", "reason": "we are sure"}).status_code == 403
    assert Client().get("/api/challenges").status_code == 401
    assert _client(published["reviewers"][0]).get("/api/challenges/424242").status_code == 404
    challenge.refresh_from_db()
    assert challenge.status == "open"
