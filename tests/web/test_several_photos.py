"""Every photo a family gives on the web is compared: adding one re-ranks the report with all of them
(the mean of their vectors, on the one-photo scale), and choosing another face re-embeds the photo."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from athar.identification.jobs import drain
from athar.identification.models import Job, Ranking
from tests.identification.several_photos_helpers import (
    expected_similarity,
    face_archive,
    face_reason,
    family_photos,
    stored_vectors,
)
from tests.shared_data import require_shared_data
from tests.web.factories import make_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def lfw() -> Path:
    return require_shared_data("faces", "lfw-dev")


def _upload(path: Path) -> SimpleUploadedFile:
    return SimpleUploadedFile(path.name, path.read_bytes(), "image/jpeg")


def _queued(report) -> bool:
    return Job.objects.filter(kind="subject", target=f"report:{report.pk}", status="queued").exists()


def _face_similarity(report, case) -> float:
    ranking = Ranking.objects.get(report=report, person__isnull=True, is_current=True)
    return face_reason(ranking.candidates.get(case=case).reasons)


def test_a_second_photo_added_later_is_compared_with_the_first(client_for, world, lfw, tmp_path):
    case = face_archive(lfw, tmp_path / "arc")
    report = make_report(world.family, world.caseworker, name="عبد الله غول")
    first, second = family_photos(lfw)
    client = client_for(world.family)
    url = reverse("web:report_photos", kwargs={"report_id": report.pk})
    assert client.post(url, {"photos": [_upload(first)]}).status_code == 302
    drain()
    one = stored_vectors(report)
    assert len(one) == 1 and _face_similarity(report, case) == pytest.approx(expected_similarity(one, case), abs=0.006)

    assert client.post(url, {"photos": [_upload(second)]}).status_code == 302
    assert _queued(report)  # nothing else would rank the report again: no new report, no new case
    drain()
    both = stored_vectors(report)
    assert len(both) == 2
    two = expected_similarity(both, case)
    assert abs(two - expected_similarity(one, case)) > 0.02  # the test can tell one photo from two
    assert _face_similarity(report, case) == pytest.approx(two, abs=0.006)
    ranking = Ranking.objects.get(report=report, person__isnull=True, is_current=True)
    assert ranking.candidates.get(rank=1).case == case


def test_caseworker_adds_several_photos_at_once_and_all_are_compared(client_for, world, lfw, tmp_path):
    case = face_archive(lfw, tmp_path / "arc")
    report = make_report(world.family, world.caseworker, name="عبد الله غول")
    url = reverse("web:report_photos", kwargs={"report_id": report.pk})
    response = client_for(world.caseworker).post(url, {"photos": [_upload(p) for p in family_photos(lfw)]})
    assert response.status_code == 302 and report.photos.count() == 2 and _queued(report)
    drain()
    assert _face_similarity(report, case) == pytest.approx(expected_similarity(stored_vectors(report), case), abs=0.006)
    page = client_for(world.family).get(url).content.decode()
    assert page.count('class="card"') == 2  # both photos listed, each with its face


def test_choosing_another_face_drops_the_old_vector_and_ranks_again(client_for, world):
    photo = world.photo
    photo.faces = [{"box": [0, 0, 40, 40], "source": "web-detector", "chosen": True},
                   {"box": [60, 0, 100, 40], "source": "web-detector"},
                   {"model": "faceplugin-arcface-112", "version": "v", "box": [0, 0, 50, 50], "embedding_b64": "AAAA",
                    "chosen": True}]
    photo.save()
    client = client_for(world.family)
    url = reverse("web:pick_face", kwargs={"report_id": world.report.pk, "photo_id": photo.pk})
    assert client.get(url).content.decode().count("<rect") == 2  # the worker's entry is not a face to choose
    assert client.post(url, {"face": "1"}).status_code == 302
    photo.refresh_from_db()
    assert [f.get("chosen") for f in photo.faces] == [False, True]  # the embedded entry of face 0 is gone
    assert _queued(world.report)


def test_withdrawing_face_consent_ranks_the_report_again(client_for, world):
    url = reverse("web:consent", kwargs={"report_id": world.report.pk})
    Job.objects.all().delete()
    assert client_for(world.family).post(url, {}).status_code == 302
    assert _queued(world.report)
