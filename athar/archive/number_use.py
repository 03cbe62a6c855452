"""Using the numbers archivists confirmed (issue 29): bulk confirmation of the easy suggestions,
photos grouped by body, facilities suggested by branch numbers, and the same number in two archives.

Every function here is for archivists (and administrators) only, through ``number_review``'s rule,
and every one that decides goes through the same domain functions as the command line and the API
(``number_review.decide``). Nothing here changes a case on its own: a group, a facility suggestion
or a join is shown for a person to decide.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from athar.archive import number_review
from athar.archive.models import Archive, Case, Face, Facility, NumberReading
from athar.audit.chain import record
from athar.core.errors import UserError
from athar.matching.faces.calibration import load_calibration

# The easy ones: a confidence at least this high, and the same number read in another photo of
# the same case. Both are needed (one photo alone, however confident, goes to the one-by-one queue).
# Since the twenty-second session a reading's confidence is the calibrated probability that it is
# right (the reader suggests from 0.61): 0.95 kept, now meaning P(right) >= 0.95. Of the returned
# readings at >= 0.95, all were right on dev (82 of 82), independent (36) and independent_2903 (26);
# on the old hand-made scale 96 of 100, 58 of 60 and 38 of 41 (docs/numbers.md, twenty-second session).
BULK_MIN_CONFIDENCE = 0.95
BULK_LIMIT = 200
# A face pair whose cosine similarity is below this is shown as a disagreement (the archive's
# calibration says otherwise where one exists: its even-odds point).
FACE_AGREE_DEFAULT = 0.5
NUMBER_KINDS_FOR_BODY = (NumberReading.Kind.DETAINEE,)


def settled_q(prefix: str = "") -> Q:
    """Readings that count: decided by one archivist, or by two where two were needed."""
    return Q(**{f"{prefix}status__in": [NumberReading.Status.CONFIRMED, NumberReading.Status.CORRECTED]}) & (
        Q(**{f"{prefix}needs_second": False}) | Q(**{f"{prefix}second_by__isnull": False}))


def settled_readings() -> QuerySet[NumberReading]:
    return NumberReading.objects.filter(settled_q()).select_related("photo", "photo__case",
                                                                     "photo__case__facility", "photo__archive")


# --- bulk confirmation -----------------------------------------------------------------------------
def easy_suggestions(user: Any, archive: str | None = None) -> list[NumberReading]:
    """Undecided suggestions confident enough (``BULK_MIN_CONFIDENCE``) whose number another photo
    of the same case also shows (suggested or settled, never rejected): an archivist may confirm
    them together, each still one decision of its own."""
    query = number_review.suggestions_for(user, "suggested", archive).filter(
        confidence__gte=BULK_MIN_CONFIDENCE, photo__case__isnull=False)
    candidates = list(query[:BULK_LIMIT * 5])
    cases = {r.photo.case_id for r in candidates}
    seen: dict[tuple[int | None, str], set[int]] = defaultdict(set)
    others = NumberReading.objects.filter(photo__case__in=cases).exclude(status=NumberReading.Status.REJECTED)
    for case_id, photo_id, text, corrected in others.values_list("photo__case", "photo", "text", "corrected_text"):
        seen[(case_id, corrected or text)].add(photo_id)
    easy = [r for r in candidates if len(seen[(r.photo.case_id, r.text)] - {r.photo_id}) > 0]
    return easy[:BULK_LIMIT]


def bulk_confirm(user: Any, reading_ids: list[int], archive: str | None = None) -> dict[str, int]:
    """Confirm each chosen suggestion that is still easy (the screen may be stale); each one is its
    own decision (its own transaction and audit event), exactly as ``number_review.decide``."""
    number_review.require_reviewer(user)
    still_easy = {r.pk for r in easy_suggestions(user, archive)}
    counts = {"confirmed": 0, "needs_second": 0, "skipped": 0}
    for pk in dict.fromkeys(reading_ids):
        if pk not in still_easy:
            counts["skipped"] += 1
            continue
        try:
            reading = number_review.decide(user, pk, "confirm")
        except number_review.NotAllowed:
            raise
        except UserError:  # decided by someone else meanwhile
            counts["skipped"] += 1
            continue
        counts["confirmed"] += 1
        counts["needs_second"] += reading.needs_second
    return counts


# --- photos of one body ----------------------------------------------------------------------------
@dataclass
class FacePair:
    photo: int
    other: int
    similarity: float
    agree: bool


@dataclass
class BodyGroup:
    """Photos of one archive that share a settled detainee number, with the faces' second opinion."""

    archive: Archive
    number: str
    photos: list[int]
    cases: list[Case]
    face_pairs: list[FacePair] = field(default_factory=list)

    @property
    def cases_disagree(self) -> bool:
        """The number says one body; the folders say several cases (or some photos have none)."""
        return len(self.cases) > 1 or any(c is None for c in self.cases)

    @property
    def faces_disagree(self) -> bool:
        return any(not p.agree for p in self.face_pairs)

    @property
    def faces_compared(self) -> bool:
        return bool(self.face_pairs)


def body_groups(user: Any, archive: Archive | None = None, case: Case | None = None) -> list[BodyGroup]:
    """Photos grouped by the detainee number archivists settled, per archive (numbers are the
    archive's own index); a group of one photo is left out unless a case is asked for."""
    number_review.require_reviewer(user)
    rows = settled_readings().filter(kind__in=NUMBER_KINDS_FOR_BODY)
    if archive is not None:
        rows = rows.filter(photo__archive=archive)
    if case is not None:
        numbers = {r.number for r in rows.filter(photo__case=case)}
        rows = rows.filter(Q(text__in=numbers, corrected_text="") | Q(corrected_text__in=numbers),
                           photo__archive=case.archive)
    grouped: dict[tuple[int, str], dict[int, NumberReading]] = defaultdict(dict)
    for r in rows.order_by("photo_id"):
        grouped[(r.photo.archive_id, r.number)].setdefault(r.photo_id, r)
    groups = []
    for (_, number), by_photo in sorted(grouped.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        if len(by_photo) < 2 and case is None:
            continue
        first = next(iter(by_photo.values()))
        cases: dict[Any, Any] = {}
        for r in by_photo.values():
            cases.setdefault(r.photo.case_id, r.photo.case)
        group = BodyGroup(first.photo.archive, number, sorted(by_photo), list(cases.values()))
        group.face_pairs = face_opinion(group.photos)
        groups.append(group)
    return groups


def face_opinion(photo_ids: list[int]) -> list[FacePair]:
    """Each pair of the group's photos that both show a face (of one embedding model and version):
    their cosine similarity, and whether the face model says "the same person" at even odds."""
    faces = list(Face.objects.filter(photo_id__in=photo_ids).order_by("photo_id", "-quality")
                 .values_list("photo_id", "model_name", "model_version", "embedding"))
    if not faces:
        return []
    model = max({(f[1], f[2]) for f in faces}, key=lambda m: sum(1 for f in faces if (f[1], f[2]) == m))
    best: dict[int, np.ndarray] = {}
    for photo_id, name, version, blob in faces:
        if (name, version) == model and photo_id not in best:
            vector = np.frombuffer(bytes(blob), dtype=np.float32)
            best[photo_id] = vector / (np.linalg.norm(vector) or 1.0)
    cut = _even_odds(model[0])
    ids = sorted(best)
    return [FacePair(a, b, round(float(best[a] @ best[b]), 3), float(best[a] @ best[b]) >= cut)
            for i, a in enumerate(ids) for b in ids[i + 1:]]


def _even_odds(model_name: str) -> float:
    """The similarity at which the face model's calibration gives even odds (a·s + b = 0)."""
    try:
        calibration = load_calibration(model_name)
    except (FileNotFoundError, ValueError, KeyError, TypeError):
        return FACE_AGREE_DEFAULT
    return -calibration.b / calibration.a if calibration.a else FACE_AGREE_DEFAULT


# --- facilities suggested by branch numbers --------------------------------------------------------
@dataclass
class FacilitySuggestion:
    case: Case
    number: str
    readings: list[int]
    facility: Facility | None  # the facility of that number in the table, if any

    @property
    def blocked_by(self) -> Case | None:
        """A case with the same label already in that facility: moving would merge two cases."""
        if self.facility is None:
            return None
        return Case.objects.filter(archive=self.case.archive, facility=self.facility, label=self.case.label) \
            .exclude(pk=self.case.pk).first()


def facility_suggestions(user: Any, archive: Archive | None = None) -> list[FacilitySuggestion]:
    """Cases whose photos carry a settled branch number other than their facility's number."""
    number_review.require_reviewer(user)
    rows = settled_readings().filter(kind=NumberReading.Kind.BRANCH, photo__case__isnull=False)
    if archive is not None:
        rows = rows.filter(photo__archive=archive)
    found: dict[tuple[int, str], list[NumberReading]] = defaultdict(list)
    for r in rows:
        if r.photo.case is not None and str(r.photo.case.facility.number or "") != r.number:
            found[(r.photo.case.pk, r.number)].append(r)
    by_number = {str(f.number): f for f in Facility.objects.filter(number__isnull=False)}
    cases = {c.pk: c for c in Case.objects.filter(pk__in={k[0] for k in found}).select_related("facility", "archive")}
    return [FacilitySuggestion(cases[case_id], number, sorted(r.pk for r in rs), by_number.get(number))
            for (case_id, number), rs in sorted(found.items())]


def move_case_to_facility(user: Any, case_id: int, number: str) -> Case:
    """An archivist accepts a facility suggestion: the case moves to the facility that carries the
    settled branch number. Refused when no settled reading of the case says so, when the table has no
    facility of that number, or when the move would merge two cases (not done here)."""
    number_review.require_reviewer(user)
    number = number_review.western_number(number)
    case = Case.objects.select_related("facility").filter(pk=case_id).first()
    if case is None:
        raise UserError(f"no case {case_id}")
    readings = settled_readings().filter(kind=NumberReading.Kind.BRANCH, photo__case=case)
    reading = next((r for r in readings if r.number == number), None)
    if reading is None:
        raise UserError("no confirmed branch number of this case says so")
    target = Facility.objects.filter(number=int(number)).first()
    if target is None:
        raise UserError(f"no facility numbered {number} in the facility table: add it first")
    if target.pk == case.facility_id:
        raise UserError("the case is already in that facility")
    try:
        with transaction.atomic():
            changed = Case.objects.filter(pk=case.pk, facility=case.facility_id).update(
                facility=target, updated_at=timezone.now())
            if not changed:
                raise UserError("the case's facility changed meanwhile: look again")
            record("case.facility_set", object_type="case", object_id=case.pk, actor=f"user:{user.pk}",
                   data={"from": case.facility_id, "to": target.pk, "number_reading": reading.pk})
    except IntegrityError as exc:
        raise UserError("a case with the same label is already in that facility: merging cases is not done "
                        "here") from exc
    return Case.objects.select_related("facility").get(pk=case.pk)


# --- the same number in two archives ---------------------------------------------------------------
def number_joins(user: Any) -> list[dict[str, Any]]:
    """Settled detainee numbers found in photos of two or more archives: possible joins for people
    to decide (a number is the branch's, so two bodies may share one; nothing is joined here)."""
    number_review.require_reviewer(user)
    where: dict[str, dict[int, dict[str, Any]]] = defaultdict(dict)
    for r in settled_readings().filter(kind__in=NUMBER_KINDS_FOR_BODY).order_by("photo_id"):
        archive = where[r.number].setdefault(r.photo.archive_id, {"archive": r.photo.archive.name,
                                                                  "archive_id": r.photo.archive_id,
                                                                  "cases": {}, "photos": []})
        archive["photos"].append(r.photo_id)
        case = r.photo.case
        if case is not None:
            archive["cases"][case.pk] = {"case": case.pk, "case_public_id": str(case.public_id),
                                         "facility": case.facility.code, "label": case.label}
    joins = []
    for number, archives in sorted(where.items()):
        if len(archives) < 2:
            continue
        joins.append({"number": number, "archives": [
            {**a, "cases": list(a["cases"].values()), "photos": sorted(set(a["photos"]))}
            for a in sorted(archives.values(), key=lambda a: a["archive"])]})
    return joins
