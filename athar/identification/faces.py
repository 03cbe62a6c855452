"""Face vectors from the stores: archive faces (``archive.Face``) and photos of the person alive
(``registry.ReportPhoto.faces``). Only vectors of the algorithm's face model are compared."""

from __future__ import annotations

import base64
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from athar.archive.models import Face
from athar.matching.scoring import CaseTable
from athar.matching.scoring.faces import CaseFaces
from athar.registry.models import Report, ReportPhoto

DIM = 512


def face_version(pipeline_name: str) -> str:
    """The version the face pipeline records today (model + embedding recipe): only vectors of
    this version are compared; older ones wait for ``athar faces index`` to embed them again."""
    from athar.archive.face_indexing import model_identity

    return model_identity(pipeline_name or "arcface")[1]


def case_faces(table: CaseTable, model: str, version: str | None = None) -> CaseFaces:
    """Every archive face of ``model`` (and ``version``, when given) grouped by the case's
    position in the table."""
    per_case: dict[int, list[npt.NDArray[np.float32]]] = {}
    faces = Face.objects.filter(model_name=model, case__isnull=False)
    if version is not None:
        faces = faces.filter(model_version=version)
    for case_id, blob in faces.values_list("case_id", "embedding").iterator(chunk_size=5000):
        pos = table.position.get(case_id)
        if pos is not None:
            per_case.setdefault(pos, []).append(np.frombuffer(bytes(blob), dtype=np.float32))
    dim = len(next(iter(per_case.values()))[0]) if per_case else DIM
    return CaseFaces.build({p: np.stack(v) for p, v in per_case.items()}, len(table), dim, model)


def person_vectors(reports: Iterable[Report], model: str, version: str | None = None) -> npt.NDArray[np.float32]:
    """The main face of every photo of the person alive, for ``model`` (empty when none).

    A report whose family refused or withdrew consent to face processing (``consent.face_processing``
    false, as the web records it) contributes no face. Lists imported by an organisation carry no
    consent record: the organisation's own consent process applies (docs/security.md)."""
    vectors = []
    allowed = [r for r in reports if (getattr(r, "consent", None) or {}).get("face_processing", True) is not False]
    for photo in ReportPhoto.objects.filter(report__in=allowed).order_by("id"):
        usable = [f for f in photo.faces or [] if f.get("model") == model and f.get("embedding_b64")
                  and (version is None or f.get("version") == version)]
        if usable:  # the face the family chose, else the first (largest) one
            face = next((f for f in usable if f.get("chosen")), usable[0])
            vectors.append(np.frombuffer(base64.b64decode(face["embedding_b64"]), dtype=np.float32))
    return np.stack(vectors) if vectors else np.zeros((0, DIM), np.float32)
