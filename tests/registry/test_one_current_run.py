"""One current linkage run, held by the database (``linkage_one_current_run``), whoever opens the
first run at the same moment (SQLite and PostgreSQL), and the migration that brings an older store
to it."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, transaction

from athar.registry.lookup import ensure_person, person_of
from athar.registry.models import LinkageRun, MissingPerson, ReportLink
from tests.concurrency import in_threads
from tests.web.factories import make_report


def _run(**extra: Any) -> LinkageRun:
    return LinkageRun.objects.create(engine="test", algorithm="test", algorithm_version="1",
                                     status=LinkageRun.Status.DONE, **extra)


@pytest.mark.django_db
def test_the_database_refuses_a_second_current_run() -> None:
    """The constraint, not the code path: a direct insert cannot make two current runs."""
    first = _run(is_current=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        _run(is_current=True)
    _run(is_current=False)  # any number of past runs
    LinkageRun.objects.filter(pk=first.pk).update(is_current=False)
    _run(is_current=True)


@pytest.mark.django_db(transaction=True)
def test_two_first_reports_filed_at_once_share_one_current_run(make_user: Callable[..., Any]) -> None:
    """Before any linkage run, two families' first claims open the provisional run at once: one run
    is opened, both reports are linked in it, each to a person of its own."""
    reports = [make_report(make_user("family"), name=name) for name in ("محمد أحمد", "خالد عمر")]
    outcomes = in_threads(2, lambda i: ensure_person(reports[i]))
    assert all(isinstance(o, MissingPerson) for o in outcomes), outcomes
    current = LinkageRun.objects.get(is_current=True)
    assert LinkageRun.objects.count() == 1
    assert sorted(ReportLink.objects.filter(run=current).values_list("report_id", flat=True)) == sorted(r.pk for r in reports)
    assert person_of(reports[0]) != person_of(reports[1])


@pytest.mark.django_db
def test_the_migration_keeps_the_first_current_run_and_moves_the_others_links(make_user: Callable[..., Any]) -> None:
    """A store from before the constraint may hold two current runs (two provisional runs opened at
    once on PostgreSQL): the first stays current and every report keeps its person."""
    with connection.cursor() as cursor:  # the store as it was before the migration (rolled back with the test)
        cursor.execute("DROP INDEX linkage_one_current_run")
    shared, only_second = make_report(make_user("family")), make_report(make_user("family"), name="خالد عمر")
    first, second = _run(is_current=True), _run(is_current=True)
    persons = [MissingPerson.objects.create() for _ in range(3)]
    ReportLink.objects.create(run=first, report=shared, person=persons[0])
    ReportLink.objects.create(run=second, report=shared, person=persons[1])
    ReportLink.objects.create(run=second, report=only_second, person=persons[2])

    importlib.import_module("athar.registry.migrations.0011_linkage_one_current_run").keep_one_current_run(apps, None)

    assert list(LinkageRun.objects.filter(is_current=True).values_list("pk", flat=True)) == [first.pk]
    assert person_of(shared) == persons[0] and person_of(only_second) == persons[2]
