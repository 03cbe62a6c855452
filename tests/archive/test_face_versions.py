"""Faces embedded by an older pipeline version are never mixed with new vectors: they are
reported, left out of search with a message, and embedded again by `athar faces index`."""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from athar.archive.face_indexing import (
    check_index, index_photos, load_index, model_identity, pending_photos, stale_photo_ids,
)
from athar.archive.face_search import search
from athar.archive.models import Face, Photo
from tests.archive.helpers import run_ingest
from tests.shared_data import require_shared_data

pytestmark = pytest.mark.django_db
PEOPLE = ["Aaron_Peirsol", "Abdullah_Gul", "Adrien_Brody"]


def test_stale_version_rows_are_re_embedded(tmp_path: Path) -> None:
    lfw = require_shared_data("faces", "lfw-dev")
    family = {}
    for person in PEOPLE:
        photos = sorted((lfw / person).iterdir())
        family[person] = photos[0]
        target = tmp_path / "arc" / "215" / person / photos[1].name
        target.parent.mkdir(parents=True)
        Image.open(photos[1]).save(target)
    run_ingest(tmp_path / "arc", faces=True)
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
    from athar.archive.face_indexing import face_rows, index_dir
    from athar.matching.faces import FaceIndex

    ids, _, vectors = face_rows(name)
    old_index = FaceIndex(name, "older-pipeline", dim)
    old_index.add(ids, vectors)
    old_index.save(index_dir(name))
    assert any("another pipeline version" in p for p in check_index())
    assert len(load_index()) == 0  # never serves old vectors under the new version
    assert index_photos(workers=1)["photos_re_embedded_for_new_version"] == 1
    assert check_index() == [] and len(load_index()) == Face.objects.filter(model_version=version).count() > 0
