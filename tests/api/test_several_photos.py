"""Photos of the person alive through the API: several at once, as the web's photo page; the report
is ranked again with every photo, and staff read the face similarity of their mean in the reasons."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from athar.api.models import ApiToken
from athar.audit.models import AuditEvent
from athar.core.signed_ids import sign_id
from athar.identification.jobs import drain
from tests.identification.several_photos_helpers import (
    expected_similarity,
    face_archive,
    face_reason,
    family_photos,
    stored_vectors,
)
from tests.shared_data import require_shared_data
from tests.web.conftest import world  # noqa: F401  (fixture)
from tests.web.factories import jpeg_bytes, make_report

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    _, token = ApiToken.issue(user, "test")
    client = Client()
    client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


def _files(paths: list[Path]) -> list[SimpleUploadedFile]:
    return [SimpleUploadedFile(p.name, p.read_bytes(), "image/jpeg") for p in paths]


def test_a_caseworker_adds_two_photos_and_the_ranking_uses_both(world, tmp_path):  # noqa: F811
    lfw = require_shared_data("faces", "lfw-dev")
    case = face_archive(lfw, tmp_path / "arc")
    report = make_report(world.family, world.caseworker, name="عبد الله غول")
    rid = sign_id("report", report.pk)
    answer = _client(world.caseworker).post(f"/api/reports/{rid}/photos", {"photos": _files(family_photos(lfw))})
    assert answer.status_code == 201, answer.content
    assert answer.json() | {"refused": []} == {"report": rid, "added": 2, "photos": 2, "refused": []}
    assert AuditEvent.objects.filter(action="report.photo_added", object_id=str(report.pk)).count() == 2
    assert _client(world.family).get(f"/api/reports/{rid}").json()["photos"] == 2
    drain()
    vectors = stored_vectors(report)
    assert len(vectors) == 2
    listed = _client(world.reviewer).get(f"/api/reports/{rid}/candidates").json()["items"]
    mine = next(c for c in listed if c["case"] == str(case.public_id))
    assert face_reason(mine["reasons"]) == pytest.approx(expected_similarity(vectors, case), abs=0.006)
    assert abs(expected_similarity(vectors, case) - expected_similarity(vectors[:1], case)) > 0.02


def test_photos_only_from_the_family_or_its_caseworker_and_only_photos(world):  # noqa: F811
    rid = sign_id("report", world.report.pk)
    good = SimpleUploadedFile("a.jpg", jpeg_bytes(size=120), "image/jpeg")
    assert _client(world.other_family).post(f"/api/reports/{rid}/photos", {"photos": [good]}).status_code == 404
    good.seek(0)
    assert _client(world.reviewer).post(f"/api/reports/{rid}/photos", {"photos": [good]}).status_code == 403
    bad = SimpleUploadedFile("notes.jpg", b"not a photo at all", "image/jpeg")
    refused = _client(world.family).post(f"/api/reports/{rid}/photos", {"photos": [bad]})
    assert refused.status_code == 400 and refused.json()["added"] == 0
    assert refused.json()["refused"][0]["name"] == "notes.jpg" and refused.json()["photos"] == 1
    good.seek(0)
    mixed = _client(world.family).post(f"/api/reports/{rid}/photos",
                                       {"photos": [good, SimpleUploadedFile("x.jpg", b"junk", "image/jpeg")]})
    assert mixed.status_code == 201 and mixed.json()["added"] == 1 and len(mixed.json()["refused"]) == 1
