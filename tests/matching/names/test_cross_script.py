"""Cross-script keys on real word pairs (skips without the shared data)."""

from __future__ import annotations

import random

from athar.matching.names import compare_tokens, name_tokens
from tests.shared_data import require_shared_data


def _pairs(limit: int) -> list[tuple[str, str]]:
    path = require_shared_data("names", "google_transliteration", "ar2en-test.txt")
    rows = [line.split("\t")[:2] for line in path.read_text("utf-8").splitlines() if "\t" in line]
    random.Random(3).shuffle(rows)
    return [(a, b) for a, b in rows[:limit]]


def test_cross_script_key_recall_on_wikipedia_pairs() -> None:
    hits = total = 0
    for ar, la in _pairs(800):
        ta, tl = name_tokens(ar), name_tokens(la)
        if len(ta) == 1 and len(tl) == 1:
            total += 1
            hits += compare_tokens(ta[0], tl[0])[0] >= 0.75
    assert total > 500
    assert hits / total >= 0.9  # measured 0.95 on the full test split


def test_blocking_key_joins_common_syrian_names() -> None:
    pairs = [("محمد", "Mohammed"), ("محمود", "Mahmoud"), ("عبد الرحمن", "Abdulrahman"), ("يوسف", "Youssef"),
             ("حسين", "Hussein"), ("الحسن", "Al Hasan"), ("غياث", "Ghiath"), ("زيتون", "Zaitoun"), ("شحادة", "Shehadeh")]
    for ar, la in pairs:
        assert name_tokens(ar)[0].block_key == name_tokens(la)[0].block_key, (ar, la)


def test_ofac_variants_of_one_person_score_high() -> None:
    import csv
    from collections import defaultdict

    from athar.matching.names import compare_names

    path = require_shared_data("names", "derived", "ofac_syria_name_variants.csv")
    by_entity: dict[str, list[str]] = defaultdict(list)
    for row in csv.DictReader(path.open(encoding="utf-8")):
        by_entity[row["entity_id"]].append(row["name"])
    scores = [compare_names(names[0], other).score for names in by_entity.values() if len(names) > 1 for other in names[1:]]
    assert len(scores) > 300
    assert sum(s >= 0.5 for s in scores) / len(scores) >= 0.6
