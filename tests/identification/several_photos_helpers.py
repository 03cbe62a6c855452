"""An archive of four real LFW people, indexed with faces, and the face similarity the ranking must
give a report from the vectors stored for its photos — computed here from the stored rows, not by
the code under test."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

import numpy as np

from athar.archive.models import Case, Face
from athar.matching.faces.calibration import load_calibration
from tests.archive.helpers import run_ingest
from tests.archive.test_faces import build_archive

PERSON = "Abdullah_Gul"


def face_archive(lfw: Path, root: Path) -> Case:
    """Ingest four people (one case each, with faces); the case of PERSON."""
    build_archive(lfw, root)
    run_ingest(root, faces=True)
    return Case.objects.get(label=PERSON)


def family_photos(lfw: Path) -> list[Path]:
    """Two photos of PERSON that are not the archive's (its case is photo 2)."""
    photos = sorted((lfw / PERSON).iterdir())
    return [photos[0], photos[2]]


def stored_vectors(report: Any) -> list[np.ndarray]:
    """The vector of every photo of the report, as the worker stored them."""
    out = []
    for photo in report.photos.order_by("id"):
        entries = [f for f in photo.faces or [] if f.get("embedding_b64")]
        assert len(entries) == 1, photo.faces
        out.append(np.frombuffer(base64.b64decode(entries[0]["embedding_b64"]), dtype=np.float32))
    return out


def expected_similarity(vectors: list[np.ndarray], case: Case) -> float:
    """The mean of the photos' unit vectors against the case's best face, on the one-photo scale."""
    query = np.mean(vectors, axis=0)
    query /= np.linalg.norm(query)
    faces = [np.frombuffer(bytes(b), dtype=np.float32) for b in Face.objects.filter(case=case).values_list("embedding", flat=True)]
    raw = max(float(f @ query) for f in faces)
    one = load_calibration(Face.objects.filter(case=case).first().model_name)
    several = one.for_photos(len(vectors))
    return (several.a * raw + several.b - one.b) / one.a


def face_reason(reasons: list[Any]) -> float:
    """The similarity the ranking wrote into the candidate's face reason (two decimals); reasons as
    stored (dicts) or as the API gives them (their text)."""
    texts = [r["detail"] if isinstance(r, dict) else str(r) for r in reasons]
    found = [m for m in (re.search(r"face similarity (-?[0-9.]+)", t) for t in texts) if m]
    assert len(found) == 1, reasons
    return float(found[0].group(1))
