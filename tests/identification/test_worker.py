"""The job queue and ``athar worker``: claimed once, delayed on failure, drained, stopped by a signal."""

from __future__ import annotations

import os
import signal
import threading
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from athar.identification import jobs
from athar.identification.models import Job, Ranking
from athar.identification.worker import run_worker


def test_enqueue_for_report_is_deduplicated_and_the_worker_ranks_it(world: Any) -> None:
    report = world.report()
    assert jobs.enqueue_for_report(report.pk) is not None
    assert jobs.enqueue_for_report(report.pk) is None  # already waiting
    counts = jobs.drain("w1")
    assert counts["failed"] == 0 and counts["done"] >= 1
    ranking = Ranking.objects.get(report=report, is_current=True)
    assert ranking.candidates.first().case == world.cases["palestine"]
    assert ranking.algorithm == "athar-ident"


def test_a_job_is_claimed_by_exactly_one_worker(world: Any) -> None:
    jobs.enqueue("subject", f"report:{world.report().pk}")
    first, second = jobs.claim_next("a"), jobs.claim_next("b")
    assert first is not None and second is None
    assert Job.objects.get(pk=first.pk).locked_by == "a"


def test_the_conditional_update_loses_when_another_worker_won(world: Any, monkeypatch: Any) -> None:
    job = jobs.enqueue("subject", f"report:{world.report().pk}")
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, locked_by="other")  # won meanwhile
    assert jobs.claim_next("late") is None


def test_a_failing_job_is_delayed_not_looped_then_given_up(world: Any) -> None:
    job = jobs.enqueue("subject", "report:999999")
    assert jobs.drain("w")["failed"] == 1
    job.refresh_from_db()
    assert job.status == "queued" and job.run_after > timezone.now() and "DoesNotExist" in job.last_error
    assert jobs.claim_next("w") is None  # not due yet: no busy loop
    Job.objects.filter(pk=job.pk).update(attempts=jobs.MAX_ATTEMPTS - 1, run_after=timezone.now())
    jobs.drain("w")
    job.refresh_from_db()
    assert job.status == "failed" and job.finished_at is not None


def test_stale_running_jobs_are_requeued(world: Any) -> None:
    job = jobs.enqueue("subject", f"report:{world.report().pk}")
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, locked_by="dead",
                                         locked_at=timezone.now() - jobs.STALE_AFTER * 2)
    assert jobs.claim_next("alive").pk == job.pk


def test_sweep_notices_new_reports_and_changed_cases(world: Any) -> None:
    report = world.report()
    assert jobs.sweep()["new_reports"] == 1
    jobs.drain("w")
    assert Ranking.objects.filter(report=report, is_current=True).exists()
    first = Ranking.objects.get(report=report, is_current=True).pk
    case = world.cases["scar"]
    case.marks = "tattoo of a map of Palestine on the left forearm"
    case.save()
    assert jobs.sweep()["cases_changed"] == 1
    jobs.drain("w")  # the cases job fans out into one job per subject
    assert Ranking.objects.get(report=report, is_current=True).pk != first


def test_a_new_linkage_run_reranks_persons(world: Any) -> None:
    jobs.drain("w")
    person = world.person()
    from athar.registry.models import LinkageRun

    LinkageRun.objects.update(is_current=False)
    world.run = LinkageRun.objects.create(status="done", is_current=True, engine="t", algorithm="t",
                                          algorithm_version="1")
    for link in person.links.all():
        link.pk, link.run = None, world.run
        link.save()
    assert jobs.sweep()["queued"] >= 1
    jobs.drain("w")
    assert Ranking.objects.filter(person=person, is_current=True).exists()


def test_enqueue_for_cases_reranks_every_subject(world: Any) -> None:
    person = world.person()
    jobs.drain("w")  # the new report and the linkage run are ranked: nothing else is left to do
    before = Ranking.objects.get(person=person, is_current=True).pk
    assert jobs.drain("w")["done"] == 0
    case = world.cases["scar"]  # a case's facts change (a ranking that comes out the same keeps its rows)
    case.marks = "tattoo of a map of Palestine on the left forearm"
    case.save()
    assert jobs.enqueue_for_cases([case.pk]) is not None
    jobs.drain("w")
    assert Ranking.objects.get(person=person, is_current=True).pk != before


def test_worker_once_command(world: Any, capsys: Any) -> None:
    world.report()
    call_command("worker", "--once", "--json")
    out = capsys.readouterr().out.strip().splitlines()[-1]
    assert '"done":' in out and '"failed":0' in out


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_worker_stops_cleanly_on_sigterm(world: Any) -> None:
    world.report()
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGTERM))
    timer.start()
    result = run_worker(poll=0.1, name="sig")
    timer.join()
    assert result["stopped"] == "signal" and result["failed"] == 0
    assert signal.getsignal(signal.SIGTERM) is not None


def test_a_stored_ranking_is_announced_after_commit(world: Any, django_capture_on_commit_callbacks: Any) -> None:
    """Listeners (the caseworkers' notices) hear of a ranking only once it is committed."""
    from athar.identification.signals import ranking_stored

    heard: list[int] = []

    def listen(sender: Any, ranking: Any, **_: Any) -> None:
        heard.append(ranking.pk)

    ranking_stored.connect(listen)
    try:
        report = world.report()
        jobs.enqueue_for_report(report.pk)
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            jobs.drain("w1")
        assert heard == [] and callbacks  # not before the commit
        for callback in callbacks:
            callback()
        assert heard and heard[-1] == Ranking.objects.get(report=report, is_current=True).pk
    finally:
        ranking_stored.disconnect(listen)
