"""Write the issue-29 dev sets (photos and truth.json) to a folder: ``dev`` and ``independent``.

    nice -n 10 python benchmarks/numbers/make_sets.py /tmp/athar-numbers --count 150

Deterministic: the same seed gives the same photos. The noise models are described in
``athar/matching/numbers/synthetic.py``; training uses other seeds (``train.py``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from athar.matching.numbers.synthetic import DEV, INDEPENDENT, write_set

SEEDS = {DEV: 2901, INDEPENDENT: 2902}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=150)
    parser.add_argument("--sets", nargs="*", default=[DEV, INDEPENDENT])
    args = parser.parse_args()
    for style in args.sets:
        truth = write_set(args.out / style, style, args.count, SEEDS[style])
        print(truth)


if __name__ == "__main__":
    main()
