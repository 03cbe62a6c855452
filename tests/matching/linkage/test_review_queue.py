"""The review queue (link.review_queue): one pair per two persons, each report against its
strongest few persons (settings.REVIEW_PER_REPORT)."""

from __future__ import annotations

import pandas as pd

from athar.matching.linkage.link import review_queue
from athar.matching.linkage.settings import REVIEW_PER_REPORT


def _pairs(rows: list[tuple[str, str, float]]) -> pd.DataFrame:
    return pd.DataFrame({"unique_id_l": [a for a, _, _ in rows], "unique_id_r": [b for _, b, _ in rows],
                         "match_probability": [p for _, _, p in rows], "status": "review"})


def test_a_bare_name_is_offered_against_its_strongest_namesakes_only() -> None:
    rows = [("t", f"h{n}", p) for n, p in enumerate((0.85, 0.3, 0.7, 0.25, 0.6))]
    queue = review_queue(_pairs(rows), {u: u for u in ["t", "h0", "h1", "h2", "h3", "h4"]})
    assert REVIEW_PER_REPORT == 3
    assert list(queue["unique_id_r"]) == ["h0", "h2", "h4"]  # strongest first, the weakest two left out


def test_the_cap_counts_a_report_on_either_side_of_its_pairs() -> None:
    rows = [("a", "t", 0.8), ("t", "b", 0.7), ("c", "t", 0.6), ("t", "d", 0.5), ("d", "e", 0.4)]
    queue = review_queue(_pairs(rows), {u: u for u in "abcdet"})
    kept = set(zip(queue["unique_id_l"], queue["unique_id_r"]))
    assert kept == {("a", "t"), ("t", "b"), ("c", "t"), ("d", "e")}


def test_one_pair_per_two_persons_before_the_cap() -> None:
    # three reports of one person h meet t: one question, so t's other persons still fit in the cap
    rows = [("t", "h1", 0.8), ("t", "h2", 0.79), ("t", "h3", 0.78), ("t", "x", 0.5), ("t", "y", 0.4)]
    cluster = {"t": "t", "h1": "h", "h2": "h", "h3": "h", "x": "x", "y": "y"}
    queue = review_queue(_pairs(rows), cluster)
    assert list(queue["unique_id_r"]) == ["h1", "x", "y"]
