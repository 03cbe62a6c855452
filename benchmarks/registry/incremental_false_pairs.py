"""Read the pairs the worker links and a full run keeps apart (issue 28), with both reports' fields
and the full run's score of the pair.

    nice .venv/bin/python benchmarks/registry/incremental_false_pairs.py FILE.csv DUMP.json [--all] [--limit N]

``FILE.csv``: a dev set written by ``bench_devsets SET --write``; ``DUMP.json``: the partitions
``incremental_agreement.py --dump`` wrote for it. Prints, per worker person, the pairs of reports
the worker put in one person, the full run in two and (without ``--all``) the truth in two (with
``--missed`` the other way: the full run's persons the worker splits): each
report's fields, its half (the first half is linked by a full run, the second by the worker), the
worker's explanation, the full run's score and status of the pair (a library-path full run over the
whole file, as ``bench_devsets`` runs it), and whom the full run put each report with instead.
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import defaultdict
from itertools import combinations
from pathlib import Path

FIELDS = ["first_name", "father_name", "family_name", "mother_name", "sex", "birth_year", "birth_place",
          "governorate", "city", "arrest_date", "arresting_agency", "full_name_ar", "full_name_latin"]


def _line(row: dict[str, str]) -> str:
    return " | ".join(f"{f}={row[f]}" for f in FIELDS if row.get(f))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", type=Path)
    parser.add_argument("dump", type=Path)
    parser.add_argument("--all", action="store_true", help="also the pairs that are the same person")
    parser.add_argument("--missed", action="store_true",
                        help="the other way: pairs the full run puts in one person and the worker in two")
    parser.add_argument("--limit", type=int, default=40, help="worker persons to print")
    args = parser.parse_args()
    with args.csv.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    by_id = {r["report_id"]: r for r in rows}
    second = {r["report_id"] for r in rows[len(rows) // 2:]}
    dump = json.loads(args.dump.read_text(encoding="utf-8"))
    if args.missed:  # read the full run's persons as "the worker's" and the reverse
        dump = {k: [full, inc, *rest] for k, (inc, full, *rest) in dump.items()}
    worker: dict[object, list[str]] = defaultdict(list)
    for rid, (inc, *_rest) in dump.items():
        worker[inc].append(rid)
    bad: dict[object, list[tuple[str, str]]] = defaultdict(list)
    for person, members in worker.items():
        for a, b in combinations(sorted(members), 2):
            _, full_a, true_a, *_ = dump[a]
            _, full_b, true_b, *_ = dump[b]
            if full_a != full_b and (args.all or true_a != true_b):
                bad[person].append((a, b))
    print(f"{sum(len(v) for v in bad.values())} pairs in {len(bad)} worker persons")
    if not bad:
        return
    import pandas as pd

    from athar.matching.linkage import link_reports, template_to_linkage_input

    result = link_reports(template_to_linkage_input(pd.DataFrame(rows).drop(columns="person_id")), explain=True)
    pairs = result.pairs.set_index(["unique_id_l", "unique_id_r"])
    full_members: dict[object, list[str]] = defaultdict(list)
    for rid, (_, full, *_rest) in dump.items():
        full_members[full].append(rid)
    side = ("full run's", "worker's") if args.missed else ("worker's", "full run's")
    for person in list(bad)[:args.limit]:
        members = sorted(worker[person])
        print(f"\n=== {side[0]} person {person}: {len(members)} reports, {len(bad[person])} pairs apart in the {side[1]}")
        for rid in members:
            inc, full, true, *why = dump[rid]
            half = "2nd" if rid in second else "1st"
            print(f"  {rid} [{half}] true={true} other={full} {_line(by_id[rid])}")
            if why and why[0] and rid in second:
                print(f"      worker: {json.dumps(why[0], ensure_ascii=False)[:300]}")
        for a, b in bad[person]:
            key = (a, b) if (a, b) in pairs.index else (b, a)
            if key in pairs.index:
                p = pairs.loc[key]
                print(f"  pair {a}-{b}: full run p={p['match_probability']:.4f} status={p['status']} "
                      f"split={p.get('split', '')!s} guard={p.get('guard', '')!s}")
                print(f"      {str(p.get('explanation', ''))[:400]}")
            else:
                print(f"  pair {a}-{b}: not scored above the floor by the full run")
        for full in sorted({dump[m][1] for m in members}):
            print(f"  {side[1]} person {full}: {sorted(full_members[full])}")


if __name__ == "__main__":
    main()
