"""OFAC Syria sanctions: real Latin spelling variants of one person (public domain).

Each name form is a report (full name "FAMILY, Given", first listed birth year, birth
place); rows sharing ``entity_id`` are one person.

    nice .venv/bin/python -m benchmarks.linkage.bench_ofac
"""

from __future__ import annotations

import pandas as pd

from athar.config import shared_data_dir
from athar.matching.linkage import evaluate_clusters, link_reports
from benchmarks.linkage.anchors import exact_normalised, splink_default_raw
from benchmarks.linkage.bench_synthetic import fmt

DATA = shared_data_dir() / "names" / "derived" / "ofac_syria_name_variants.csv"


def load() -> pd.DataFrame:
    df = pd.read_csv(DATA, dtype=str, keep_default_na=False)
    return pd.DataFrame({
        "unique_id": [f"o{i}" for i in range(len(df))],
        "full_name": df["name"],
        "birth_year": df["birth_years"].str.split("|").str[0],
        "birth_place": df["birth_place"].str.split(",").str[0],
        "entity_id": df["entity_id"],
    })


def main() -> None:
    df = load()
    truth = df["entity_id"]
    print(f"OFAC Syria: {len(df)} name forms, {truth.nunique()} persons")
    for threshold in (0.9, 0.5):
        result = link_reports(df.drop(columns="entity_id"), threshold=threshold, explain=False)
        print(f"athar linkage (threshold {threshold}): " + fmt(evaluate_clusters(result.cluster_ids(df["unique_id"]), truth)))
        names_only = link_reports(df[["unique_id", "full_name"]], threshold=threshold, explain=False)
        print(f"athar linkage, names only (threshold {threshold}): "
              + fmt(evaluate_clusters(names_only.cluster_ids(df["unique_id"]), truth)))
        anchor = splink_default_raw(df["unique_id"], df["full_name"], df["birth_year"], threshold=threshold)
        print(f"anchor splink default on raw names (threshold {threshold}): " + fmt(evaluate_clusters(anchor, truth)))
    print("anchor exact normalised full name: " + fmt(evaluate_clusters(exact_normalised(df["full_name"]), truth)))


if __name__ == "__main__":
    main()
