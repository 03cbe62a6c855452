from __future__ import annotations

import numpy as np
import pytest

from athar.matching.faces.calibration import Calibration, fit_logistic, load_calibration
from athar.matching.faces.combine import probe_vector, score_case
from athar.matching.faces.evaluation import identification_metrics, score_matrix
from athar.matching.faces.models_registry import DEFAULT_MODEL, get_face_model


def test_fit_logistic_recovers_a_known_curve() -> None:
    rng = np.random.default_rng(0)
    s = rng.uniform(-1, 1, 20000)
    y = rng.uniform(size=s.size) < 1 / (1 + np.exp(-(8 * s - 2)))
    a, b = fit_logistic(s, y.astype(float))
    assert a == pytest.approx(8, rel=0.1) and b == pytest.approx(-2, abs=0.2)


def test_shipped_calibration_is_monotonic_with_a_sane_threshold() -> None:
    cal = load_calibration(get_face_model(DEFAULT_MODEL).name)
    probs = [cal.probability(s) for s in np.linspace(-1, 1, 41)]
    assert all(p2 >= p1 for p1, p2 in zip(probs, probs[1:]))
    assert cal.likely_match(0.95) and not cal.likely_match(0.0)
    assert cal.likely_match(cal.score_threshold() + 1e-3)
    assert not cal.likely_match(cal.score_threshold() - 1e-3)


def test_calibration_round_trips_as_json(tmp_path) -> None:  # type: ignore[no-untyped-def]
    c = Calibration("m", "v", 10.0, -5.0, 0.9, "platt", "toy")
    c.save(tmp_path / "c.json")
    assert '"a": 10.0' in (tmp_path / "c.json").read_text()


def test_score_case_methods() -> None:
    p = np.array([[1, 0, 0], [0.8, 0.6, 0]], np.float32)
    c = np.array([[0, 0, 1], [0.9, 0.43589, 0]], np.float32)  # second face matches
    assert score_case(p, c, "mean-max") > 0.9
    assert score_case(p, c, "max-max") > score_case(p, c, "mean-cos")
    assert np.linalg.norm(probe_vector(p)) == pytest.approx(1.0)
    assert score_case(p, np.zeros((0, 3), np.float32)) == -1.0


def test_metrics_on_a_toy_matrix() -> None:
    probes = [np.eye(3, dtype=np.float32)[i : i + 1] for i in range(3)]
    cases = [np.eye(3, dtype=np.float32)[i : i + 1] for i in (0, 1)]
    s = score_matrix(probes, cases)
    m = identification_metrics(s, [0, 1, -1], [True, True, True], lambda x: x > 0.5)
    assert m["rank1"] == 1.0 and m["median_rank"] == 1.0 and m["false_match_rate"] == 0.0
    assert m["true_match_rate"] == 1.0 and m["absent_probes"] == 1.0
    m = identification_metrics(s, [0, 1, -1], [False, True, True], lambda x: x > 0.5)
    assert m["rank1"] == 0.5  # a probe without a face counts as ranked last


def test_several_photos_have_their_own_fit_and_one_photo_keeps_the_first() -> None:
    several = {"a": 12.0, "b": -4.0, "threshold": 0.98, "data": "two photos"}
    c = Calibration("m", "v", 10.0, -5.0, 0.9, "platt", "toy", several=several)
    assert c.for_photos(1) is c and c.for_photos(0) is c
    two = c.for_photos(2)
    assert (two.a, two.b, two.threshold, two.photos) == (12.0, -4.0, 0.98, "several")
    assert c.for_photos(5) == two
    assert two.probability(0.5) == pytest.approx(1 / (1 + np.exp(-(12.0 * 0.5 - 4.0))))
    plain = Calibration("m", "v", 10.0, -5.0, 0.9, "platt", "toy")
    assert plain.for_photos(3) is plain  # no several fit: the one-photo curve


def test_several_fit_round_trips_as_json(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    c = Calibration("m", "v", 10.0, -5.0, 0.9, "platt", "toy", several={"a": 1.0, "b": 0.0, "threshold": 0.5})
    c.save(tmp_path / "c.json")
    assert Calibration(**json.loads((tmp_path / "c.json").read_text())).for_photos(2).a == 1.0


def test_a_several_photo_face_score_is_moved_to_the_one_photo_scale(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The ranking's face weight was fitted on one photo: a two-photo score keeps its calibrated odds."""
    import athar.matching.scoring.faces as scoring_faces
    from athar.matching.scoring.faces import CaseFaces

    cal = Calibration("m", "v", 10.0, -3.0, 0.99, "platt", "toy", several={"a": 8.0, "b": -3.5, "threshold": 0.99})
    monkeypatch.setattr(scoring_faces, "load_calibration", lambda model: cal)
    faces = CaseFaces.build({0: np.array([[1.0, 0.0]], np.float32), 1: np.array([[0.0, 1.0]], np.float32)}, 3, 2, "m")
    one = faces.similarities(np.array([[0.8, 0.6]], np.float32))
    assert one[:2] == pytest.approx([0.8, 0.6]) and np.isnan(one[2])
    two = faces.similarities(np.array([[0.8, 0.6], [0.8, 0.6]], np.float32))
    assert two[:2] == pytest.approx([(8.0 * 0.8 - 3.5 + 3.0) / 10.0, (8.0 * 0.6 - 3.5 + 3.0) / 10.0])
    assert np.isnan(two[2])
    for s1, s2 in zip(one[:2], two[:2]):  # the same log-odds under each photo count's own fit
        assert cal.probability(float(s2)) == pytest.approx(cal.for_photos(2).probability(float(s1)))
