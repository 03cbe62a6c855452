"""A ranking that comes out the same keeps its rows: the candidate links families hold stay valid."""

from __future__ import annotations

from typing import Any

import pytest

from athar.identification.models import Candidate, Ranking
from athar.identification.ranking import rank_and_store, report_only

pytestmark = pytest.mark.django_db


def test_ranking_again_without_a_change_keeps_the_rows(world: Any) -> None:
    report = world.report()
    first = rank_and_store(report_only(report))
    candidates = set(first.candidates.values_list("pk", flat=True))
    again = rank_and_store(report_only(report))
    assert again.pk == first.pk and set(again.candidates.values_list("pk", flat=True)) == candidates
    assert Ranking.objects.filter(report=report).count() == 1

    case = world.cases["scar"]  # a fact of a case changes: a new ranking, the old one kept as before
    case.marks = "tattoo of a map of Palestine on the left forearm"
    case.save()
    changed = rank_and_store(report_only(report))
    assert changed.pk != first.pk and changed.is_current
    assert not Candidate.objects.filter(pk__in=candidates, ranking__is_current=True).exists()
