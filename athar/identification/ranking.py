"""Ranking a missing person (or a report not yet linked to a person) against every case, and
storing the result with the algorithm's name and version."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from django.db import transaction

from athar.archive.models import Case
from athar.identification.faces import face_version, person_vectors
from athar.identification.facts import case_index, facility_table, person_facts
from athar.identification.family_faces import ensure_family_vectors
from athar.identification.models import Candidate, Claim, Ranking
from athar.identification.signals import ranking_stored
from athar.matching.scoring import Algorithm, PersonFacts, load_algorithm
from athar.registry.lookup import current_run, person_of, reports_of
from athar.registry.models import MissingPerson, Report

KEEP = 50  # candidates stored per ranking (plus any case a family has claimed)


@dataclass
class Subject:
    """Who is ranked: a person (all their reports) or a single unlinked report."""

    person: MissingPerson | None
    report: Report | None
    reports: list[Report] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"person:{self.person.pk}" if self.person else f"report:{self.report.pk}"  # type: ignore[union-attr]

    def rankings(self) -> Any:
        if self.person is not None:
            return Ranking.objects.filter(person=self.person)
        return Ranking.objects.filter(report=self.report, person__isnull=True)


def subject_for_person(person: MissingPerson) -> Subject:
    return Subject(person, None, reports_of(person))


def subject_for_report(report: Report) -> Subject:
    person = person_of(report) if report.is_current else None
    return subject_for_person(person) if person else Subject(None, report, [report])


def report_only(report: Report) -> Subject:
    """One report's own evidence, whatever it is linked to: what its family is shown.

    A family sees candidates ranked from its own report, never from another family's report
    linked to the same person (linkage is a staff judgement, not a key to another's data)."""
    return Subject(None, report, [report])


def subject_from_key(key: str) -> Subject:
    kind, _, pk = key.partition(":")
    if kind == "person":
        return subject_for_person(MissingPerson.objects.get(pk=int(pk)))
    return subject_for_report(Report.objects.get(pk=int(pk)))


def all_subject_keys() -> list[str]:
    """Every person of the current linkage run, and every current report not linked to one."""
    run = current_run()
    persons = sorted(set(run.links.values_list("person_id", flat=True))) if run else []
    linked = set(run.links.values_list("report_id", flat=True)) if run else set()
    reports = Report.objects.current_kept().values_list("id", flat=True)
    return [f"person:{p}" for p in persons] + [f"report:{r}" for r in reports.order_by("id") if r not in linked]


def claimed_cases(subject: Subject) -> tuple[int, ...]:
    """Cases someone answered for this subject ("this is him", "not him", "not sure"): they stay in its
    ranking whatever their score. A report's answers hold for every version of it (an edit is no
    reason to show again a case the family already ruled out, or to forget one it named)."""
    if subject.person is not None:
        rows = Claim.objects.filter(person=subject.person)
    elif subject.report is not None:
        rows = Claim.objects.filter(report__lineage=subject.report.lineage)
    else:
        return ()
    return tuple(rows.values_list("case_id", flat=True))


def facts_of(subject: Subject, algorithm: Algorithm, version: str | None = None) -> tuple[PersonFacts, np.ndarray]:
    vectors = person_vectors(subject.reports, str(algorithm.face.get("model", "")), version)
    return person_facts(subject.key, subject.reports, facility_table(), len(vectors) > 0), vectors


def compute(subject: Subject, algorithm: Algorithm | None = None, limit: int = KEEP) -> dict[str, Any]:
    """Rank without storing: the ranking core's answer plus what the store needs.

    Runs in the worker or the CLI, never in a web request: the family's photos are embedded here
    first when they have no vector of the current face model version (``family_faces``)."""
    algorithm = algorithm or load_algorithm()
    pipeline_name = str(algorithm.face.get("pipeline", "arcface"))
    ensure_family_vectors(subject.reports, pipeline_name)
    version = face_version(pipeline_name)
    index = case_index(str(algorithm.face.get("model", "")), version)
    facts, vectors = facts_of(subject, algorithm, version)
    sims = index.faces.similarities(vectors) if facts.has_photo else None
    claimed = claimed_cases(subject)
    ranking = algorithm.rank(facts, index.table, sims, limit=limit, include=claimed)
    in_facility = int(np.isin(index.table.facility, [i for i, c in enumerate(index.table.facility_codes)
                                                      if c in facts.facility_codes]).sum())
    scope = {"facilities": sorted(facts.facility_codes), "cases_in_reported_facilities": in_facility,
             "cases": len(index.table), "to_look_at_first": ranking.shortlist}
    return {"ranking": ranking, "facts": facts, "scope": scope, "algorithm": algorithm}


def rank_and_store(subject: Subject, algorithm: Algorithm | None = None) -> Ranking:
    """Compute and replace the subject's stored ranking in one transaction; a ranking that comes out
    exactly as the stored one keeps the stored rows (a family's candidate links stay valid: a worker
    re-ranking a regrouped person must not turn every link its families hold stale)."""
    out = compute(subject, algorithm)
    ranking, algorithm = out["ranking"], out["algorithm"]
    unchanged = _same_as_current(subject, out)
    if unchanged is not None:
        return unchanged
    with transaction.atomic():
        subject.rankings().filter(is_current=False).delete()
        subject.rankings().current().update(is_current=False)
        row = Ranking.objects.create(
            person=subject.person, report=subject.report if subject.person is None else None,
            algorithm=algorithm.name, algorithm_version=algorithm.version, face_model=str(algorithm.face.get("model", "")),
            has_photo=out["facts"].has_photo, cases=ranking.cases, likely_match=ranking.likely_match,
            shortlist=ranking.shortlist, scope=out["scope"])
        Candidate.objects.bulk_create([
            Candidate(ranking=row, case_id=c.case_id, rank=c.rank, score=round(c.score, 4),
                      probability=c.probability, likely_match=c.likely_match,
                      reasons=[r.as_dict() for r in c.reasons]) for c in ranking.candidates])
        transaction.on_commit(lambda: ranking_stored.send(sender=Ranking, ranking=row))
    return row


def _same_as_current(subject: Subject, out: dict[str, Any]) -> Ranking | None:
    """The stored current ranking when the new one would store exactly the same rows, else None."""
    current = subject.rankings().current().first()
    ranking, algorithm = out["ranking"], out["algorithm"]
    if current is None or (current.algorithm, current.algorithm_version, current.face_model, current.has_photo,
                           current.cases, current.likely_match, current.shortlist, current.scope) != (
            algorithm.name, algorithm.version, str(algorithm.face.get("model", "")), out["facts"].has_photo,
            ranking.cases, ranking.likely_match, ranking.shortlist, json.loads(json.dumps(out["scope"]))):
        return None
    stored = list(current.candidates.order_by("rank").values_list(
        "case_id", "rank", "score", "probability", "likely_match", "reasons"))
    fresh = [(c.case_id, c.rank, round(c.score, 4), c.probability, c.likely_match, [r.as_dict() for r in c.reasons])
             for c in ranking.candidates]
    return current if stored == _json_roundtrip(fresh) else None


def _json_roundtrip(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Rows as the database gives them back (JSON reasons: tuples become lists, floats stay floats)."""
    return [(*row[:5], json.loads(json.dumps(row[5]))) for row in rows]


def rank_with_reports(subject: Subject, algorithm: Algorithm | None = None) -> Ranking:
    """Rank a subject and, for a person, each of its reports on its own evidence (families'
    views); returns the subject's ranking. Erased reports are not ranked."""
    algorithm = algorithm or load_algorithm()
    row = rank_and_store(subject, algorithm)
    if subject.person is not None:
        for report in subject.reports:
            if report.erased_at is None:
                rank_and_store(report_only(report), algorithm)
    return row


def current_ranking(subject: Subject) -> Ranking | None:
    return subject.rankings().current().first()


def ranking_result(row: Ranking, limit: int) -> dict[str, Any]:
    """What ``athar candidates`` prints: the decision and the ranked cases with their reasons."""
    candidates = row.candidates.select_related("case__facility", "case__archive").order_by("rank")[:limit]
    scope = row.scope or {}
    return {
        "subject": {"person": row.person_id, "report": row.report_id},
        "algorithm": row.algorithm, "algorithm_version": row.algorithm_version, "computed_at": row.computed_at,
        "decision": "likely_match" if row.likely_match else "no_likely_match",
        "has_photo": row.has_photo, "cases": row.cases, "to_look_at_first": row.shortlist,
        "cases_in_reported_facilities": scope.get("cases_in_reported_facilities"),
        "reported_facilities": scope.get("facilities", []),
        "candidates": [{
            "rank": c.rank, "case": c.case_id, "case_public_id": str(c.case.public_id), "archive": c.case.archive.name,
            "facility": c.case.facility.code, "facility_name": str(c.case.facility), "label": c.case.label,
            "detainee_number": c.case.detainee_number, "score": round(c.score, 2),
            "probability": round(c.probability, 4), "likely_match": c.likely_match, "reasons": c.reasons,
        } for c in candidates],
    }


def case_exists(case_id: int) -> bool:
    return Case.objects.filter(pk=case_id).exists()


def adopt_report_ranking(report: Report, person: MissingPerson) -> int:
    """A report just given its own person: the person's ranking starts as a copy of the report's
    (the same facts, the same cases; no recomputation inside a web request). The report keeps its
    own ranking, which is what its family sees; the worker re-ranks the person when linkage changes."""
    source = Ranking.objects.current().filter(report=report, person__isnull=True).first()
    if source is None or len(reports_of(person)) != 1 or Ranking.objects.filter(person=person).exists():
        return 0
    with transaction.atomic():
        candidates = list(source.candidates.all())
        source.pk, source.person, source.report = None, person, None
        source.save(force_insert=True)
        for c in candidates:
            c.pk, c.ranking = None, source
        Candidate.objects.bulk_create(candidates)
    return 1
