"""How one name written in Arabic script and in Latin letters compares, level by level.

3,000 word pairs of the Google transliteration corpus (*train* split; the cross-script
benchmark uses the eval split), each token prepared as a first name and compared with the
levels of ``settings.name_comparison`` (re-implemented here in Python). The shares are
``model.CROSS_SCRIPT_SHARE`` / ``CROSS_SCRIPT_EXACT``.

    nice .venv/bin/python -m benchmarks.linkage.measure_cross_script_levels [n_pairs]
"""

from __future__ import annotations

import collections
import random
import sys

import pandas as pd
from rapidfuzz.distance import JaroWinkler, Levenshtein

from athar.matching.linkage import prepare_reports
from benchmarks.linkage.bench_cross_script import DATA


def level(x: pd.Series, y: pd.Series) -> str:
    if x.first_id is None or y.first_id is None:
        return "missing"
    if x.first_id == y.first_id:
        return "same name"
    unknown = x.first_known + y.first_known < 2
    if unknown and x.first_blk == y.first_blk:
        return "same consonants (other script or spelling)"
    if unknown and JaroWinkler.similarity(x.first_id, y.first_id) >= 0.9:
        return "similar spelling"
    if unknown and Levenshtein.distance(x.first_skel, y.first_skel) <= 1:
        return "one consonant apart"
    if unknown and x.first_cblk == y.first_cblk:
        return "similar consonants (g/j/k, d/t/z, h dropped)"
    if x.first_known + y.first_known == 0 and Levenshtein.distance(x.first_cblk, y.first_cblk) <= 2:
        return "two consonants apart (names not in the variants table)"
    return "different"


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    lines = (DATA / "google_transliteration" / "ar2en-train.txt").read_text("utf-8").splitlines()
    pairs = [tuple(line.split("\t")[:2]) for line in lines if "\t" in line]
    pairs = [(a, b) for a, b in pairs if a and b.isalpha() and " " not in a]
    random.Random(0).shuffle(pairs)
    pairs = pairs[:n]
    rows = [{"unique_id": f"{side}{i}", "first_name": name if side == "a" else name.capitalize()}
            for i, pair in enumerate(pairs) for side, name in zip("al", pair)]
    table = prepare_reports(pd.DataFrame(rows)).set_index("unique_id")
    counts = collections.Counter(level(table.loc[f"a{i}"], table.loc[f"l{i}"]) for i in range(len(pairs)))
    total = sum(counts.values())
    for label, count in counts.most_common():
        print(f"{label}: {count} ({count / total:.3f})")


if __name__ == "__main__":
    main()
