"""The worker embeds the family's face (the one it chose) before ranking; never a refused report."""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from athar.identification.family_faces import ensure_family_vectors
from athar.registry.models import Report
from tests.shared_data import require_shared_data


@pytest.fixture
def photos() -> dict[str, Image.Image]:
    lfw = require_shared_data("faces", "lfw-dev")
    pick = {name: sorted((lfw / name).glob("*.jpg"))[0] for name in ("Aaron_Eckhart", "Colin_Powell")}
    return {name: Image.open(path).convert("RGB") for name, path in pick.items()}


def _jpeg(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=92)
    return out.getvalue()


def _report(settings: Any, tmp_path: Path, image: Image.Image, **consent: Any) -> Any:
    from athar.registry.photos import store_photo

    settings.MEDIA_ROOT = str(tmp_path / "media")
    report = Report.objects.create(source="t", report_id=f"F{Report.objects.count()}", lineage=f"l{Report.objects.count()}",
                                   content_hash="-", full_name_ar="اسم", consent=consent or {})
    store_photo(report, Path("alive.jpg"), _jpeg(image))
    return report


def _vector(photo: Any) -> np.ndarray:
    entry = next(f for f in photo.faces if f.get("embedding_b64"))
    return np.frombuffer(base64.b64decode(entry["embedding_b64"]), dtype=np.float32)


def _alone(image: Image.Image) -> np.ndarray:
    from athar.archive.face_indexing import pipeline
    from athar.matching.faces import family_face

    return family_face(pipeline("arcface").analyse(image)).embedding


@pytest.mark.django_db
def test_the_face_is_embedded_once_with_the_current_version(settings, tmp_path, photos) -> None:
    from athar.archive.face_indexing import pipeline

    report = _report(settings, tmp_path, photos["Aaron_Eckhart"])
    assert ensure_family_vectors([report]) == {"photos": 1, "faces": 1, "no_face": 0}
    photo = report.photos.get()
    entry = next(f for f in photo.faces if f.get("embedding_b64"))
    assert entry["version"] == pipeline("arcface").model_version
    assert float(_vector(photo) @ _alone(photos["Aaron_Eckhart"])) > 0.95
    assert ensure_family_vectors([report])["photos"] == 0  # nothing to do the second time


@pytest.mark.django_db
def test_a_vector_of_an_older_version_is_replaced(settings, tmp_path, photos) -> None:
    from athar.archive.face_indexing import pipeline

    report = _report(settings, tmp_path, photos["Aaron_Eckhart"])
    photo = report.photos.get()
    stale = {"model": pipeline("arcface").model_name, "version": "old-recipe", "embedding_b64": "AAAA"}
    photo.faces = [stale]
    photo.save()
    ensure_family_vectors([report])
    photo.refresh_from_db()
    assert [f["version"] for f in photo.faces] == [pipeline("arcface").model_version]


@pytest.mark.django_db
def test_the_face_the_family_chose_not_the_largest(settings, tmp_path, photos) -> None:
    sheet = Image.new("RGB", (700, 400), (128, 128, 128))
    sheet.paste(photos["Aaron_Eckhart"].resize((180, 180)), (20, 100))  # smaller, on the left: the one sought
    sheet.paste(photos["Colin_Powell"], (420, 60))  # larger
    report = _report(settings, tmp_path, sheet)
    photo = report.photos.get()
    from athar.web.faces import detect_faces

    found = detect_faces(photo)
    assert len(found) == 2
    found[0]["chosen"] = True  # numbered left to right: the family picks the left one
    photo.faces = found
    photo.save()
    ensure_family_vectors([report])
    photo.refresh_from_db()
    assert float(_vector(photo) @ _alone(photos["Aaron_Eckhart"])) > 0.7
    assert float(_vector(photo) @ _alone(photos["Colin_Powell"])) < 0.3
    assert sum(1 for f in photo.faces if f.get("source") == "web-detector") == 2  # the family's boxes stay


@pytest.mark.django_db
def test_refused_consent_means_no_embedding(settings, tmp_path, photos) -> None:
    report = _report(settings, tmp_path, photos["Aaron_Eckhart"], face_processing=False)
    assert ensure_family_vectors([report])["photos"] == 0
    assert not any(f.get("embedding_b64") for f in report.photos.get().faces or [])


@pytest.mark.django_db
def test_a_photo_without_a_face_is_marked_and_not_retried(settings, tmp_path) -> None:
    rng = np.random.default_rng(1)
    report = _report(settings, tmp_path, Image.fromarray(rng.integers(90, 110, (240, 320, 3), dtype=np.uint8)))
    assert ensure_family_vectors([report]) == {"photos": 1, "faces": 0, "no_face": 1}
    assert ensure_family_vectors([report])["photos"] == 0
