"""Archivists start an ingest of a folder on the server through the API and follow it to its
result, with the web's rules (ATHAR_INGEST_ROOT, the worker); other roles learn nothing (404)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from athar.api.models import ApiToken
from athar.archive.models import IngestRun
from athar.identification.jobs import drain
from tests.archive.helpers import jpeg, write

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    _, token = ApiToken.issue(user, "test")
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


@pytest.fixture
def root(tmp_path: Path, settings: Any) -> Path:
    allowed = tmp_path / "incoming"
    write(allowed, "arc/215/1001/a.jpg", jpeg(1))
    write(allowed, "arc/215/1001/b.txt", b"not a photo")
    settings.ATHAR_INGEST_ROOT = str(allowed)
    settings.ATHAR_INGEST_WORKERS = 1
    return allowed


def test_an_archivist_starts_an_ingest_and_follows_it_to_its_result(make_user, root) -> None:
    client = _client(make_user("archivist"))
    started = client.post("/api/archive/ingests", {"folder": "arc", "archive": "API"}, content_type="application/json")
    assert started.status_code == 202, started.content
    body = started.json()
    assert body["status"] == "queued" and body["archive"] == "API" and body["id"] != str(IngestRun.objects.get().pk)
    drain()
    done = client.get(f"/api/archive/ingests/{body['id']}").json()
    assert done["status"] == "done" and done["done"] == done["total"] == 2
    assert done["counts"]["photos_added"] == 2 and [r["path"] for r in done["rejected"]] == ["215/1001/b.txt"]
    assert done["rejected"][0]["code"] == "not_an_image"


def test_a_folder_outside_the_root_is_refused_with_its_reason(make_user, root, tmp_path) -> None:
    client = _client(make_user("admin"))
    refused = client.post("/api/archive/ingests", {"folder": str(tmp_path), "archive": "X"},
                          content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400 and "Only folders inside" in refused.json()["detail"]
    arabic = client.post("/api/archive/ingests", {"folder": str(tmp_path), "archive": "X"},
                         content_type="application/json")
    assert "إلا المجلدات الموجودة داخل" in arabic.json()["detail"]
    assert not IngestRun.objects.exists()


def test_other_roles_learn_nothing(make_user, root) -> None:
    _client(make_user("archivist")).post("/api/archive/ingests", {"folder": "arc", "archive": "API"},
                                         content_type="application/json")
    from athar.core.signed_ids import sign_id

    run_id = sign_id("ingest_run", IngestRun.objects.get().pk)
    for role in ("family", "caseworker", "reviewer"):
        outsider = _client(make_user(role))
        assert outsider.post("/api/archive/ingests", {"folder": "arc", "archive": "B"},
                             content_type="application/json").status_code == 404
        assert outsider.get(f"/api/archive/ingests/{run_id}").status_code == 404
    assert Client().get(f"/api/archive/ingests/{run_id}").status_code == 401
    assert IngestRun.objects.count() == 1
