"""How long the audit log's Merkle tree takes at scale (no database: the tree over n event hashes).

PYTHONPATH=. .venv/bin/python benchmarks/tlog_tree.py [N ...]
Prints, per size: building the tree (n leaf hashes + n node hashes), one root, 100 inclusion proofs
and one consistency proof, and the peak memory of the tree.
"""

from __future__ import annotations

import hashlib
import sys
import time
import tracemalloc

from athar.audit.merkle import Tree, leaf_hash


def measure(n: int) -> dict[str, float]:
    hashes = [hashlib.sha256(i.to_bytes(8, "big")).digest() for i in range(n)]
    start = time.perf_counter()
    tree = Tree([leaf_hash(h) for h in hashes])
    built = time.perf_counter() - start
    tracemalloc.start()  # measured apart: tracing slows every allocation
    Tree([leaf_hash(h) for h in hashes])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    start = time.perf_counter()
    tree.root()
    for i in range(0, n, max(1, n // 100)):
        tree.inclusion_proof(i)
    tree.consistency_proof(n // 3)
    proofs = time.perf_counter() - start
    return {"events": n, "build_s": round(built, 2), "proofs_s": round(proofs, 3), "peak_mb": round(peak / 2**20)}


if __name__ == "__main__":
    for size in [int(a) for a in sys.argv[1:]] or [10_000, 100_000, 1_000_000]:
        print(measure(size))
