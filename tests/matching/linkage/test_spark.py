"""The same model on Spark (local mode). Select with ``-m spark``; skipped without pyspark/Java."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from athar.matching.linkage import generate_reports, link_reports, template_to_linkage_input

pytestmark = [pytest.mark.spark, pytest.mark.slow]


def test_spark_gives_the_same_pairs_as_duckdb() -> None:
    pytest.importorskip("pyspark")
    if shutil.which("java") is None:
        pytest.skip("Java is not installed")
    reports = template_to_linkage_input(generate_reports(300, seed=2))
    spark = link_reports(reports, engine="spark")
    duck = link_reports(reports)
    merged = spark.pairs.merge(duck.pairs, on=["unique_id_l", "unique_id_r"])
    assert len(merged) == len(duck.pairs) == len(spark.pairs)
    assert np.abs(merged["match_probability_x"] - merged["match_probability_y"]).max() < 1e-9
    # the same persons: clustering (with its constraints) runs on the pairs, whatever the engine
    def persons(result) -> set[frozenset[str]]:  # type: ignore[no-untyped-def]
        return {frozenset(g["unique_id"]) for _, g in result.clusters.groupby("cluster_id")}

    assert persons(spark) == persons(duck)
    assert sorted(spark.pairs["status"]) == sorted(duck.pairs["status"])
