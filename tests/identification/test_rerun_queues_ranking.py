"""Every path that adds faces queues the ranking it needs: a re-run of an ingest that was killed
during face indexing adds no photo, only faces — and must still queue one."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from athar.identification import jobs
from athar.identification.models import Job
from tests.archive.helpers import run_ingest
from tests.shared_data import require_shared_data

pytestmark = pytest.mark.django_db


def test_an_ingest_rerun_that_only_indexes_faces_queues_a_ranking(tmp_path: Path) -> None:
    lfw = require_shared_data("faces", "lfw-dev")
    person = sorted(p for p in lfw.iterdir() if p.is_dir())[0]
    photo = sorted(person.iterdir())[0]
    target = tmp_path / "arc" / "215" / "C1" / photo.name
    target.parent.mkdir(parents=True)
    Image.open(photo).save(target)
    first = run_ingest(tmp_path / "arc", faces=False)  # as if killed before the face step
    assert first["photos_added"] == 1
    jobs.drain("w")  # whatever the first run queued is done
    assert not Job.objects.filter(status=Job.Status.QUEUED).exists()
    again = run_ingest(tmp_path / "arc", faces=True)  # the re-run: no new photo, the faces are found now
    assert again["photos_added"] == 0 and again["faces"]["faces"] >= 1
    assert Job.objects.filter(status=Job.Status.QUEUED, kind="cases").exists()
