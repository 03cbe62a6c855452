"""Scores that cannot be misread: never 100 %, and facts alone are capped and labelled."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import translation

from athar.identification.comparison import FACTS_ONLY_CEILING, evidence_basis, score_scale

NUMBER = {"feature": "number", "level": "same_number_same_facility", "weight": 9.0}
BRANCH = {"feature": "facility", "level": "same_facility", "weight": 2.0}
FACE = {"feature": "face", "level": "similarity", "weight": 5.0}
NO_FACE = {"feature": "face", "level": "no_face", "weight": 0.0}


def candidate(probability: float, reasons: list[dict]) -> SimpleNamespace:
    ranking = SimpleNamespace(algorithm="athar-ident")
    return SimpleNamespace(ranking=ranking, probability=probability, reasons=reasons, likely_match=True,
                           rank=1, score=12.0)


def test_a_number_and_a_branch_alone_are_not_shown_as_certainty():
    scale = score_scale(candidate(0.9999, [NO_FACE, NUMBER, BRANCH]))
    assert scale["percent"] == f"{round(FACTS_ONLY_CEILING * 100)}%" and scale["capped"]
    assert scale["basis"] == "facts" and scale["probability"] == 0.9999  # the ranking's value is kept
    with translation.override("en"):
        assert "facts agree" in str(score_scale(candidate(0.9999, [NUMBER]))["basis_label"])


def test_a_compared_face_is_never_shown_as_100_per_cent():
    scale = score_scale(candidate(0.9996, [FACE, NUMBER]))
    assert scale["percent"] == "99%" and scale["basis"] == "face"


@pytest.mark.parametrize("reasons,basis", [([FACE], "face"), ([NO_FACE, NUMBER], "facts"), ([], "facts"),
                                           ([{"feature": "forensic", "level": "match"}], "forensic"),
                                           ([{"feature": "forensic", "level": "exclusion"}], "facts")])
def test_what_the_probability_rests_on(reasons, basis):
    assert evidence_basis(reasons) == basis


def test_below_the_ceiling_nothing_changes():
    scale = score_scale(candidate(0.874, [NUMBER]))
    assert scale["percent"] == "87%" and not scale["capped"]
