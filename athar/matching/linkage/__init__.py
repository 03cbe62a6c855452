"""Probabilistic record linkage of missing-person reports (Splink 5; DuckDB or Spark).

    result = link_reports(df)                      # shipped model, DuckDB
    result.pairs, result.clusters, result.review   # scored pairs, persons, review queue
    evaluate_clusters(result.cluster_ids(ids), truth)

See docs/linkage.md for the API, the model and the figures.

The names below are loaded on first use (PEP 562): importing a submodule (``settings``,
``prepare``) runs this file first, and pandas, Splink and DuckDB cost every ``athar`` command
about a second when loaded at start-up (docs/archive.md, "Start-up").
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_WHERE = {
    "Decision": "clustering", "cluster_pairs": "clustering",
    "evaluate_clusters": "evaluate",
    "LinkageResult": "link", "add_levels": "link", "explain_pairs": "link", "link_reports": "link",
    "train_model": "link",
    "LinkageModel": "model", "default_model": "model",
    "INPUT_COLUMNS": "prepare", "prepare_reports": "prepare",
    "TEMPLATE_COLUMNS": "synthetic", "generate_reports": "synthetic", "template_to_linkage_input": "synthetic",
    "write_template_csv": "synthetic",
}

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


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value
