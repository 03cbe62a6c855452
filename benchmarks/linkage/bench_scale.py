"""Scale of the linkage core: generate N synthetic reports, prepare, predict, cluster.

Reports wall time per stage and the peak resident memory of the process (includes
DuckDB's native memory). Run one size per process:

    nice .venv/bin/python -m benchmarks.linkage.bench_scale 100000
    nice .venv/bin/python -m benchmarks.linkage.bench_scale 1000000
"""

from __future__ import annotations

import os
import resource
import sys
import time

from athar.matching.linkage import (
    evaluate_clusters,
    generate_reports,
    link_reports,
    prepare_reports,
    template_to_linkage_input,
)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_rss_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 / 1024


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    t0 = time.time()
    reports = generate_reports(n, seed=2026)
    inputs = template_to_linkage_input(reports)
    t1 = time.time()
    print(f"{n} reports, {reports['person_id'].nunique()} persons: generated in {t1 - t0:.1f}s (peak {peak_rss_gb():.2f} GB)")
    prepared = prepare_reports(inputs)
    t2 = time.time()
    print(f"prepare (normalise, key): {t2 - t1:.1f}s (peak {peak_rss_gb():.2f} GB)")
    result = link_reports(inputs, prepared=prepared, explain=False)
    t3 = time.time()
    print(f"predict + decisions + cluster: {t3 - t2:.1f}s, {len(result.pairs)} pairs kept, "
          f"{len(result.review)} in review (peak {peak_rss_gb():.2f} GB)")
    print(f"linkage core total (prepare + link): {t3 - t1:.1f}s wall; process CPU time so far "
          f"{cpu_seconds():.0f}s; peak RSS {peak_rss_gb():.2f} GB; load average {os.getloadavg()[0]:.1f}")
    metrics = evaluate_clusters(result.cluster_ids(reports["report_id"]), reports["person_id"])
    print("quality: " + " ".join(f"{k}={v:.3f}" for k, v in metrics.items()))


if __name__ == "__main__":
    main()
