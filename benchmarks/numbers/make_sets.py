"""Write the issue-29 dev sets (photos and truth.json) to a folder: ``dev`` and ``independent``.

    nice -n 10 python benchmarks/numbers/make_sets.py /tmp/athar-numbers --count 150
    nice -n 10 python benchmarks/numbers/make_sets.py /tmp/athar-numbers --count 150 --sets independent_2903

``independent_2903`` is the independent generator with another seed: a set nobody has looked at,
for checking a choice made after reading the errors on ``independent`` (seed 2902).

Deterministic: the same seed gives the same photos. The noise models are described in
``athar/matching/numbers/synthetic.py``; training uses other seeds (``train.py``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from athar.matching.numbers.synthetic import DEV, INDEPENDENT, write_set

SEEDS = {DEV: 2901, INDEPENDENT: 2902}
# Further sets: folder name -> (generator style, seed).
MORE = {"independent_2903": (INDEPENDENT, 2903)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=150)
    parser.add_argument("--sets", nargs="*", default=[DEV, INDEPENDENT])
    args = parser.parse_args()
    for name in args.sets:
        style, seed = MORE.get(name, (name, SEEDS.get(name, -1)))
        if seed < 0:
            parser.error(f"unknown set {name!r}: one of {', '.join([*SEEDS, *MORE])}")
        truth = write_set(args.out / name, style, args.count, seed)
        print(truth)


if __name__ == "__main__":
    main()
