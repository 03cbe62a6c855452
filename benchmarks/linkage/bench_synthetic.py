"""Synthetic Syrian reports: athar linkage vs anchors (pairwise and B-cubed).

    nice .venv/bin/python -m benchmarks.linkage.bench_synthetic [n_reports] [seed]
"""

from __future__ import annotations

import sys
import time

from athar.matching.linkage import evaluate_clusters, generate_reports, link_reports, template_to_linkage_input
from benchmarks.linkage.anchors import exact_normalised, splink_default_raw


def fmt(metrics: dict[str, float]) -> str:
    return " ".join(f"{k}={v:.3f}" for k, v in metrics.items())


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    reports = generate_reports(n, seed=seed)
    inputs = template_to_linkage_input(reports)
    truth = reports["person_id"]
    print(f"synthetic: {n} reports, {truth.nunique()} persons, seed {seed} (model trained on seed 123)")
    t = time.time()
    result = link_reports(inputs, explain=False)
    print(f"athar linkage ({time.time() - t:.1f}s, {len(result.pairs)} pairs, {len(result.review)} in review): "
          + fmt(evaluate_clusters(result.cluster_ids(reports["report_id"]), truth)))
    t = time.time()
    anchor = splink_default_raw(inputs["unique_id"], inputs["full_name"], reports["birth_year"])
    print(f"anchor splink default on raw names ({time.time() - t:.1f}s): " + fmt(evaluate_clusters(anchor, truth)))
    print("anchor exact normalised full name: " + fmt(evaluate_clusters(exact_normalised(inputs["full_name"]), truth)))


if __name__ == "__main__":
    main()
