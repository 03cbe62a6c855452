"""From database rows to the plain facts the ranking core compares (athar.matching.scoring).

A missing person's facts are the union of the current reports linked to them: the first known sex,
birth year and arrest date (the most precise), every facility or agency named, every mark described.
Facility names are resolved through the editable facility table in the database.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, Q

from athar.archive.models import Agency, Case, Face, Facility, NumberReading
from athar.identification.faces import case_faces
from athar.matching.scoring import CaseRecord, CaseTable, PersonFacts
from athar.matching.scoring.faces import CaseFaces
from athar.matching.scoring.places import FacilityTable
from athar.registry.models import Report

PRECISION_ORDER = {"day": 0, "month": 1, "year": 2, "unknown": 3}


def facility_table() -> FacilityTable:
    """The editable facility table as it is now."""
    agencies: list[dict[str, Any]] = [dict(a) for a in Agency.objects.values("id", "code", "name_en", "name_ar", "aliases")]
    codes = {a["id"]: a["code"] for a in agencies}
    facilities: list[dict[str, Any]] = [
        {"code": f["code"], "number": f["number"], "name_en": f["name_en"], "name_ar": f["name_ar"],
         "aliases": f["aliases"], "agency": codes.get(f["agency_id"], "")}
        for f in Facility.objects.values("code", "number", "name_en", "name_ar", "aliases", "agency_id")]
    return FacilityTable.from_rows(facilities, agencies)


def report_number(report: Report) -> str:
    """A detainee number the family knows (the report's field; older imports kept it in ``extra``)."""
    if report.detainee_number:
        return report.detainee_number
    extra = report.extra or {}
    for key in ("detainee_number", "رقم المعتقل", "number"):
        if extra.get(key):
            return str(extra[key])
    return ""


def marks_text(reports: list[Report]) -> str:
    """Marks, teeth and medical details together: archive cases record missing or gold teeth, old
    fractures, amputations and scars in one text, and the marks comparison reads them all."""
    texts = (t.strip() for r in reports for t in (r.distinguishing_marks, r.dental, r.medical))
    return "; ".join(t for t in texts if t)


def person_facts(subject_id: str, reports: Iterable[Report], ftable: FacilityTable, has_photo: bool) -> PersonFacts:
    """Merge a person's reports into one set of facts (see the module docstring)."""
    reports = [r for r in reports if r.erased_at is None]
    sex = next((r.sex for r in reports if r.sex in ("M", "F")), "U")
    born = next((r for r in reports if r.birth_year or r.birth_date), None)
    birth_year = (born.birth_year or born.birth_date.year) if born else None  # type: ignore[union-attr]
    dated = sorted((r for r in reports if r.arrest_date), key=lambda r: PRECISION_ORDER.get(r.arrest_date_precision, 3))
    facilities: set[str] = set()
    agencies: set[str] = set()
    for r in reports:
        f, a = ftable.resolve(r.arresting_agency)
        facilities |= f
        agencies |= a
    return PersonFacts(
        person_id=subject_id, sex=sex, birth_year=birth_year,
        birth_year_tolerance=max((r.birth_year_margin for r in reports), default=0),
        arrest=dated[0].arrest_date if dated else None,
        arrest_precision=dated[0].arrest_date_precision if dated else "unknown",
        facility_codes=frozenset(facilities), agency_codes=frozenset(agencies),
        facility_named=any(r.arresting_agency.strip() for r in reports),
        marks_text=marks_text(reports),
        detainee_number=next((report_number(r) for r in reports if report_number(r)), ""),
        has_photo=has_photo,
    )


# Readings that count (one archivist, or two where two were needed) and may be a detainee number:
# said to be one, or of a kind nobody set (the reader does not tell a detainee number from a
# hospital number). Branch and other numbers are never compared with a family's detainee number.
CONFIRMED_NUMBER = (Q(status__in=[NumberReading.Status.CONFIRMED, NumberReading.Status.CORRECTED])
                    & (Q(needs_second=False) | Q(second_by__isnull=False))
                    & Q(kind__in=[NumberReading.Kind.DETAINEE, ""]) & Q(photo__case__isnull=False))


def confirmed_numbers(case_ids: Iterable[int] | None = None) -> dict[int, tuple[str, ...]]:
    """Each case's numbers confirmed in its photos (issue 29), Western digits, sorted."""
    rows = NumberReading.objects.filter(CONFIRMED_NUMBER)
    if case_ids is not None:
        rows = rows.filter(photo__case__in=list(case_ids))
    found: dict[int, set[str]] = {}
    for case_id, text, corrected in rows.values_list("photo__case", "text", "corrected_text"):
        found.setdefault(case_id, set()).add(corrected or text)
    return {case_id: tuple(sorted(numbers)) for case_id, numbers in found.items()}


def case_records() -> list[CaseRecord]:
    """Every case's facts (two queries, no model objects)."""
    rows = Case.objects.values_list(
        "id", "label", "facility__code", "facility__agency__code", "facility__name_en", "detainee_number",
        "photographed", "photographed_precision", "sex", "age_min", "age_max", "marks").order_by("id")
    confirmed = confirmed_numbers()
    return [CaseRecord(r[0], r[1], r[2] or "", r[3] or "", r[4] or r[2] or "", r[5], r[6], r[7], r[8], r[9], r[10],
                       r[11], confirmed.get(r[0], ())) for r in rows.iterator(chunk_size=5000)]


@dataclass
class CaseIndex:
    """The case table and case faces, built once and reused while nothing changed."""

    table: CaseTable
    faces: CaseFaces
    stamp: tuple[Any, ...]


_lock = threading.Lock()
_cache: dict[str, CaseIndex] = {}


def _stamp() -> tuple[Any, ...]:
    cases = Case.objects.aggregate(n=Max("id"), u=Max("updated_at"))
    numbers = NumberReading.objects.filter(CONFIRMED_NUMBER).aggregate(
        n=Count("id"), d=Max("decided_at"), s=Max("second_at"))  # a confirmation changes the facts
    return (Case.objects.count(), cases["n"], cases["u"], Face.objects.count(), Face.objects.aggregate(m=Max("id"))["m"],
            Facility.objects.count(), Agency.objects.count(), numbers["n"], numbers["d"], numbers["s"])


def case_index(face_model: str, face_version: str | None = None) -> CaseIndex:
    """The current case index for one face model and version (rebuilt when cases, faces or
    facilities change)."""
    stamp, key = _stamp(), f"{face_model}@{face_version}"
    with _lock:
        cached = _cache.get(key)
        if cached is not None and cached.stamp == stamp:
            return cached
        table = CaseTable.build(case_records())
        index = CaseIndex(table, case_faces(table, face_model, face_version), stamp)
        _cache[key] = index
        return index


def case_record(case: Case) -> CaseRecord:
    """One case's facts, as the ranking core sees them."""
    agency = case.facility.agency.code if case.facility.agency is not None else ""
    return CaseRecord(case.pk, case.label, case.facility.code, agency, case.facility.name_en or case.facility.code,
                      case.detainee_number, case.photographed, case.photographed_precision, case.sex, case.age_min,
                      case.age_max, case.marks, confirmed_numbers([case.pk]).get(case.pk, ()))
