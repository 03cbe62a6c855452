"""Write the identification dev set to a folder (never into the repository).

    nice .venv/bin/python benchmarks/identification/make_set.py /tmp/ident-bench/dev --split dev
    nice .venv/bin/python benchmarks/identification/make_set.py /tmp/ident-bench/test --split test

``--split dev`` is used to fit the algorithm's weights (fit.py); ``--split test`` (other LFW
identities) to report figures.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "faces"), str(HERE.parents[1])]

from synthetic_set import DEGRADATION, NOISE, build  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    parser.add_argument("--mated", type=int, default=400, help="people with two LFW photos (20%% become absent)")
    parser.add_argument("--distractors", type=int, default=1200, help="extra cases of people nobody reports")
    parser.add_argument("--degradation", choices=("moderate", "harsh"), default="moderate")
    args = parser.parse_args()
    counts = build(args.out, args.split, args.mated, args.distractors, degradation=args.degradation)
    print(json.dumps({"out": str(args.out), **counts, "noise": NOISE, "degradation": DEGRADATION[args.degradation]},
                     ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
