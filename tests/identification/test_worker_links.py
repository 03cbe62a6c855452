"""The registry links by itself: new or changed reports make the worker run the linkage a little
later (one run for reports arriving together); the persons it makes are those ``athar registry link``
makes, and the run is ranked again like any other."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from athar.identification import jobs
from athar.identification.models import Job
from athar.registry.lookup import current_run, person_of
from tests.web.factories import make_report

pytestmark = pytest.mark.django_db

SAME = {"father_name": "خالد", "mother_name": "فاطمة", "birth_year": 1984, "city": "حمص", "sex": "M",
        "arrest_date": "2012-03-04"}


def _due() -> None:
    Job.objects.filter(kind="link", status=Job.Status.QUEUED).update(run_after=timezone.now())


def test_new_reports_are_linked_by_the_worker_once(make_user: Any) -> None:
    caseworker = make_user("caseworker")
    one = make_report(None, caseworker, name="سامر خالد العلي", **SAME)
    two = make_report(None, caseworker, name="سامر خالد العلي", **SAME)  # the same man, reported twice
    other = make_report(None, caseworker, name="ريم حسن الأحمد", birth_year=1990, sex="F", city="درعا")
    jobs.sweep()
    queued = Job.objects.get(kind="link", status=Job.Status.QUEUED)
    assert queued.run_after > timezone.now()  # a little later: reports arriving together make one run
    jobs.drain("w")
    assert current_run() is None  # not due yet
    make_report(None, caseworker, name="ريم حسن الأحمد", birth_year=1990, sex="F", city="درعا")
    jobs.sweep()
    assert Job.objects.filter(kind="link", status=Job.Status.QUEUED).count() == 1

    _due()
    jobs.drain("w")
    run = current_run()
    assert run is not None and Job.objects.get(kind="link").status == Job.Status.DONE
    assert person_of(one) == person_of(two) != person_of(other)
    persons = {person_of(r).pk for r in (one, two, other)}
    ranked = set(Job.objects.filter(kind="subject", status=Job.Status.DONE).values_list("target", flat=True))
    assert {f"person:{p}" for p in persons} <= ranked  # the regrouped persons were ranked again
    jobs.sweep()
    assert not Job.objects.filter(kind="cases", target="linkage").exists()  # not every subject of the store
    assert not Job.objects.filter(kind="link", status=Job.Status.QUEUED).exists()  # nothing new to link

    jobs.drain("w")
    make_report(None, caseworker, name="خالد عمر الحسن", birth_year=1970, sex="M", city="حماة")
    jobs.sweep()
    _due()
    jobs.drain("w")  # one new person: only it is ranked again
    done = Job.objects.filter(kind="link").order_by("-pk").first()
    assert done is not None and done.result["persons_changed"] == 1
    assert done.result["incremental"] and done.result["new_persons"] == 1  # no full run for one report

    again = make_report(None, caseworker, name="سامر خالد العلي", **SAME)  # a third report of the first man
    jobs.enqueue_for_report(again.pk)  # as the report form does when it is filed
    _due()
    jobs.drain("w")
    done = Job.objects.filter(kind="link").order_by("-pk").first()
    assert done is not None and done.result["incremental"] and done.result["joined"] == 1
    assert person_of(again) == person_of(one) and current_run() == run  # joined in the run in force


def test_the_operator_may_leave_linking_to_the_command(make_user: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("ATHAR_LINK_AFTER_SECONDS", "0")
    make_report(None, make_user("caseworker"), name="سامر خالد العلي", **SAME)
    jobs.sweep()
    assert not Job.objects.filter(kind="link").exists()
