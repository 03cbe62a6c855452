"""Linkage at scale with the constrained clustering timed apart (library path, DuckDB).

    PYTHONPATH=$PWD nice .venv/bin/python -m benchmarks.linkage.bench_cluster_scale 100000

Reports of the first generator (seed 7). Prints one JSON line: link seconds (prepare + predict +
clustering), clustering seconds, pairs, pairs kept apart by a constraint, peak RSS, CPU seconds
and the scores.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from typing import Any

import athar.matching.linkage.link as link
from athar.matching.linkage import evaluate_clusters, generate_reports, link_reports, template_to_linkage_input


def main(n: int) -> dict[str, Any]:
    df = generate_reports(n, seed=7)
    spent = {"cluster": 0.0}
    original = link.cluster_pairs

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.time()
        out = original(*args, **kwargs)
        spent["cluster"] += time.time() - start
        return out

    link.cluster_pairs = timed
    start = time.time()
    result = link_reports(template_to_linkage_input(df), explain=False)
    total = time.time() - start
    scores = evaluate_clusters(result.cluster_ids(df["report_id"]), df["person_id"].astype(str).tolist())
    return {"reports": n, "link_seconds": round(total, 1), "cluster_seconds": round(spent["cluster"], 1),
            "pairs": len(result.pairs), "split_pairs": int((result.pairs["status"] == "split").sum()),
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
            "cpu_seconds": round(time.process_time(), 1), **{k: round(v, 4) for k, v in scores.items()}}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)))
