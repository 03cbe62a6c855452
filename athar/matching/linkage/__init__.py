"""Probabilistic record linkage of missing-person reports (Splink 5; DuckDB or Spark).

    result = link_reports(df)                      # shipped model, DuckDB
    result.pairs, result.clusters, result.review   # scored pairs, persons, review queue
    evaluate_clusters(result.cluster_ids(ids), truth)

See docs/linkage.md for the API, the model and the figures.
"""

from athar.matching.linkage.clustering import Decision, cluster_pairs
from athar.matching.linkage.evaluate import evaluate_clusters
from athar.matching.linkage.link import (
    LinkageResult,
    add_levels,
    explain_pairs,
    link_reports,
    train_model,
)
from athar.matching.linkage.model import LinkageModel, default_model
from athar.matching.linkage.prepare import INPUT_COLUMNS, prepare_reports
from athar.matching.linkage.synthetic import (
    TEMPLATE_COLUMNS,
    generate_reports,
    template_to_linkage_input,
    write_template_csv,
)

__all__ = [
    "Decision",
    "add_levels",
    "INPUT_COLUMNS",
    "LinkageModel",
    "LinkageResult",
    "TEMPLATE_COLUMNS",
    "cluster_pairs",
    "default_model",
    "evaluate_clusters",
    "explain_pairs",
    "generate_reports",
    "link_reports",
    "prepare_reports",
    "template_to_linkage_input",
    "train_model",
    "write_template_csv",
]
