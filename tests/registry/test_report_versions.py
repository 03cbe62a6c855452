"""One current version per report, held by the database, whoever saves at the same moment (SQLite
and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from athar.core.errors import UserError
from athar.registry.filing import amend_report, draft_from_report
from athar.registry.models import Report
from tests.concurrency import in_threads
from tests.web.factories import make_report


def _changed(report: Report, **changes: Any) -> dict[str, Any]:
    return {**draft_from_report(report), **changes}


@pytest.mark.django_db(transaction=True)
def test_two_saves_of_one_report_at_once_make_one_new_version(make_user: Callable[..., Any]) -> None:
    family = make_user("family")
    report = make_report(family, name="محمد أحمد")
    drafts = [_changed(report, full_name_ar=name) for name in ("محمد أحمد الخطيب", "محمد أحمد الحلبي")]
    outcomes = in_threads(2, lambda i: amend_report(Report.objects.get(pk=report.pk), drafts[i], family))
    made = [o for o in outcomes if isinstance(o, Report)]
    refused = [o for o in outcomes if isinstance(o, UserError)]
    assert (len(made), len(refused)) == (1, 1), outcomes
    versions = Report.objects.filter(lineage=report.lineage)
    assert versions.count() == 2
    assert list(versions.filter(is_current=True).values_list("pk", flat=True)) == [made[0].pk]
    assert made[0].version == 2 and made[0].supersedes_id == report.pk


@pytest.mark.django_db
def test_the_database_refuses_a_second_current_version(make_user: Callable[..., Any]) -> None:
    """The constraint, not the code path: a direct insert cannot make two current versions."""
    report = make_report(make_user("family"))
    with pytest.raises(IntegrityError), transaction.atomic():
        Report.objects.create(source=report.source, report_id=report.report_id, lineage=report.lineage,
                              version=2, content_hash="x", is_current=True)
    Report.objects.filter(pk=report.pk).update(is_current=False)
    Report.objects.create(source=report.source, report_id=report.report_id, lineage=report.lineage,
                          version=2, content_hash="x", is_current=True)


@pytest.mark.django_db
def test_saving_an_old_version_again_is_refused_and_writes_nothing(make_user: Callable[..., Any]) -> None:
    family = make_user("family")
    report = make_report(family)
    amend_report(report, _changed(report, full_name_ar="محمد أحمد الخطيب"), family)
    with pytest.raises(UserError):
        amend_report(report, _changed(report, full_name_ar="محمد أحمد الحلبي"), family)
    assert Report.objects.filter(lineage=report.lineage).count() == 2
