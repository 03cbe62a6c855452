"""Several ``athar worker`` processes on one queue (docs/deployment.md, "Several workers against
PostgreSQL"): each job is run by exactly one of them, under real concurrent transactions."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from athar.identification import jobs
from athar.identification.models import Job, Ranking
from tests.concurrency import in_threads
from tests.identification.conftest import World, _case

JOBS = 12


@pytest.fixture
def queue_world(transactional_db: None, make_user: Callable[..., Any]) -> World:
    from athar.archive.facility_store import load_starting_table
    from athar.archive.models import Archive
    from athar.registry.models import LinkageRun

    load_starting_table()
    archive = Archive.objects.create(name="queue archive")
    cases = {"palestine": _case(archive, "215", "3412", detainee_number="3412", sex="M", age_min=20, age_max=30),
             "scar": _case(archive, "215", "3413", detainee_number="3413", sex="M", marks="scar")}
    run = LinkageRun.objects.create(status="done", is_current=True, engine="test", algorithm="test",
                                    algorithm_version="1")
    return World(cases, make_user, run)


def test_two_workers_draining_one_queue_run_each_job_once(queue_world: World, monkeypatch: Any) -> None:
    if connection.vendor == "sqlite":  # the guide says one worker on SQLite; its in-memory test
        pytest.skip("database refuses a second writer at once, where a real one waits: PostgreSQL only")
    monkeypatch.setenv("ATHAR_LINK_AFTER_SECONDS", "0")  # ranking jobs only: no linkage run queued
    jobs.drain("set-up")  # the new linkage run and the cases: nothing is ranked yet
    reports = [queue_world.report(detainee_number="3412") for _ in range(JOBS)]
    jobs.sweep()  # one job per new report; the workers' own sweeps find nothing more
    queued = list(Job.objects.filter(status=Job.Status.QUEUED))
    assert sorted(job.target for job in queued) == sorted(f"report:{r.pk}" for r in reports)

    # The race made certain: both workers read the same due jobs before either claims one.
    read_together, read = threading.Barrier(2), jobs.due_job_ids
    first_read = threading.local()

    def due_job_ids(now: Any) -> list[int]:
        ids = read(now)
        if not getattr(first_read, "done", False):
            first_read.done = True
            read_together.wait(timeout=30)
        return ids

    monkeypatch.setattr(jobs, "due_job_ids", due_job_ids)
    outcomes = in_threads(2, lambda i: jobs.drain(f"worker-{i}"))

    assert not [o for o in outcomes if isinstance(o, BaseException)], outcomes
    rows = list(Job.objects.filter(pk__in=[job.pk for job in queued]))
    assert {row.status for row in rows} == {Job.Status.DONE}
    assert [row.attempts for row in rows] == [1] * JOBS  # claimed once: no job was run twice
    for report in reports:  # one ranking per report: a job run twice would have stored two
        assert Ranking.objects.filter(report=report).count() == 1
    assert sum(o["done"] for o in outcomes) == JOBS and sum(o["failed"] for o in outcomes) == 0
