"""The ranking: every case kept and explained, probabilities, the decision, the version."""

from __future__ import annotations

import datetime as dt
import json
from importlib import resources

import numpy as np

from athar.matching.scoring import CaseRecord, CaseTable, PersonFacts, load_algorithm
from athar.matching.scoring.algorithm import Algorithm
from athar.matching.scoring.features import FEATURES

AGENCIES = ["military-intelligence", "military-intelligence", "general-intelligence"]


def _table(n: int = 200) -> CaseTable:
    rng = np.random.default_rng(1)
    return CaseTable.build([
        CaseRecord(i + 1, str(i), ["215", "227", "251"][i % 3], AGENCIES[i % 3], "",
                   str(1000 + i), dt.date(2012, 1 + i % 12, 1), "month", "M" if i % 7 else "F",
                   int(rng.integers(18, 50)), None, ["", "scar above the right eyebrow"][i % 2])
        for i in range(n)])


def _person(**kw: object) -> PersonFacts:
    base = dict(person_id="p", sex="F", birth_year=1970, arrest=dt.date(2013, 12, 1), arrest_precision="month",
                facility_codes=frozenset({"251"}), facility_named=True, marks_text="tattoo of a bird")
    base.update(kw)
    return PersonFacts(**base)  # type: ignore[arg-type]


def test_contradicting_facts_lower_but_never_exclude() -> None:
    table, algorithm = _table(), load_algorithm()
    ranking = algorithm.rank(_person(), table, limit=len(table))
    assert len(ranking.candidates) == len(table) == ranking.cases
    assert np.isfinite(ranking.scores).all()
    assert {c.case_id for c in ranking.candidates} == set(table.case_ids.tolist())


def test_every_candidate_has_a_reason_per_feature_and_the_version() -> None:
    algorithm = load_algorithm()
    ranking = algorithm.rank(_person(sex="M", birth_year=1988, arrest=dt.date(2012, 1, 1)), _table(), limit=3)
    assert ranking.algorithm == "athar-ident" and ranking.version == algorithm.version
    for c in ranking.candidates:
        names = {r.feature for r in c.reasons}
        assert names == {"face"} | {f.name for f in FEATURES}
        assert all(r.detail for r in c.reasons)
        assert abs(sum(r.weight for r in c.reasons) - c.score) < 1e-6


def test_probabilities_sum_at_most_one_and_a_number_match_is_decisive() -> None:
    table, algorithm = _table(), load_algorithm()
    probs = algorithm.probabilities(algorithm.score(_person(), table)[0])
    assert 0 < probs.sum() <= 1
    strong = _person(sex="M", birth_year=1988, arrest=dt.date(2012, 1, 1), facility_codes=frozenset({"227"}),
                     detainee_number="1004", marks_text="scar above the right eyebrow")
    ranking = algorithm.rank(strong, table, limit=1)
    assert ranking.candidates[0].case_id == 5


def test_face_similarity_adds_evidence_and_missing_faces_are_neutral() -> None:
    table, algorithm = _table(), load_algorithm()
    face = np.full(len(table), 0.05)
    face[10] = 0.8
    face[11] = np.nan
    person = PersonFacts("p", has_photo=True)  # nothing else known: the face decides
    ranking = algorithm.rank(person, table, face, limit=1, include=(12,))
    assert ranking.candidates[0].case_id == 11
    by_case = {c.case_id: c for c in ranking.candidates}
    assert any(r.feature == "face" and r.level == "no_face" and r.weight == 0 for r in by_case[12].reasons)


def test_without_photo_the_reason_says_so() -> None:
    ranking = load_algorithm().rank(_person(), _table(), limit=1)
    assert any(r.level == "no_photo" for r in ranking.candidates[0].reasons)


def test_shipped_algorithm_round_trips_through_json() -> None:
    raw = json.loads(resources.files("athar.matching.scoring").joinpath("algorithms/athar-ident-v1.json").read_text())
    algorithm = Algorithm.from_dict(raw)
    assert algorithm.as_dict() == raw
    assert 0.5 <= algorithm.likely_match_probability < 1
