"""Every photo a family gave is used by the identification ranking: the person's face query is the mean
of all their photos' vectors, and a several-photo score reaches the ranking on the one-photo scale."""

import base64

import numpy as np
import pytest

from athar.identification.faces import person_vectors
from athar.matching.faces.calibration import load_calibration
from athar.matching.faces.combine import probe_vector
from athar.matching.scoring.faces import CaseFaces
from athar.registry.models import Report, ReportPhoto

pytestmark = pytest.mark.django_db
MODEL = "faceplugin-arcface-112"  # the shipped calibration (with its several-photo fit)


def _entry(vector: np.ndarray) -> dict:
    return {"model": MODEL, "embedding_b64": base64.b64encode(vector.astype(np.float32).tobytes()).decode(), "chosen": True}


def test_two_photos_of_a_report_make_one_query_scored_on_the_one_photo_scale() -> None:
    rng = np.random.default_rng(3)
    case = rng.normal(size=512).astype(np.float32)
    case /= np.linalg.norm(case)
    photos = [case + rng.normal(scale=0.05, size=512).astype(np.float32) for _ in range(2)]
    photos = [p / np.linalg.norm(p) for p in photos]
    report = Report.objects.create(source="web", report_id="1", lineage="L1", content_hash="x" * 64,
                                   full_name_ar="محمود أحمد السالم", consent={"face_processing": True})
    for i, vector in enumerate(photos):
        ReportPhoto.objects.create(report=report, sha256=f"{i}" * 64, faces=[_entry(vector)])
    vectors = person_vectors([report], MODEL)
    assert vectors.shape == (2, 512)
    faces = CaseFaces.build({0: case[None, :]}, 1, 512, MODEL)
    raw = float(case @ probe_vector(vectors))
    one, several = load_calibration(MODEL), load_calibration(MODEL).for_photos(2)
    assert several.photos == "several"
    assert faces.similarities(vectors)[0] == pytest.approx((several.a * raw + several.b - one.b) / one.a, abs=1e-5)
    assert faces.similarities(vectors[:1])[0] == pytest.approx(float(case @ vectors[0]), abs=1e-5)
