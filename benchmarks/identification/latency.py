"""Ranking one new report against 55,000 cases: build the case table once (as the worker keeps it),
then time facts → face similarities → all features → ranking → explanations of the top 50.

    nice .venv/bin/python benchmarks/identification/latency.py [--cases 55000] [--faces-per-case 1.3]

Synthetic cases (the dev set's fact generator); random unit vectors stand in for face embeddings.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "faces"), str(HERE.parents[1])]

from run import case_records, facility_table  # noqa: E402
from synthetic_set import FACILITIES, case_row, make_truth, photo_date  # noqa: E402

from athar.matching.scoring import CaseTable, PersonFacts, load_algorithm  # noqa: E402
from athar.matching.scoring.faces import CaseFaces  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=55_000)
    parser.add_argument("--faces-per-case", type=float, default=1.3)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(3)
    rows = []
    for i in range(args.cases):
        when = photo_date(rng)
        rows.append(case_row(rng, make_truth(rng, when, i), f"c{i}", when))
    start = time.perf_counter()
    table = CaseTable.build(case_records(rows, facility_table()))
    build = time.perf_counter() - start
    gen = np.random.default_rng(0)
    per_case = {i: gen.normal(size=(max(1, int(gen.poisson(args.faces_per_case))), 512)).astype(np.float32)
                for i in range(args.cases)}
    faces = CaseFaces.build(per_case, args.cases, 512)
    algorithm = load_algorithm()
    timings: dict[str, list[float]] = {"with_photo": [], "without_photo": []}
    for r in range(args.repeat):
        person = PersonFacts(f"p{r}", "M", 1985 + r % 10, 0, dt.date(2012, 1 + r % 12, 1), "month",
                             frozenset({FACILITIES[r % 5][0]}), frozenset(), True,
                             "وشم خريطة فلسطين على الساعد الأيسر وندبة فوق الحاجب الأيمن", "", r % 2 == 0)
        probe = gen.normal(size=(2, 512)).astype(np.float32)
        start = time.perf_counter()
        sims = faces.similarities(probe) if person.has_photo else None
        ranking = algorithm.rank(person, table, sims, limit=50)
        timings["with_photo" if person.has_photo else "without_photo"].append(time.perf_counter() - start)
        assert len(ranking.candidates) == 50
    print(f"cases {args.cases}, faces {len(faces.owner)}; table built once in {build:.1f}s")
    for key, values in timings.items():
        print(f"{key}: median {statistics.median(values) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms "
              f"per report (n={len(values)})")


if __name__ == "__main__":
    main()
