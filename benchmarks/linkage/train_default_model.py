"""Retrain the shipped model (athar/matching/linkage/data/linkage_model_v1.json).

Unlabelled EM on synthetic reports with fixed seeds; deterministic:

    nice .venv/bin/python -m benchmarks.linkage.train_default_model [out.json]
"""

from __future__ import annotations

import sys
from pathlib import Path

from athar.matching.linkage import generate_reports, template_to_linkage_input, train_model

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "athar" / "matching" / "linkage" / "data" / "linkage_model_v1.json"


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT
    reports = template_to_linkage_input(generate_reports(30_000, seed=123))
    model = train_model(reports, seed=42, max_pairs=2e6,
                        trained_on="synthetic: generate_reports(30000, seed=123); u by random sampling (seed 42, 2e6 pairs); m by EM")
    model.save(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
