"""Incremental scoring (incremental.py) gives the full run's pairs and probabilities: the same pairs
(block keys ≡ the prediction rules), the same scores (Splink's SQL with the run's model, term
frequencies of the whole table, the prior of its size), the same slips and guards."""

from __future__ import annotations

import pandas as pd

from athar.matching.linkage import incremental as inc
from athar.matching.linkage import link_reports, prepare_reports, template_to_linkage_input
from athar.matching.linkage.constraints import facts_of
from athar.matching.linkage.link import _populated
from athar.matching.linkage.settings import rule_columns
from athar.matching.linkage.slips import generate_slips


def test_each_report_scored_alone_gets_the_full_runs_pairs() -> None:
    table = prepare_reports(template_to_linkage_input(generate_slips(500, seed=9)))
    assert len(table) >= 1000  # term frequencies and u measured on the table: both in play
    result = link_reports(table, prepared=table, explain=False)
    rules = rule_columns(_populated(table), len(table))
    counts, totals = inc.term_frequencies(table)
    state = inc.StoreModel(result.model, len(table), rules, totals)
    keys = inc.block_keys(table, rules)
    index: dict[int, set[str]] = {}
    for uid, found in zip(table["unique_id"], keys):
        for key in found:
            index.setdefault(key, set()).add(uid)
    facts = facts_of(table)
    rows = table.set_index("unique_id", drop=False)
    pairs = result.pairs
    compared = 0
    for uid, found in list(zip(table["unique_id"], keys))[::15]:
        candidates = sorted(set().union(*(index[k] for k in found)) - {uid}) if found else []
        mine: dict[str, float] = {}
        if candidates:
            got = inc.score_new(rows.loc[[uid]].reset_index(drop=True), rows.loc[candidates].reset_index(drop=True),
                                state, counts, facts)
            mine = dict(zip(got["unique_id_r"].astype(str), got["match_probability"]))
        full = pairs[(pairs["unique_id_l"] == uid) | (pairs["unique_id_r"] == uid)]
        theirs = {(right if left == uid else left): p for left, right, p in
                  zip(full["unique_id_l"], full["unique_id_r"], full["match_probability"])}
        assert set(mine) == set(theirs), uid
        for other, p in theirs.items():
            assert abs(mine[other] - p) < 1e-9, (uid, other, mine[other], p)
        compared += len(theirs)
    assert compared > 50


def test_block_keys_need_every_column_of_a_rule() -> None:
    table = pd.DataFrame({"unique_id": ["1", "2", "3"], "a": ["x", "x", None], "b": [1980, 1980, 1980]})
    keys = inc.block_keys(table, [("a", "b")])
    assert keys[0] == keys[1] and len(keys[0]) == 1 and keys[2] == set()


class _Refuse:
    """Constraints that refuse any join with report "b2"."""

    def conflict(self, left: list[str], right: list[str]) -> str | None:
        return "given names differ" if "b2" in right else None


def _edges(*rows: tuple[str, float]) -> pd.DataFrame:
    return pd.DataFrame({"unique_id_l": ["new"] * len(rows), "unique_id_r": [r for r, _ in rows],
                         "match_probability": [p for _, p in rows], "decision": [""] * len(rows)})


def test_a_report_linked_to_two_persons_merges_them_unless_refused() -> None:
    person_of = {"a1": 1, "b1": 2}
    members = {1: ["a1", "a2"], 2: ["b1", "b2"]}
    edges = _edges(("b1", 0.93), ("a1", 0.97), ("a2", 0.4))
    joined = inc.join_persons("new", edges, person_of, members, [], None, 0.9)
    assert joined.persons == [1, 2]  # strongest first: person 1 keeps the report, person 2 joins it
    different = inc.join_persons("new", edges, person_of, members, [("a2", "b2", "different")], None, 0.9)
    assert different.persons == [1] and different.cut == [("new", "b1", 0.93)]
    split = inc.join_persons("new", edges, person_of, members, [], _Refuse(), 0.9)
    assert split.persons == [1] and split.split[0][3] == "given names differ"
    same = inc.join_persons("new", _edges(("a1", 0.3)), person_of, members, [("b2", "new", "same")], None, 0.9)
    assert same.persons == [2]  # a reviewer's "same" joins whatever the model says
    assert inc.join_persons("new", _edges(("a1", 0.6)), person_of, members, [], None, 0.9).persons == []
