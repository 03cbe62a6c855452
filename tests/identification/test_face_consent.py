"""A family that refused or withdrew consent to face processing contributes no face to ranking."""

import base64

import numpy as np
import pytest

from athar.identification.faces import person_vectors
from athar.registry.models import Report, ReportPhoto

pytestmark = pytest.mark.django_db
MODEL = "test-model"


def report_with_face(report_id: str, consent: dict) -> Report:
    report = Report.objects.create(source="web", report_id=report_id, lineage=f"L{report_id}", content_hash="x" * 64,
                                   full_name_ar="محمود أحمد السالم", consent=consent)
    vector = np.ones(512, dtype=np.float32) / np.sqrt(512)
    ReportPhoto.objects.create(report=report, sha256="a" * 64, faces=[
        {"model": MODEL, "embedding_b64": base64.b64encode(vector.tobytes()).decode(), "chosen": True}])
    return report


@pytest.mark.parametrize("consent,faces", [
    ({"face_processing": True}, 1),
    ({}, 1),  # an organisation's list: its own consent process applies
    ({"face_processing": False}, 0),
])
def test_consent_decides_whether_the_photo_is_used(consent, faces):
    report = report_with_face("1", consent)
    assert len(person_vectors([report], MODEL)) == faces
