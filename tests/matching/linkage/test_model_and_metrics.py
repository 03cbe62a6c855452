"""Model JSON, metrics, preparation and the synthetic generator."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from athar.matching.linkage import (
    TEMPLATE_COLUMNS,
    LinkageModel,
    default_model,
    evaluate_clusters,
    generate_reports,
    prepare_reports,
    template_to_linkage_input,
    train_model,
    write_template_csv,
)
from athar.matching.linkage.prepare import governorate_id, parse_date


def test_default_model_json_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    model = default_model()
    assert model.algorithm == "athar-linkage" and model.version == 1
    path = model.save(tmp_path / "m.json")
    again = LinkageModel.load(path)
    assert again.to_dict() == model.to_dict()
    data = json.loads(path.read_text())
    assert "first_name" in data["parameters"] and "same name" in data["parameters"]["first_name"]


def test_model_version_is_checked() -> None:
    data = default_model().to_dict()
    data["version"] = 99
    with pytest.raises(ValueError, match="version"):
        LinkageModel.from_dict(data)


def test_training_is_deterministic_and_round_trips() -> None:
    reports = template_to_linkage_input(generate_reports(2500, seed=5))
    a = train_model(reports, seed=1, max_pairs=2e5)
    b = train_model(reports, seed=1, max_pairs=2e5)
    assert a.to_json() == b.to_json()
    assert LinkageModel.from_json(a.to_json()).to_dict() == a.to_dict()


def test_metrics_by_hand() -> None:
    truth = ["p1", "p1", "p1", "p2", "p2"]
    pred = ["c1", "c1", "c2", "c2", "c2"]
    m = evaluate_clusters(pred, truth)
    # true pairs: (0,1),(0,2),(1,2),(3,4) = 4; predicted: (0,1),(2,3),(2,4),(3,4) = 4; common 2
    assert m["pairwise_precision"] == pytest.approx(0.5) and m["pairwise_recall"] == pytest.approx(0.5)
    assert m["bcubed_precision"] == pytest.approx((1 + 1 + 1 / 3 + 2 / 3 + 2 / 3) / 5)
    assert m["bcubed_recall"] == pytest.approx((2 / 3 + 2 / 3 + 1 / 3 + 1 + 1) / 5)
    perfect = evaluate_clusters(truth, truth)
    assert all(v == pytest.approx(1.0) for v in perfect.values())


def test_parse_date_precision() -> None:
    assert parse_date("2012-03-04") == (2012, 3, "day")
    assert parse_date("2012-03") == (2012, 3, "month")
    assert parse_date("2012") == (2012, None, "year")
    assert parse_date("٢٠١٢-٠٣") == (2012, 3, "month")
    assert parse_date("") == (None, None, None)


def test_governorate_in_both_scripts() -> None:
    assert governorate_id("حمص") == governorate_id("Homs") == "homs"
    assert governorate_id("دير الزور") == governorate_id("Deir ez-Zor")


def test_prepare_takes_parts_from_full_name() -> None:
    out = prepare_reports([{"unique_id": 1, "full_name": "عبد الرحمن خالد الحسن", "birth_year": "1980"},
                           {"unique_id": 2, "full_name": "Abdulrahman Khaled al-Hasan", "birth_year": None}])
    assert out.loc[0, "first_id"] == out.loc[1, "first_id"] == "abd al-rahman"
    assert out.loc[0, "family_blk"] == out.loc[1, "family_blk"]
    assert pd.isna(out.loc[1, "birth_year"])


def test_generator_is_deterministic_and_writes_template(tmp_path) -> None:  # type: ignore[no-untyped-def]
    a, b = generate_reports(500, seed=3), generate_reports(500, seed=3)
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns) == TEMPLATE_COLUMNS + ["person_id"]
    assert a["person_id"].nunique() < len(a)  # several reports per person
    assert (a["full_name_ar"] != "").any() and (a["full_name_latin"] != "").any()
    path = write_template_csv(tmp_path / "reports.csv", 200, seed=3)
    written = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert len(written) == 200 and list(written.columns) == TEMPLATE_COLUMNS + ["person_id"]


def test_recall_with_review_counts_true_pairs_a_reviewer_can_join() -> None:
    from athar.matching.linkage.evaluate import recall_with_review

    truth = {1: "a", 2: "a", 3: "a", 4: "b", 5: "b"}
    predicted = {1: "x", 2: "x", 3: "y", 4: "z", 5: "w"}  # a split in 3, b not linked
    assert recall_with_review(predicted, truth, []) == 1 / 4  # only (1, 2) of 4 true pairs
    # a review pair of the same person joins the clusters: all of a's pairs are reached
    assert recall_with_review(predicted, truth, [(2, 3)]) == 3 / 4
    # a review pair of two different persons joins nothing (the reviewer says "different")
    assert recall_with_review(predicted, truth, [(3, 4)]) == 1 / 4
    assert recall_with_review(predicted, truth, [(2, 3), (4, 5)]) == 1.0
