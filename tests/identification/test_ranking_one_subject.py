"""A ranking has exactly one subject, a person or a report: the database refuses both and neither
(issue 31; before, only the code that wrote rankings kept to it)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from athar.identification.models import Ranking
from athar.registry.models import MissingPerson
from tests.web.factories import make_report

pytestmark = pytest.mark.django_db


def _ranking(**subject):
    return Ranking.objects.create(algorithm="t", algorithm_version="1", **subject)


def test_a_ranking_of_a_person_or_of_a_report_is_kept(make_user):
    report = make_report(make_user("family"))
    assert _ranking(person=MissingPerson.objects.create()).pk
    assert _ranking(report=report).pk


@pytest.mark.parametrize("both", [True, False])
def test_the_database_refuses_a_ranking_with_both_subjects_or_none(make_user, both):
    subject = {"person": MissingPerson.objects.create(), "report": make_report(make_user("family"))} if both else {}
    with pytest.raises(IntegrityError), transaction.atomic():
        _ranking(**subject)
    assert not Ranking.objects.exists()


def test_an_update_cannot_give_a_ranking_a_second_subject(make_user):
    report = make_report(make_user("family"))
    row = _ranking(report=report)
    with pytest.raises(IntegrityError), transaction.atomic():
        Ranking.objects.filter(pk=row.pk).update(person=MissingPerson.objects.create())
    with pytest.raises(IntegrityError), transaction.atomic():
        Ranking.objects.filter(pk=row.pk).update(report=None)
    row.refresh_from_db()
    assert (row.person_id, row.report_id) == (None, report.pk)
