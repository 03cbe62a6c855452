"""Cross-script key on real Arabic→Latin word pairs.

For each (Arabic, Latin) word pair: does the blocking key (``block_key``) agree, and does
``compare_tokens`` score the pair ≥ 0.75? A "negative" is the Arabic word paired with
the Latin word of a random other pair (false-agreement rate).

    nice .venv/bin/python -m benchmarks.names.eval_transliteration
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from athar.matching.names import compare_tokens, name_tokens

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "names"


def read_pairs(path: Path, limit: int, arabic_first: bool) -> list[tuple[str, str]]:
    pairs = []
    for line in path.read_text("utf-8").splitlines():
        cols = line.split("\t")
        if len(cols) < 2:
            continue
        ar, la = (cols[0], cols[1]) if arabic_first else (cols[1].replace(" ", ""), cols[0])
        pairs.append((ar, la))
    random.Random(7).shuffle(pairs)
    return pairs[:limit]


def evaluate(pairs: list[tuple[str, str]]) -> dict[str, float]:
    rng = random.Random(11)
    key_hit = score_hit = neg_key = neg_score = n = 0
    for ar, la in pairs:
        ta, tl = name_tokens(ar), name_tokens(la)
        if len(ta) != 1 or len(tl) != 1:
            continue
        n += 1
        key_hit += ta[0].block_key == tl[0].block_key
        score_hit += compare_tokens(ta[0], tl[0])[0] >= 0.75
        other = name_tokens(rng.choice(pairs)[1])
        if len(other) == 1 and other[0].block_key != "":
            neg_key += ta[0].block_key == other[0].block_key
            neg_score += compare_tokens(ta[0], other[0])[0] >= 0.75
    return {"pairs": n, "key_recall": key_hit / n, "score_recall": score_hit / n,
            "random_key_agreement": neg_key / n, "random_score_agreement": neg_score / n}


def main() -> None:
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    sets = {
        "google_transliteration (test)": read_pairs(DATA / "google_transliteration" / "ar2en-test.txt", limit, True),
        "netransliteration wd_arabic_20": read_pairs(DATA / "netransliteration_coling2018" / "wd_arabic_20", limit, False),
    }
    from athar.matching.names import normalize_arabic

    lists = DATA / "akhateeb_arabic_names"
    arab = {normalize_arabic(w.strip()) for f in ("male-first--names-in-arabic.txt", "female-first-names-in-arabic.txt",
                                                  "last-names-in-arabic.txt") for w in (lists / f).read_text("utf-8").splitlines()}
    every = read_pairs(DATA / "google_transliteration" / "ar2en.txt", 10**6, True)
    sets["google_transliteration ∩ akhateeb Arabic name lists"] = [p for p in every if normalize_arabic(p[0]) in arab]
    for name, pairs in sets.items():
        res = evaluate(pairs)
        print(f"{name}: " + ", ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in res.items()))


if __name__ == "__main__":
    main()
