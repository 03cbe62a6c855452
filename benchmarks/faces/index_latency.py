"""Query latency of FaceIndex on synthetic unit vectors (p50/p95, memory, recall).

    nice .venv/bin/python benchmarks/faces/index_latency.py --sizes 55000 1000000

Synthetic vectors are random unit vectors with planted near-duplicates for queries,
so recall@10 of HNSW against exact search is meaningful. One thread.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from athar.matching.faces.index import FaceIndex  # noqa: E402


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench(n: int, dim: int, kind: str, queries: int, rng: np.random.Generator) -> dict[str, float]:
    before = rss_mb()
    idx = FaceIndex("synthetic", "0", dim, kind)
    chunk = 100_000
    base_q = None
    t0 = time.perf_counter()
    for start in range(0, n, chunk):
        v = rng.standard_normal((min(chunk, n - start), dim)).astype(np.float32)
        if base_q is None:
            base_q = v[:queries].copy()
        idx.add(np.arange(start, start + len(v), dtype=np.int64), v)
    build = time.perf_counter() - t0
    assert base_q is not None
    q = base_q + 0.6 * rng.standard_normal(base_q.shape).astype(np.float32) * np.linalg.norm(base_q, axis=1, keepdims=True) / np.sqrt(dim)
    times, cpu, hits = [], [], 0
    for i in range(queries):
        t, c = time.perf_counter(), time.process_time()
        ids, _ = idx.search(q[i : i + 1], 10)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        hits += int(i in ids[0])
    ms, cms = np.array(times) * 1000, np.array(cpu) * 1000
    # Wall time suffers when other jobs share the cores; CPU time shows the cost itself.
    return {
        "n": n,
        "kind": kind,
        "build_s": build,
        "p50_ms": float(np.percentile(ms, 50)),
        "p95_ms": float(np.percentile(ms, 95)),
        "cpu_p95_ms": float(np.percentile(cms, 95)),
        "recall_at_10": hits / queries,
        "rss_growth_mb": rss_mb() - before,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", nargs="*", type=int, default=[55_000, 1_000_000])
    ap.add_argument("--kinds", nargs="*", default=["flat", "ivf"])
    ap.add_argument("--dim", type=int, default=512)
    ap.add_argument("--queries", type=int, default=200)
    args = ap.parse_args()
    for n in args.sizes:
        for kind in args.kinds:
            r = bench(n, args.dim, kind, args.queries, np.random.default_rng(0))
            print(" ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in r.items()), flush=True)


if __name__ == "__main__":
    main()
