"""Anchors to compare athar's linkage with, on the same data.

* ``splink_default_raw``: Splink with its library comparisons (``NameComparison``) on the
  raw first and last word of the full name (lower-cased, nothing else), exact birth year
  when present, blocking on the first two letters of both; u by random sampling, m by EM.
* ``exact_normalised``: reports with the same normalised full name (athar's
  ``normalize_name``: diacritics, hamza, taa marbuta, case) are one person.
"""

from __future__ import annotations

import contextlib
import logging

import pandas as pd
import splink.comparison_library as cl
from splink import DuckDBAPI, Linker, block_on

from athar.matching.linkage import cluster_pairs
from athar.matching.names import normalize_name

logging.getLogger("splink").setLevel(logging.ERROR)


def _raw_columns(full_names: pd.Series) -> pd.DataFrame:
    words = full_names.fillna("").str.lower().str.replace(",", " ").str.split()
    return pd.DataFrame({
        "first_raw": words.map(lambda w: w[0] if w else None),
        "last_raw": words.map(lambda w: w[-1] if len(w) > 1 else None),
    })


def splink_default_raw(ids: pd.Series, full_names: pd.Series, birth_years: pd.Series | None = None,
                       threshold: float = 0.9) -> list[str]:
    """Cluster ids from Splink with default library comparisons on raw names."""
    df = _raw_columns(full_names)
    df.insert(0, "unique_id", ids.astype(str).to_numpy())
    comparisons = [cl.NameComparison("first_raw"), cl.NameComparison("last_raw")]
    if birth_years is not None:
        df["birth_year"] = pd.to_numeric(birth_years, errors="coerce").astype("Int64").to_numpy()
        comparisons.append(cl.ExactMatch("birth_year"))
    settings = {
        "link_type": "dedupe_only", "comparisons": comparisons,
        "blocking_rules_to_generate_predictions": [block_on("substr(first_raw, 1, 2)", "substr(last_raw, 1, 2)"),
                                                   block_on("last_raw")],
    }
    db_api = DuckDBAPI()
    linker = Linker(db_api.register(df), settings, log_level=None)
    # No exact pairs at all: Splink cannot estimate λ, and the default stands.
    with contextlib.suppress(Exception):
        linker.training.estimate_probability_two_random_records_match([block_on("first_raw", "last_raw")], recall=0.7)
    linker.training.estimate_u_using_random_sampling(max_pairs=1e6, seed=1)
    for rule in (block_on("first_raw"), block_on("last_raw")):
        with contextlib.suppress(Exception):  # an anchor: keep whatever could be trained
            linker.training.estimate_parameters_using_expectation_maximisation(rule)
    try:
        pairs = linker.inference.predict(threshold_match_probability=threshold).as_pandas_dataframe()
    except ValueError:  # EM drove λ to 1: the default model failed on this data
        print("  (anchor: Splink's EM diverged, λ = 1; every report left alone)")
        return list(df["unique_id"])
    pairs["unique_id_l"], pairs["unique_id_r"] = pairs["unique_id_l"].astype(str), pairs["unique_id_r"].astype(str)
    outcome = cluster_pairs(df["unique_id"], pairs, threshold)
    return [outcome.cluster_of[i] for i in df["unique_id"]]


def exact_normalised(full_names: pd.Series) -> list[str]:
    """Cluster id = the normalised full name."""
    return [normalize_name(n) or f"empty-{i}" for i, n in enumerate(full_names.fillna(""))]
