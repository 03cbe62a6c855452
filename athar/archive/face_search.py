"""From photos of the person alive to ranked archive cases, a calibrated probability and a
decision — "likely match" or, most of the time, "no likely match here"."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from athar.archive.face_indexing import (
    face_rows,
    load_index,
    pipeline,
    stale_face_count,
)
from athar.archive.models import Case
from athar.core.errors import UserError
from athar.matching.faces import (
    DEFAULT_MODEL,
    FaceError,
    ImageError,
    family_face,
    load_calibration,
    load_image,
    probe_vector,
)

NO_MATCH_MESSAGE = ("No likely match in the archive. Most people searched for are not in any given archive; "
                    "this does not say anything about whether the person is alive.")
LIKELY_MESSAGE = "A likely match was found. It must be reviewed before anything is concluded."
# Prior that a person searched for is in the archive at all. Caesar held ~7,000 detainees for
# 120,000-300,000 missing; families who search have reasons, so we take 10% (docs/faces.md).
PRIOR_IN_ARCHIVE = 0.10


def archive_probabilities(scores: dict[int, float], calibration: Any,
                          prior: float = PRIOR_IN_ARCHIVE) -> dict[int, float]:
    """P(case i is the person | every case's score): the calibration gives each score's likelihood
    ratio (its even-prior log-odds); the prior is spread over the cases, with the rest of the mass
    on "the person is not in this archive". A stranger's score is not read as a 50/50 chance."""
    if not scores:
        return {}
    ids = list(scores)
    log_lr = calibration.a * np.array([scores[i] for i in ids]) + calibration.b
    weighted = log_lr + np.log(prior / len(ids))
    log_total = np.logaddexp(np.log1p(-prior), np.logaddexp.reduce(weighted))
    return dict(zip(ids, np.exp(weighted - log_total).tolist()))


@dataclass
class QueryFaces:
    vectors: list[np.ndarray] = field(default_factory=list)
    used: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def query_faces(photos: list[Path | bytes], face_number: int | None = None, model: str = DEFAULT_MODEL) -> QueryFaces:
    """The chosen face of each photo; photos without a usable face become warnings."""
    out = QueryFaces()
    for i, photo in enumerate(photos, start=1):
        label = photo.name if isinstance(photo, Path) else f"photo {i}"
        try:
            faces = pipeline(model).analyse(load_image(photo))
            face = family_face(faces, face_number)
        except (ImageError, FaceError) as exc:
            out.warnings.append(f"{label}: {exc}")
            continue
        out.vectors.append(np.asarray(face.embedding, dtype=np.float32))
        out.used.append({"photo": label, "faces_in_photo": len(faces), "quality": round(float(face.quality), 3),
                         "box": [round(float(v)) for v in (face.box.left, face.box.top, face.box.right, face.box.bottom)]})
    return out


class CaseScorer:
    """Scores every case against a person's face vectors, with the index loaded once."""

    def __init__(self, model: str = DEFAULT_MODEL) -> None:
        self.index = load_index(model)
        ids, cases, _ = face_rows(self.index.model_name, self.index.model_version)
        self.stale_faces = stale_face_count(model)
        self.face_to_case = dict(zip(ids.tolist(), cases.tolist()))

    def scores(self, vectors: list[np.ndarray]) -> dict[int, float]:
        """Every case's score: the best match over its faces to the mean of the person's photos
        (the "mean-max" rule measured in docs/faces.md)."""
        if not vectors or len(self.index) == 0:
            return {}
        found, sims = self.index.search(probe_vector(np.vstack(vectors))[None, :], len(self.index))
        best: dict[int, float] = {}
        for fid, sim in zip(found[0].tolist(), sims[0].tolist()):
            case = self.face_to_case.get(fid, -1)
            if case >= 0 and sim > best.get(case, -2.0):
                best[case] = float(sim)
        return best


def search(photos: list[Path | bytes], face_number: int | None = None, limit: int = 10,
           model: str = DEFAULT_MODEL) -> dict[str, Any]:
    """The answer a family or caseworker gets: the decision first, then the ranked cases."""
    query = query_faces(photos, face_number, model)
    if not query.vectors:
        raise UserError("no usable face in the photos: " + " ".join(query.warnings))
    scorer = CaseScorer(model)
    scores = scorer.scores(query.vectors)
    if scorer.stale_faces:
        query.warnings.append(f"{scorer.stale_faces} archive faces were embedded by an older version of the face "
                              "pipeline and were not searched; run 'athar faces index' to embed them again")
    # Several photos of the person make a stronger query (their mean vector): their own fit.
    calibration = load_calibration(pipeline(model).model_name).for_photos(len(query.vectors))
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    top = ranked[:limit]
    cases = Case.objects.select_related("facility").in_bulk([c for c, _ in top])
    probabilities = archive_probabilities(scores, calibration)
    rows = [_row(rank, cases[c], score, probabilities[c], calibration)
            for rank, (c, score) in enumerate(top, start=1) if c in cases]
    likely = bool(rows) and rows[0]["likely_match"]
    return {
        "decision": "likely_match" if likely else "no_likely_match",
        "message": LIKELY_MESSAGE if likely else NO_MATCH_MESSAGE,
        "model": calibration.model_name, "model_version": calibration.model_version,
        "cases_searched": len(scores), "photos_used": len(query.vectors), "calibration": calibration.photos,
        "query_faces": query.used, "warnings": query.warnings, "cases": rows,
    }


def _row(rank: int, case: Case, score: float, probability: float, calibration: Any) -> dict[str, Any]:
    return {
        "rank": rank, "case_id": case.pk, "facility": case.facility.code, "case_label": case.label,
        "detainee_number": case.detainee_number, "score": round(score, 4),
        "probability": round(probability, 4), "likely_match": calibration.likely_match(score),
    }
