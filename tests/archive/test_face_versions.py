"""Faces embedded by an older pipeline version are never mixed with new vectors: they are
reported, left out of search with a message, and embedded again by `athar faces index`."""

import json
from pathlib import Path

import numpy as np
import pytest
from django.core.management import call_command
from PIL import Image

from athar.archive.face_indexing import (
    check_index,
    index_dir,
    index_photos,
    load_index,
    model_identity,
    pending_photos,
    stale_photo_ids,
)
from athar.archive.face_search import search
from athar.archive.models import Face, Photo
from tests.archive.helpers import run_ingest
from tests.shared_data import require_shared_data

pytestmark = pytest.mark.django_db
PEOPLE = ["Aaron_Peirsol", "Abdullah_Gul", "Adrien_Brody"]


def _ingest_people(tmp_path: Path) -> dict[str, Path]:
    """Each person's second LFW photo ingested as a case with faces; returns their family photos."""
    lfw = require_shared_data("faces", "lfw-dev")
    family = {}
    for person in PEOPLE:
        photos = sorted((lfw / person).iterdir())
        family[person] = photos[0]
        target = tmp_path / "arc" / "215" / person / photos[1].name
        target.parent.mkdir(parents=True)
        Image.open(photos[1]).save(target)
    run_ingest(tmp_path / "arc", faces=True)
    return family


def test_stale_version_rows_are_re_embedded(tmp_path: Path) -> None:
    family = _ingest_people(tmp_path)
    name, version, _ = model_identity()
    assert Face.objects.filter(model_version=version).count() >= len(PEOPLE)
    # an older pipeline made the faces of one photo
    old = Face.objects.filter(case__label="Adrien_Brody")
    photo_id = old.first().photo_id
    old.update(model_version="older-pipeline", embedding=np.zeros(512, np.float32).tobytes())
    assert stale_photo_ids() == [photo_id]
    assert photo_id in [pk for pk, _ in pending_photos()]
    index = load_index()  # rebuilt from current-version rows only
    assert len(index) == Face.objects.filter(model_version=version).count()
    assert any("another pipeline version" in p and "athar faces index" in p for p in check_index())
    answer = search([family["Abdullah_Gul"]], limit=3)
    assert any("older version" in w and "athar faces index" in w for w in answer["warnings"])
    assert all(c["case_label"] != "Adrien_Brody" for c in answer["cases"])
    result = index_photos(workers=1)
    assert result["photos_re_embedded_for_new_version"] == 1 and result["photos"] == 1
    assert stale_photo_ids() == [] and Photo.objects.get(pk=photo_id).faces_indexed
    assert not Face.objects.exclude(model_version=version).exists()
    assert search([family["Adrien_Brody"]], limit=3)["cases"][0]["case_label"] == "Adrien_Brody"
    assert check_index() == []


def test_verify_names_an_archive_embedded_entirely_by_an_older_pipeline(tmp_path: Path) -> None:
    lfw = require_shared_data("faces", "lfw-dev")
    photos = sorted((lfw / PEOPLE[0]).iterdir())
    target = tmp_path / "arc" / "215" / PEOPLE[0] / photos[1].name
    target.parent.mkdir(parents=True)
    Image.open(photos[1]).save(target)
    run_ingest(tmp_path / "arc", faces=True)
    name, version, dim = model_identity()
    # as after an upgrade: every row and the saved index carry the old version
    Face.objects.update(model_version="older-pipeline")
    from athar.archive.face_indexing import face_rows
    from athar.matching.faces import FaceIndex

    ids, _, vectors = face_rows(name)
    old_index = FaceIndex(name, "older-pipeline", dim)
    old_index.add(ids, vectors)
    old_index.save(index_dir(name))
    assert any("another pipeline version" in p for p in check_index())
    assert len(load_index()) == 0  # never serves old vectors under the new version
    assert index_photos(workers=1)["photos_re_embedded_for_new_version"] == 1
    assert check_index() == [] and len(load_index()) == Face.objects.filter(model_version=version).count() > 0


def test_redo_replaces_faces_kept_by_an_earlier_pipeline_of_the_same_version(tmp_path: Path, capsys) -> None:
    """A face kept before the feature-norm floor (same version, so never re-embedded on its own)
    is replaced by `athar faces index --redo`; the index stays in step and search still works."""
    family = _ingest_people(tmp_path)
    name, version, _ = model_identity()
    honest = Face.objects.count()
    # as an earlier pipeline of the same version would have left it: a false face on one photo
    real = Face.objects.filter(case__label="Aaron_Peirsol").first()
    texture = (np.ones(512, np.float32) / np.sqrt(512)).astype(np.float32)
    false_face = Face.objects.create(photo=real.photo, case=real.case, index=real.photo.faces.count(), box=[0, 0, 9, 9],
                                     rotation=0, quality=0.1, embedding=texture.tobytes(),
                                     model_name=name, model_version=version)
    index = load_index()
    index.add(np.array([false_face.pk], dtype=np.int64), texture[None, :])
    index.save(index_dir(name))
    assert check_index() == [] and pending_photos() == []  # same version: the plain index leaves it alone

    capsys.readouterr()
    with pytest.raises(SystemExit):
        call_command("faces", "index", "--redo", "--rebuild", "--json")
    refused = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert refused["ok"] is False and "--redo and --rebuild" in refused["error"]
    call_command("faces", "index", "--redo", "--workers", "1", "--json")
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["photos"] == len(PEOPLE) and result["faces_replaced"] == honest + 1
    assert Face.objects.count() == honest and not Face.objects.filter(pk=false_face.pk).exists()
    assert check_index() == [] and len(load_index()) == honest
    assert search([family["Aaron_Peirsol"]], limit=3)["cases"][0]["case_label"] == "Aaron_Peirsol"
