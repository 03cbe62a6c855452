"""A database-backed job queue for recomputing rankings (after healthchecks' ``sendalerts``).

- A job is claimed with a conditional UPDATE (``status=queued`` → ``running``) that must change
  exactly one row, so several workers can share one queue safely, on SQLite or PostgreSQL.
- A failing job is delayed (exponential back-off), never retried in a loop; after MAX_ATTEMPTS it
  stays ``failed`` with its error. The worker running a job beats it every few seconds
  (``worker_state.Heartbeat``); a job whose beat stopped for JOB_STALE (its worker was killed) is
  taken back by the next claim — within a minute. A job claimed without a beat (an older athar) is
  taken back after STALE_AFTER.
- Others call ``enqueue_for_report(report_id)``, ``enqueue_for_cases(case_ids)``,
  ``enqueue_for_archive(archive_id)`` or ``enqueue_for_linkage()`` when reports, cases or archives arrive; the worker's sweep
  also notices new reports, changed cases and a new linkage run by itself (watermarks), so
  nothing is missed.
"""

from __future__ import annotations

import datetime as dt
import os
import socket
import traceback
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import F, Max, Q
from django.utils import timezone

from athar.archive.ingest_jobs import run_queued_ingest
from athar.archive.models import Case
from athar.config import env_int
from athar.core.errors import UserError
from athar.identification.models import Job, Ranking, Watermark
from athar.identification.ranking import (
    all_subject_keys,
    rank_with_reports,
    subject_from_key,
)
from athar.registry.importing import run_queued_import
from athar.registry.lookup import current_run
from athar.registry.models import Report

MAX_ATTEMPTS = 5
STALE_AFTER = dt.timedelta(minutes=15)
JOB_STALE = dt.timedelta(seconds=45)  # heartbeat every 5 s: nine missed beats mean the worker is gone
BACKOFF_SECONDS = 30


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def enqueue(kind: str, target: str = "", delay: float = 0) -> Job | None:
    """Queue a job unless the same one is already waiting (then None)."""
    if Job.objects.filter(kind=kind, target=target, status=Job.Status.QUEUED).exists():
        return None
    return Job.objects.create(kind=kind, target=target, run_after=timezone.now() + dt.timedelta(seconds=delay))


def enqueue_for_report(report_id: int) -> Job | None:
    """A report was filed, imported or changed: link it (``ATHAR_LINK_AFTER_SECONDS`` later) and rank
    its person (or the report itself) again."""
    enqueue_link()
    return _enqueue_ranking(report_id)


def _enqueue_ranking(report_id: int) -> Job | None:
    return enqueue("subject", f"report:{int(report_id)}")


def enqueue_link() -> Job | None:
    """New or changed reports to link, a little later (``ATHAR_LINK_AFTER_SECONDS``: reports arriving
    together make one job); never when the operator leaves linking to ``athar registry link`` (0)."""
    delay = env_int("ATHAR_LINK_AFTER_SECONDS")
    return enqueue("link", "registry", delay=delay) if delay > 0 else None


def enqueue_for_reports(report_ids: Iterable[int]) -> int:
    """``enqueue_for_report`` for many: one link job for all of them."""
    ids = list(report_ids)
    if ids:
        enqueue_link()
    return sum(_enqueue_ranking(r) is not None for r in ids)


def enqueue_for_person(person_id: int) -> Job | None:
    return enqueue("subject", f"person:{int(person_id)}")


def enqueue_for_cases(case_ids: Iterable[int]) -> Job | None:
    """Cases were added or their facts edited: every subject may rank them differently."""
    ids = sorted({int(c) for c in case_ids})
    return enqueue("cases", ",".join(map(str, ids[:200])) + ("…" if len(ids) > 200 else "")) if ids else None


def enqueue_for_archive(archive_id: int) -> Job | None:
    """An archive was ingested (new cases and faces)."""
    return enqueue("cases", f"archive:{int(archive_id)}")


def on_archive_ingested(sender: Any, archive_id: int, **_: Any) -> None:
    """``archive.signals.archive_ingested``: new cases and faces to rank against."""
    enqueue_for_archive(archive_id)


def on_faces_indexed(sender: Any, faces: int = 0, **_: Any) -> None:
    """``archive.signals.faces_indexed``: new faces to compare every subject's photos with."""
    enqueue("cases", "faces")


def claim_next(name: str | None = None) -> Job | None:
    """Claim the next due job: exactly one worker wins each job."""
    name = name or worker_name()
    _requeue_stale()
    now = timezone.now()
    for job_id in due_job_ids(now):
        won = Job.objects.filter(id=job_id, status=Job.Status.QUEUED).update(
            status=Job.Status.RUNNING, locked_by=name, locked_at=now, heartbeat_at=now, attempts=F("attempts") + 1)
        if won == 1:
            return Job.objects.get(id=job_id)
    return None


def due_job_ids(now: dt.datetime) -> list[int]:
    """The next due jobs, read before claiming: another worker may read the same and win any of
    them (the conditional update decides)."""
    return list(Job.objects.filter(status=Job.Status.QUEUED, run_after__lte=now).values_list("id", flat=True)[:20])


def _requeue_stale() -> None:
    now = timezone.now()
    silent = Q(heartbeat_at__lt=now - JOB_STALE) | Q(heartbeat_at__isnull=True, locked_at__lt=now - STALE_AFTER)
    Job.objects.filter(silent, status=Job.Status.RUNNING).update(
        status=Job.Status.QUEUED, locked_by="", heartbeat_at=None,
        last_error="requeued: the worker stopped while running it")


def run_job(job: Job, beat: Any = None) -> bool:
    """Run one claimed job; on failure delay it (or give up after MAX_ATTEMPTS). True when done."""
    if beat is not None:
        beat.job_started(job)
    ok = _run_job(job)
    if beat is not None:
        beat.job_finished(job, ok)
    return ok


def _run_job(job: Job) -> bool:
    try:
        result = _dispatch(job)
    except Exception as exc:  # noqa: BLE001 - recorded on the job, the worker carries on
        failed = job.attempts >= MAX_ATTEMPTS
        delay = dt.timedelta(seconds=BACKOFF_SECONDS * 2 ** (job.attempts - 1))
        Job.objects.filter(pk=job.pk).update(
            status=Job.Status.FAILED if failed else Job.Status.QUEUED, run_after=timezone.now() + delay,
            locked_by="", heartbeat_at=None, last_error=f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=5)}"[:4000],
            finished_at=timezone.now() if failed else None)
        return False
    Job.objects.filter(pk=job.pk).update(status=Job.Status.DONE, finished_at=timezone.now(), result=result,
                                         last_error="")
    return True


def _dispatch(job: Job) -> dict[str, Any]:
    if job.kind == "subject":
        row = rank_with_reports(subject_from_key(job.target))
        return {"ranking": row.pk, "likely_match": row.likely_match}
    if job.kind == "cases":
        keys = all_subject_keys()
        return {"queued": sum(enqueue("subject", k) is not None for k in keys), "subjects": len(keys)}
    if job.kind == "sweep":
        return sweep()
    if job.kind == "import":  # a file uploaded on the caseworker's import page
        return run_queued_import(int(job.target.removeprefix("batch:")))
    if job.kind == "link":  # reports arrived or changed: the registry links them by itself
        return link_registry(full=job.target == "full")
    if job.kind == "ingest":  # a folder on the server, asked for on the archivists' page
        return run_queued_ingest(int(job.target.removeprefix("run:")))
    raise UserError(f"unknown job kind {job.kind!r}")


def sweep() -> dict[str, int]:
    """Queue work for reports and cases that arrived without a call to enqueue_*."""
    with transaction.atomic():
        mark_r, _ = Watermark.objects.select_for_update().get_or_create(name="reports")
        mark_c, _ = Watermark.objects.select_for_update().get_or_create(name="cases")
        last_report = int(mark_r.value or 0)
        new_reports = list(Report.objects.current().filter(pk__gt=last_report).values_list("id", flat=True))
        cases = Case.objects.aggregate(n=Max("id"), u=Max("updated_at"))
        case_stamp = f"{cases['n'] or 0}|{cases['u'].isoformat() if cases['u'] else ''}"
        changed = case_stamp != mark_c.value and (cases["n"] or 0) > 0
        queued = sum(_enqueue_ranking(r) is not None for r in new_reports)  # linked once: below
        if changed and (mark_c.value or Ranking.objects.exists()):
            queued += enqueue("cases", "sweep") is not None
        queued += _linkage_changed()
        queued += _reports_to_link(new_reports)
        newest = Report.objects.aggregate(m=Max("id"))["m"] or last_report
        Watermark.objects.filter(pk=mark_r.pk).update(value=str(newest))
        Watermark.objects.filter(pk=mark_c.pk).update(value=case_stamp)
    return {"new_reports": len(new_reports), "cases_changed": int(changed), "queued": queued}


def _linkage_changed() -> int:
    """A new linkage run regroups reports into persons: every subject is ranked again."""
    run = current_run()
    mark, _ = Watermark.objects.select_for_update().get_or_create(name="linkage")
    stamp = str(run.pk) if run else ""
    if stamp == mark.value:
        return 0
    Watermark.objects.filter(pk=mark.pk).update(value=stamp)
    return int(enqueue_for_linkage() is not None) if stamp else 0


def _reports_to_link(new_reports: list[int]) -> int:
    """New or changed reports: one linkage run, a little later (``ATHAR_LINK_AFTER_SECONDS``), so
    that a file imported in chunks or a family filing several reports is linked once."""
    if not new_reports:
        return 0
    return int(enqueue_link() is not None)


def link_registry(full: bool = False) -> dict[str, Any]:
    """The worker's linkage: the new and changed reports, incrementally (``registry.incremental``:
    each joins, or opens, a person in a fraction of a second); a full run over every current report
    (``registry.linkage.link_all``) when asked (``full``), when no run with its block index is in
    force, or when too many reports wait. Reviewer decisions in force, persons kept stable. Only the
    persons whose reports changed are ranked again (a run after one new report would otherwise rank
    every person and report of the store again, and every family's candidate links would turn
    stale); families' own rankings follow their own report, never the linkage."""
    from athar.registry.incremental import link_waiting
    from athar.registry.linkage import link_all

    done = None if full else link_waiting()
    if done is not None:
        queued = sum(enqueue_for_person(p) is not None for p in done["persons_changed"])
        return {**done, "persons_changed": len(done["persons_changed"]), "queued": queued}
    before = _reports_by_person()
    result = link_all()
    after = _reports_by_person()
    changed = sorted(p for p, reports in after.items() if before.get(p) != reports)
    with transaction.atomic():  # this run's regrouping is handled here, not by the sweep's full re-rank
        mark, _ = Watermark.objects.select_for_update().get_or_create(name="linkage")
        Watermark.objects.filter(pk=mark.pk).update(value=str(result["run"]))
    queued = sum(enqueue_for_person(p) is not None for p in changed)
    summary: dict[str, Any] = {k: result[k] for k in ("run", "reports", "persons", "new_persons", "review_pairs")
                               if k in result}
    return {**summary, "persons_changed": len(changed), "queued": queued}


def _reports_by_person() -> dict[int, frozenset[int]]:
    """person → the report versions the current run links to it (a new version is a change)."""
    from collections import defaultdict

    from athar.registry.models import ReportLink

    run = current_run()
    if run is None:
        return {}
    out: dict[int, set[int]] = defaultdict(set)
    for person, report in ReportLink.objects.filter(run=run).values_list("person_id", "report_id").iterator(
            chunk_size=20_000):
        out[person].add(report)
    return {p: frozenset(r) for p, r in out.items()}


def enqueue_import(batch_id: int) -> Job | None:
    """A file uploaded in the web waits for the worker (``registry.importing.run_queued_import``)."""
    return enqueue("import", f"batch:{int(batch_id)}")


def enqueue_ingest(run_id: int) -> Job | None:
    """An ingest asked for in the web waits for the worker (``archive.ingest_jobs.run_queued_ingest``)."""
    return enqueue("ingest", f"run:{int(run_id)}")


def enqueue_for_linkage() -> Job | None:
    """A linkage run finished (reports regrouped into persons): rank every subject again."""
    return enqueue("cases", "linkage")


def drain(name: str | None = None, limit: int | None = None, beat: Any = None) -> dict[str, int]:
    """Sweep, then run due jobs until none is left (``athar worker --once``); ``beat`` (a
    ``worker_state.Heartbeat``) hears of each job."""
    counts = {"done": 0, "failed": 0}
    sweep()
    while limit is None or counts["done"] + counts["failed"] < limit:
        job = claim_next(name)
        if job is None:
            break
        ok = run_job(job, beat)
        counts["done" if ok else "failed"] += 1
    return counts
