"""A large list uploaded on the caseworker's import page is imported by the worker (a job), with a
progress page that refreshes by itself (issue 28); only its caseworker and administrators see it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from athar.identification.jobs import drain
from athar.identification.models import Job
from athar.registry.models import ImportBatch, Report
from athar.web.views import caseworker as caseworker_views

LIST = ("report_id,full_name_ar,birth_year,reporter_contact\n"
        "R1,سامر علي,1980,0933 111 111\nR2,خالد سعيد,notayear,\nR3,,1970,\n").encode()


@pytest.fixture
def large_files_go_to_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(caseworker_views, "IMPORT_IN_REQUEST_MAX_BYTES", 10)


def _upload(client, data: bytes = LIST, name: str = "list.csv"):
    return client.post(reverse("web:import"), {"file": SimpleUploadedFile(name, data, "text/csv"), "source": "ngo"})


@pytest.mark.django_db
def test_the_worker_imports_a_large_upload_and_the_page_shows_progress_then_the_result(
        client_for, world, large_files_go_to_the_worker, settings) -> None:
    client = client_for(world.caseworker)
    response = _upload(client)
    batch = ImportBatch.objects.get(source="ngo")
    page = reverse("web:import_progress", kwargs={"batch_id": batch.pk})
    assert response.status_code == 302 and response["Location"] == page
    assert batch.status == ImportBatch.Status.QUEUED and Path(batch.upload_path).read_bytes() == LIST
    assert Path(batch.upload_path).is_relative_to(Path(settings.ATHAR_HOME))
    assert Job.objects.filter(kind="import", target=f"batch:{batch.pk}").count() == 1
    waiting = client.get(page).content.decode()
    assert 'data-follow=' in waiting and not Report.objects.filter(source="ngo").exists()

    assert drain()["done"] >= 1
    batch.refresh_from_db()
    assert batch.status == ImportBatch.Status.DONE and batch.rows_done == 3 == batch.rows_total
    assert not Path(batch.upload_path or "/nonexistent").exists()
    imported = Report.objects.filter(source="ngo")
    assert imported.count() == 2 and all(r.caseworker == world.caseworker for r in imported)
    done = client.get(in_english(batch.pk)).content.decode()
    assert 'data-follow=' not in done
    assert "2 reports imported" in done and "1 row refused" in done
    assert "notayear" in done  # the value kept as written, named in a warning


def in_english(batch_id: int) -> str:
    from django.utils import translation

    with translation.override("en"):
        return reverse("web:import_progress", kwargs={"batch_id": batch_id})


@pytest.mark.django_db
def test_a_running_import_shows_rows_done_of_the_total(client_for, world, large_files_go_to_the_worker) -> None:
    client = client_for(world.caseworker)
    _upload(client)
    batch = ImportBatch.objects.get(source="ngo")
    ImportBatch.objects.filter(pk=batch.pk).update(status=ImportBatch.Status.RUNNING, rows_done=2000,
                                                   rows_total=8000)
    html = client.get(in_english(batch.pk)).content.decode()
    assert "2000 of 8000 rows imported" in html and 'value="25"' in html and 'data-follow=' in html


@pytest.mark.django_db
def test_a_file_athar_cannot_read_fails_the_batch_with_its_reason(client_for, world,
                                                                  large_files_go_to_the_worker) -> None:
    client = client_for(world.caseworker)
    _upload(client, b"\x00\x01\x02binary" * 50)
    drain()
    batch = ImportBatch.objects.get(source="ngo")
    assert batch.status == ImportBatch.Status.FAILED and "not a CSV text file" in batch.error
    assert Job.objects.get(kind="import").status == Job.Status.DONE  # not retried in a loop
    html = client.get(in_english(batch.pk)).content.decode()
    assert "not a CSV text file" in html and 'data-follow=' not in html


@pytest.mark.django_db
def test_small_files_are_still_imported_while_the_page_waits(client_for, world) -> None:
    response = _upload(client_for(world.caseworker))
    assert response.status_code == 200 and Report.objects.filter(source="ngo").count() == 2
    assert not Job.objects.filter(kind="import").exists()


@pytest.mark.django_db
def test_only_the_uploading_caseworker_and_administrators_see_the_progress(client_for, world,
                                                                           large_files_go_to_the_worker) -> None:
    _upload(client_for(world.caseworker))
    page = reverse("web:import_progress", kwargs={"batch_id": ImportBatch.objects.get(source="ngo").pk})
    assert client_for(world.caseworker).get(page).status_code == 200
    assert client_for(world.admin).get(page).status_code == 200
    for outsider in (world.other_caseworker, world.family, world.reviewer, world.archivist):
        assert client_for(outsider).get(page).status_code == 404
    assert client_for(None).get(page).status_code == 302  # to sign in
    assert client_for(world.other_caseworker).get(page.replace("/import/", "/import/1")).status_code == 404
