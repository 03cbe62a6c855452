"""An archivist starts an ingest of a folder on the server from the web (issue 30/31): only inside
ATHAR_INGEST_ROOT, as a worker job, with a page that refreshes while it runs and shows the counts,
the refused files and the result; archivists and administrators only; audited."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from athar.archive.models import IngestRun, Photo, PhotoSighting
from athar.audit.chain import verify_chain
from athar.audit.models import AuditEvent
from athar.identification.jobs import drain
from athar.identification.models import Job
from tests.archive.helpers import jpeg, write

pytestmark = pytest.mark.django_db


@pytest.fixture
def root(tmp_path: Path, settings: Any) -> Path:
    """The folder the operator set aside for archives, holding one small archive with a bad file."""
    allowed = tmp_path / "incoming"
    write(allowed, "caesar-2/215/1001/a.jpg", jpeg(1))
    write(allowed, "caesar-2/215/1001/b.jpg", jpeg(2))
    write(allowed, "caesar-2/215/1002/c.jpg", jpeg(3))
    write(allowed, "caesar-2/215/1002/not-a-photo.jpg", b"a letter, not a photograph\n")
    settings.ATHAR_INGEST_ROOT = str(allowed)
    settings.ATHAR_INGEST_WORKERS = 1
    return allowed


def _start(client: Any, folder: str, archive: str = "Caesar 2", lang: str = "en", faces: bool = False) -> Any:
    with translation.override(lang):
        url = reverse("web:ingest_start")
    data = {"folder": folder, "archive": archive, **({"faces": "on"} if faces else {})}
    return client.post(url, data)


def _page(client: Any, run: IngestRun, lang: str = "en") -> str:
    with translation.override(lang):
        return client.get(reverse("web:ingest_run", args=[run.pk])).content.decode()


def test_an_archivist_starts_an_ingest_the_worker_runs_it_and_the_page_follows(client_for, world, root) -> None:
    client = client_for(world.archivist)
    response = _start(client, str(root / "caesar-2"))
    run = IngestRun.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/archive/ingests/{run.pk}/")
    assert run.status == IngestRun.Status.QUEUED and run.requested_by == world.archivist and not run.faces
    assert Job.objects.filter(kind="ingest", target=f"run:{run.pk}").count() == 1
    waiting = _page(client, run)
    assert 'data-follow=' in waiting and "waiting for the background worker" in waiting
    assert not PhotoSighting.objects.filter(ingest_run=run).exists()

    assert drain()["done"] >= 1  # the worker's own code path: claim the job, run it
    run.refresh_from_db()
    assert run.status == IngestRun.Status.DONE and run.phase == IngestRun.Phase.DONE
    assert run.done == run.total == 4 and run.counts["photos_added"] == 4
    assert PhotoSighting.objects.filter(ingest_run=run).count() == 4
    done = _page(client, run)
    assert 'data-follow=' not in done
    assert "photos added: <bdi>4</bdi>" in done and "files refused: <bdi>1</bdi>" in done
    assert "215/1002/not-a-photo.jpg" in done and "not an image" in done
    arabic = _page(client, run, "ar")
    assert "not an image" not in arabic and "ليست صورة" in arabic
    asked = AuditEvent.objects.get(action="ingest.requested")
    assert asked.actor == f"user:{world.archivist.pk}" and asked.data == {"run": run.pk, "faces": False}
    assert str(root) not in str(asked.data)  # identifiers only, no path
    assert AuditEvent.objects.filter(action="photo.ingested", data__run=run.pk).count() == 4 and verify_chain().ok


def test_a_path_relative_to_the_root_is_the_folder_inside_it(client_for, world, root) -> None:
    assert _start(client_for(world.admin), "caesar-2").status_code == 302
    assert IngestRun.objects.get().source == str((root / "caesar-2").resolve())


def test_a_running_ingest_shows_its_phase_and_files_done_of_the_total(client_for, world, root) -> None:
    client = client_for(world.archivist)
    _start(client, str(root / "caesar-2"))
    run = IngestRun.objects.get()
    IngestRun.objects.filter(pk=run.pk).update(status=IngestRun.Status.RUNNING, phase=IngestRun.Phase.FILES,
                                               done=300, total=1200)
    html = _page(client, run)
    assert "300 of 1200 done" in html and 'value="25"' in html and 'data-follow=' in html
    assert "keeping and reading the files" in html


@pytest.mark.parametrize("where", ["outside", "dotdot", "link", "missing", "file"])
def test_folders_outside_the_root_are_refused_with_a_clear_message(client_for, world, root, tmp_path, where) -> None:
    outside = tmp_path / "elsewhere"
    write(outside, "215/1/a.jpg", jpeg(9))
    os.symlink(outside, root / "escape")
    folder = {"outside": str(outside), "dotdot": str(root / ".." / "elsewhere"), "link": str(root / "escape"),
              "missing": str(root / "nothing-here"), "file": str(root / "caesar-2/215/1001/a.jpg")}[where]
    client = client_for(world.archivist)
    english = _start(client, folder).content.decode()
    arabic = _start(client, folder, lang="ar").content.decode()
    assert not IngestRun.objects.exists() and not Job.objects.filter(kind="ingest").exists()
    if where in ("missing", "file"):
        assert "There is no folder" in english and "لا يوجد مجلد" in arabic
    else:
        assert "Only folders inside" in english and "إلا المجلدات الموجودة داخل" in arabic


def test_without_an_ingest_root_the_page_says_so_and_refuses(client_for, world, root, settings) -> None:
    settings.ATHAR_INGEST_ROOT = ""
    client = client_for(world.archivist)
    with translation.override("en"):
        assert "is not enabled" in client.get(reverse("web:ingest_start")).content.decode()
    assert "ATHAR_INGEST_ROOT" in _start(client, str(root / "caesar-2")).content.decode()
    assert not IngestRun.objects.exists()


def test_outsiders_can_neither_start_an_ingest_nor_follow_one(client_for, world, root) -> None:
    _start(client_for(world.archivist), str(root / "caesar-2"))
    run = IngestRun.objects.get()
    start, page = reverse("web:ingest_start"), reverse("web:ingest_run", args=[run.pk])
    for outsider in (world.family, world.caseworker, world.reviewer):
        client = client_for(outsider)
        assert client.get(start).status_code == 403 and client.get(page).status_code == 403
        assert _start(client, str(root / "caesar-2")).status_code == 403
    anonymous = client_for(None)
    assert anonymous.get(start).status_code == 302 and anonymous.get(page).status_code == 302
    assert _start(anonymous, str(root / "caesar-2")).status_code == 302
    assert IngestRun.objects.count() == 1 and Job.objects.filter(kind="ingest").count() == 1


def test_a_run_whose_folder_vanished_fails_with_its_reason_and_is_not_retried(client_for, world, root) -> None:
    client = client_for(world.archivist)
    _start(client, str(root / "caesar-2"))
    run = IngestRun.objects.get()
    (root / "caesar-2").rename(root / "moved")
    drain()
    run.refresh_from_db()
    assert run.status == IngestRun.Status.FAILED and "There is no folder" in run.error
    assert Job.objects.get(kind="ingest").status == Job.Status.DONE
    html = _page(client, run)
    assert "The ingest stopped" in html and 'data-follow=' not in html


def test_a_worker_stopped_midway_resumes_the_same_run_without_doubles(client_for, world, root, monkeypatch) -> None:
    """The job dies after the first batch (as a killed worker would); run again, the same run
    completes: every file once, each refusal once."""
    from athar.archive import ingest as ingest_module

    monkeypatch.setattr(ingest_module, "BATCH", 2)
    client = client_for(world.archivist)
    _start(client, str(root / "caesar-2"))
    run = IngestRun.objects.get()
    real_write, calls = ingest_module._IngestJob._write, {"n": 0}

    def dies_after_one_batch(self: Any, batch: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt  # as abrupt as a kill: not an Exception the job would record
        real_write(self, batch)

    monkeypatch.setattr(ingest_module._IngestJob, "_write", dies_after_one_batch)
    from athar.archive.ingest_jobs import run_queued_ingest

    with pytest.raises(KeyboardInterrupt):
        run_queued_ingest(run.pk)
    assert PhotoSighting.objects.filter(ingest_run=run).count() == 2
    monkeypatch.setattr(ingest_module._IngestJob, "_write", real_write)
    run_queued_ingest(run.pk)
    run.refresh_from_db()
    assert run.status == IngestRun.Status.DONE and PhotoSighting.objects.filter(archive=run.archive).count() == 4
    assert Photo.objects.filter(archive=run.archive).count() == 4
    assert run.rejected.count() == 1
