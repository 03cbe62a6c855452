"""Faces on the archive side: indexed at ingest, searched, verified — on small real photos."""

import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from athar.archive.face_indexing import check_index, index_dir, load_index
from athar.archive.face_search import search
from athar.archive.models import Derivative, Face
from tests.archive.helpers import run_ingest
from tests.shared_data import require_shared_data

pytestmark = pytest.mark.django_db
PEOPLE = ["Aaron_Peirsol", "Abdullah_Gul", "Adrien_Brody", "Alejandro_Toledo"]


@pytest.fixture
def lfw() -> Path:
    return require_shared_data("faces", "lfw-dev")


def build_archive(lfw: Path, root: Path) -> dict[str, Path]:
    """Each person's second photo (rotated 90° for one of them) is a case; the first is the family's."""
    family = {}
    for i, person in enumerate(PEOPLE):
        photos = sorted((lfw / person).iterdir())
        family[person] = photos[0]
        target = root / "215" / person / photos[1].name
        target.parent.mkdir(parents=True)
        image = Image.open(photos[1])
        (image.rotate(90, expand=True) if i == 0 else image).save(target)
    return family


def test_ingest_indexes_faces_and_search_ranks_the_right_case_first(lfw, tmp_path):
    family = build_archive(lfw, tmp_path / "arc")
    result = run_ingest(tmp_path / "arc", faces=True)
    assert result["faces"]["faces"] >= len(PEOPLE) and Face.objects.filter(case__isnull=False).count() >= 4
    assert Derivative.objects.filter(kind="face_blur").count() == Face.objects.count()
    for person, photo in family.items():
        answer = search([photo], limit=3)
        assert answer["cases"][0]["case_label"] == person
        assert {"case_id", "facility", "case_label", "detainee_number", "score", "probability"} <= set(answer["cases"][0])
    assert check_index() == []


def test_a_photo_without_a_face_gets_a_clear_message(lfw, tmp_path):
    build_archive(lfw, tmp_path / "arc")
    run_ingest(tmp_path / "arc", faces=True)
    blank = tmp_path / "blank.png"
    Image.new("RGB", (300, 300), (120, 120, 120)).save(blank)
    with pytest.raises(ValueError, match="No face"):
        search([blank])


def test_several_faces_pick_the_largest_or_face_n(lfw, tmp_path):
    family = build_archive(lfw, tmp_path / "arc")
    run_ingest(tmp_path / "arc", faces=True)
    big = Image.open(family["Adrien_Brody"]).resize((250, 250))
    small = Image.open(family["Abdullah_Gul"]).resize((160, 160))
    canvas = Image.new("RGB", (460, 260), (200, 200, 200))
    canvas.paste(small, (0, 50))
    canvas.paste(big, (200, 0))
    group = tmp_path / "group.jpg"
    canvas.save(group)
    assert search([group])["cases"][0]["case_label"] == "Adrien_Brody"
    assert search([group], face_number=1)["cases"][0]["case_label"] == "Abdullah_Gul"


def test_index_is_rebuilt_when_missing_and_tampering_is_reported(lfw, tmp_path):
    build_archive(lfw, tmp_path / "arc")
    run_ingest(tmp_path / "arc", faces=True)
    index = load_index()
    shutil.rmtree(index_dir(index.model_name))
    assert len(load_index()) == Face.objects.count()
    face = Face.objects.first()
    vector = np.frombuffer(bytes(face.embedding), dtype=np.float32).copy()
    broken = load_index()
    broken.add(np.array([face.pk], dtype=np.int64), -vector[None, :])
    broken.save(index_dir(broken.model_name))
    assert any("differ" in p for p in check_index())


def test_a_face_crop_between_quarter_turns_is_turned_upright_without_black_corners() -> None:
    from PIL import Image

    from athar.archive.face_indexing import upright_crop
    from athar.matching.faces.datatypes import Box

    photo = Image.new("RGB", (200, 200), (120, 110, 100))
    crop = upright_crop(photo, Box(50, 50, 150, 150), 45)
    corners = [crop.getpixel(p) for p in ((0, 0), (crop.width - 1, 0), (0, crop.height - 1))]
    assert crop.width > 120 and all(abs(c[0] - 120) <= 2 for c in corners)  # enlarged, filled with the photo's colour
    assert upright_crop(photo, Box(50, 50, 150, 150), 90).size == (170, 170)  # a quarter turn: the loose crop, turned


def test_several_photos_of_the_person_are_one_query_under_the_several_photo_calibration(lfw, tmp_path):
    from athar.matching.faces import load_calibration

    build_archive(lfw, tmp_path / "arc")
    run_ingest(tmp_path / "arc", faces=True)
    photos = sorted((lfw / "Abdullah_Gul").iterdir())
    one = search([photos[0]], limit=3)
    two = search([photos[0], photos[2]], limit=3)
    assert (one["photos_used"], one["calibration"]) == (1, "one")
    assert (two["photos_used"], two["calibration"]) == (2, "several") and len(two["query_faces"]) == 2
    assert two["cases"][0]["case_label"] == "Abdullah_Gul"
    several = load_calibration(two["model"]).for_photos(2)
    top = two["cases"][0]
    assert top["likely_match"] == several.likely_match(top["score"])
