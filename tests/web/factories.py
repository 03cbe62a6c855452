"""Small real data for web and API tests: reports, an archive case with every derivative kind."""

from __future__ import annotations

import hashlib
import io
from typing import Any

from django.conf import settings
from PIL import Image, ImageDraw

from athar.archive.imaging import save_derivative
from athar.archive.models import Archive, Case, Derivative, Facility, Photo
from athar.archive.storage import MediaStore


def jpeg_bytes(colour: tuple[int, int, int] = (120, 90, 60), size: int = 64) -> bytes:
    image = Image.new("RGB", (size, size), colour)
    ImageDraw.Draw(image).ellipse((size // 4, size // 4, 3 * size // 4, 3 * size // 4), fill=(200, 180, 160))
    out = io.BytesIO()
    image.save(out, "JPEG")
    return out.getvalue()


def make_case(label: str = "C1", facility_code: str = "215") -> Case:
    """A case with one face photo and every derivative kind (distinct colours per kind)."""
    archive, _ = Archive.objects.get_or_create(name="Test archive")
    facility, _ = Facility.objects.get_or_create(code=facility_code, defaults={"number": int(facility_code)
                                                                               if facility_code.isdigit() else None})
    case = Case.objects.create(archive=archive, facility=facility, label=label, sex="M", marks="scar")
    data = jpeg_bytes()
    sha = hashlib.sha256(data + label.encode()).hexdigest()
    photo = Photo.objects.create(sha256=sha, archive=archive, case=case, original_path=f"{label}/1.jpg",
                                 original_name="1.jpg", size=len(data), kind=Photo.Kind.FACE)
    store = MediaStore(settings.MEDIA_ROOT)
    image = Image.open(io.BytesIO(data))
    for kind in Derivative.Kind.values:
        made = save_derivative(image, sha, kind, store)
        Derivative.objects.create(photo=photo, kind=kind, path=made.relpath, sha256=made.sha256,
                                  width=made.width, height=made.height)
    return case


def make_report(family: Any = None, caseworker: Any = None, name: str = "محمد أحمد", **extra: Any) -> Any:
    from athar.registry.filing import file_report

    draft = {"full_name_ar": name, "face_processing": True, "birth_year": 1985, **extra}
    return file_report(draft, family or caseworker, family, caseworker)


def add_report_photo(report: Any) -> Any:
    from pathlib import Path

    from athar.registry.photos import store_photo

    return store_photo(report, Path("alive.jpg"), jpeg_bytes((30, 60, 90), 200))


def link_person(report: Any) -> Any:
    """Put the report under a missing person in the current linkage run."""
    from athar.registry.models import LinkageRun, MissingPerson, ReportLink

    run = LinkageRun.objects.filter(is_current=True).first() or LinkageRun.objects.create(
        status="done", is_current=True, engine="test", algorithm="test", algorithm_version="1")
    person = MissingPerson.objects.create()
    ReportLink.objects.create(run=run, report=report, person=person, probability=1.0)
    return person


def make_candidate(report: Any, case: Any, likely: bool = True, linked: bool = True, person: Any = None) -> Any:
    """The case as candidate in the report's own current ranking (what its family sees); when
    ``linked``, the report is put under a person (``person`` or a new one) whose ranking, for
    reviewers, holds the case too."""
    from athar.identification.models import Ranking

    if linked:
        person = person or link_person(report)
        if person.rankings.filter(is_current=True).exists():
            staff = person.rankings.get(is_current=True)
        else:
            staff = Ranking.objects.create(person=person, algorithm="test", algorithm_version="1", cases=1,
                                           likely_match=likely, shortlist=1)
        if not staff.candidates.filter(case=case).exists():
            _candidate(staff, case, likely)
    own = Ranking.objects.create(report=report, algorithm="test", algorithm_version="1", cases=1,
                                 likely_match=likely, shortlist=1)
    return _candidate(own, case, likely)


def _candidate(ranking: Any, case: Any, likely: bool) -> Any:
    from athar.identification.models import Candidate

    return Candidate.objects.create(ranking=ranking, case=case, rank=1, score=9.5, probability=0.9,
                                    likely_match=likely,
                                    reasons=[{"feature": "face", "level": "strong", "weight": 6.0,
                                              "detail": "faces very similar"}])


def person_for(candidate: Any) -> Any:
    """The missing person the candidate's report is linked to (families' rankings are per report)."""
    from athar.registry.lookup import person_of

    return candidate.ranking.person or person_of(candidate.ranking.report)
