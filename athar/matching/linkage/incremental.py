"""Incremental linkage: one new (or changed) report scored against the reports its blocking keys
meet, with the model, slips, guards and constraints of the full run (link.py), in well under a
second at a million reports.

The full run (link_reports) gives three things the incremental step reuses (the database side keeps
them: athar/registry/incremental.py):

* the prediction rules it blocked on (settings.rule_columns, which depend on the store's size and
  on which columns hold data): each report's **block keys** are a hash of one rule's name and its
  values (:func:`block_keys`); two reports the full run would compare share at least one key;
* the model with u measured on the store (link.measure_u) and the store's size (the prior λ);
* the store's term frequencies (:func:`term_frequencies`): Splink's ``count(value) / count(column)``
  over the store, kept by the hash of the column and the value (no name is stored).

:func:`score_new` then scores the new report against its candidates with Splink's own
``score_pairs`` (the same SQL as ``predict``, term frequencies given as ``tf_*`` columns) and
applies what link_reports applies to a pair: the second readings of "Muhammad X" and family-first
names (readings.py: shadow rows blocked and scored, the better reading kept), the slips
(weigh_slips), the review floor, the guards.
:func:`join_persons` clusters the new report into the persons of its candidates as the full run's
clustering does (strongest edges first, "different" decisions and constraints refuse a join).

Heavy imports (Splink, DuckDB) happen inside the functions.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import pandas as pd

TF_UNSEEN = 1  # a value the last full run did not see counts as seen once


def key_hash(text: str) -> int:
    """A signed 64-bit hash (fits a BIGINT column)."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big", signed=True)


def _present(value: Any) -> bool:
    if value is None:
        return False
    try:
        return not pd.isna(value)
    except (TypeError, ValueError):
        return True


def _text(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def block_keys(prepared: pd.DataFrame, rules: list[tuple[str, ...]]) -> list[set[int]]:
    """Per row of ``prepared``: the hashes of each rule whose columns all hold a value (Splink's
    ``l.col = r.col`` never matches a null)."""
    columns = sorted({c for rule in rules for c in rule})
    out: list[set[int]] = []
    for row in prepared.reindex(columns=columns).to_dict("records"):
        keys = set()
        for rule in rules:
            values = [row.get(c) for c in rule]
            if all(_present(v) for v in values):
                keys.add(key_hash(",".join(rule) + "=" + "|".join(_text(v) for v in values)))
        out.append(keys)
    return out


def block_keys_by_report(scored: pd.DataFrame, rules: list[tuple[str, ...]]) -> dict[str, set[int]]:
    """Per report of ``scored`` (a prepared table with its second readings' shadow rows,
    readings.with_readings, which the full run blocks too): the block keys of its row and of its
    shadow row — a report meets, through either reading, the candidates the full run compares it with."""
    from athar.matching.linkage.readings import base_id

    out: dict[str, set[int]] = {}
    for uid, keys in zip(scored["unique_id"].astype(str), block_keys(scored, rules)):
        out.setdefault(base_id(uid), set()).update(keys)
    return out


@lru_cache(maxsize=1)
def tf_columns() -> tuple[str, ...]:
    """The columns Splink adjusts on term frequencies (from the model's comparisons)."""
    from athar.matching.linkage.model import build_settings

    plain = build_settings(set(), "duckdb", None, n_rows=0)
    found: list[str] = []
    for comp in plain["comparisons"]:
        for level in comp["comparison_levels"]:
            col = level.get("tf_adjustment_column")
            if col and col not in found:
                found.append(col)
    return tuple(found)


def tf_key(column: str, value: Any) -> int:
    return key_hash(f"tf:{column}={_text(value)}")


def term_frequencies(prepared: pd.DataFrame) -> tuple[dict[int, int], dict[str, int]]:
    """(hash of column and value → count, column → count of values) over a prepared table."""
    counts: dict[int, int] = {}
    totals: dict[str, int] = {}
    for col in tf_columns():
        if col not in prepared.columns:
            continue
        series = prepared[col].dropna()
        totals[col] = int(len(series))
        for value, n in series.value_counts().items():
            counts[tf_key(col, value)] = int(n)
    return counts, totals


def tf_keys_of(prepared: pd.DataFrame) -> set[int]:
    """Every term-frequency hash the rows of ``prepared`` need."""
    out: set[int] = set()
    for col in tf_columns():
        if col in prepared.columns:
            out.update(tf_key(col, v) for v in prepared[col].dropna().unique())
    return out


def vote_key(side: str, name_id: str) -> int:
    """The hash under which the store's order votes (order.py) of one name id are kept: ``side`` is
    "family" or "given" (no name is stored)."""
    return key_hash(f"vote:{side}={name_id}")


def vote_counts(votes: Any) -> dict[int, int]:
    """An OrderVotes as hash → count (kept beside the term frequencies)."""
    out: dict[int, int] = {}
    for side, counter in (("family", votes.family), ("given", votes.given)):
        for name_id, n in counter.items():
            if n > 0:
                out[vote_key(side, name_id)] = int(n)
    return out


def votes_from(counts: dict[int, int], name_ids: Iterable[str]) -> Any:
    """The store's order votes of ``name_ids`` (OrderVotes) from hash → count."""
    from collections import Counter

    from athar.matching.linkage.order import OrderVotes

    family: Counter[str] = Counter()
    given: Counter[str] = Counter()
    for name_id in name_ids:
        if n := counts.get(vote_key("family", name_id)):
            family[name_id] = n
        if n := counts.get(vote_key("given", name_id)):
            given[name_id] = n
    return OrderVotes(family, given)


@dataclass
class StoreModel:
    """What the last full run leaves for the incremental step."""

    model: Any  # LinkageModel, u measured on the store
    n_rows: int  # reports the full run linked (λ and whether term frequencies apply)
    rules: list[tuple[str, ...]]
    tf_totals: dict[str, int] = field(default_factory=dict)
    order_votes: bool = False  # the store's order votes are kept (vote_counts): names are read with them

    def to_dict(self) -> dict[str, Any]:
        return {"n_rows": self.n_rows, "rules": [list(r) for r in self.rules], "tf_totals": self.tf_totals,
                "order_votes": self.order_votes}


class _Scorer:
    """Splink's scoring SQL for (new rows × candidate rows) with a run's settings, generated once by
    ``linker.inference.score_pairs`` and kept: each call registers the two small tables under fixed
    names and runs the same SQL (generating it costs ~0.5 s of sqlglot parsing, running it
    milliseconds)."""

    LEFT, RIGHT = "athar_incremental_new", "athar_incremental_candidates"

    def __init__(self, state: StoreModel, left: pd.DataFrame, right: pd.DataFrame) -> None:
        from splink import Linker

        from athar.matching.linkage.engine import make_db_api
        from athar.matching.linkage.link import KEY_COLUMNS
        from athar.matching.linkage.model import build_settings

        db_api, dialect = make_db_api("duckdb", memory_limit="256MB")
        settings = build_settings(set(KEY_COLUMNS), dialect, state.model, retain=True, n_rows=state.n_rows)
        linker = Linker(db_api.register(left.head(0), table_name="reports"), settings, log_level=None)
        self.con = db_api._con
        self.con.execute("SET threads = 1")  # a few dozen pairs: no gain from threads, only their cost
        self.con.register(self.LEFT, left)
        self.con.register(self.RIGHT, right)
        captured: list[str] = []
        run_pipeline = db_api.sql_pipeline_to_splink_dataframe

        def capture(pipeline: Any) -> Any:
            captured.append(pipeline.generate_cte_pipeline_sql())
            return run_pipeline(pipeline)

        db_api.sql_pipeline_to_splink_dataframe = capture
        try:
            linker.inference.score_pairs(db_api.table_to_splink_dataframe(self.LEFT, self.LEFT),
                                         db_api.table_to_splink_dataframe(self.RIGHT, self.RIGHT))
        finally:
            db_api.sql_pipeline_to_splink_dataframe = run_pipeline
        self.sql = captured[-1]

    def score(self, left: pd.DataFrame, right: pd.DataFrame) -> pd.DataFrame:
        self.con.register(self.LEFT, left)
        self.con.register(self.RIGHT, right)
        try:
            return self.con.execute(self.sql).df()
        finally:
            self.con.unregister(self.LEFT)
            self.con.unregister(self.RIGHT)


_SCORERS: dict[tuple[str, int, tuple[str, ...]], _Scorer] = {}


def _scorer(state: StoreModel, left: pd.DataFrame, right: pd.DataFrame) -> _Scorer:
    """The scorer of a run's model and store size (and the tables' columns), kept in this process."""
    import json

    key = (json.dumps(state.model.to_dict(), sort_keys=True), state.n_rows, tuple(left.columns))
    scorer = _SCORERS.get(key)
    if scorer is None:
        scorer = _Scorer(state, left, right)
        _SCORERS.clear()
        _SCORERS[key] = scorer
    return scorer


def _with_tf(rows: pd.DataFrame, state: StoreModel, counts: dict[int, int]) -> pd.DataFrame:
    rows = rows.copy()
    if state.n_rows < _tf_min_rows():
        return rows
    for col in tf_columns():
        total = state.tf_totals.get(col) or 0
        if col not in rows.columns or not total:
            continue
        rows[f"tf_{col}"] = [counts.get(tf_key(col, v), TF_UNSEEN) / total if _present(v) else None
                             for v in rows[col]]
    return rows


def _tf_min_rows() -> int:
    from athar.matching.linkage.model import TF_MIN_ROWS

    return TF_MIN_ROWS


def score_new(new: pd.DataFrame, candidates: pd.DataFrame, state: StoreModel, counts: dict[int, int],
              facts: dict[str, Any], *, threshold: float = 0.9,
              review_band: tuple[float, float] | None = None) -> pd.DataFrame:
    """Pairs (new report × candidate report) above the review floor, scored as link_reports scores
    them: the model's weights, both readings of each name (the better kept, the second at its cost),
    slips, the floor, the guards. Columns as in LinkageResult.pairs before decisions (unique_id_l is
    the new report). ``facts``: the constraints' facts of every row, shadow rows included
    (``Constraints(with_readings(table)).facts``). ``review_band``: the full run's (REVIEW_BAND)
    unless given."""
    from athar.matching.linkage.readings import with_readings

    if new.empty or candidates.empty:
        return _no_pairs()
    return _score(with_readings(new), with_readings(candidates), state, counts, facts, threshold, review_band)


def score_among(table: pd.DataFrame, state: StoreModel, counts: dict[int, int], facts: dict[str, Any],
                keys: dict[str, set[int]], *, threshold: float = 0.9,
                review_band: tuple[float, float] | None = None) -> pd.DataFrame:
    """Every pair of reports of ``table`` (once, the smaller id on the left) that shares a block key
    (``keys``: report → its block keys), scored as :func:`score_new` scores a new report: the
    pairs the full run compares among a few persons' reports."""
    from athar.matching.linkage.readings import with_readings

    if len(table) < 2:
        return _no_pairs()
    rows = with_readings(table)
    return _score(rows, rows, state, counts, facts, threshold, review_band, keys=keys)


def _no_pairs() -> pd.DataFrame:
    return pd.DataFrame(columns=["unique_id_l", "unique_id_r", "match_probability", "match_weight"])


def _score(new: pd.DataFrame, candidates: pd.DataFrame, state: StoreModel, counts: dict[int, int],
           facts: dict[str, Any], threshold: float, review_band: tuple[float, float] | None,
           keys: dict[str, set[int]] | None = None) -> pd.DataFrame:
    """Rows × rows (readings included) scored, slips weighed, the floor, the guards, one reading a
    pair. Without ``keys``: every pair of two reports; with: each pair once, if they share a key."""
    from athar.matching.linkage.link import (
        SLIP_MARGIN_BITS,
        _below,
        _tidy_pairs,
        add_levels,
        apply_guards,
        weigh_pairs,
    )
    from athar.matching.linkage.readings import base_id, collapse
    from athar.matching.linkage.settings import REVIEW_BAND

    review_band = review_band or REVIEW_BAND
    floor = min(review_band[0], threshold)
    left, right = _with_tf(new, state, counts), _with_tf(candidates, state, counts)
    pairs = _scorer(state, left, right).score(left, right)
    a, b = pairs["unique_id_l"].astype(str).map(base_id), pairs["unique_id_r"].astype(str).map(base_id)
    if keys is None:
        pairs = pairs[a != b]
    else:
        shared = [a_ < b_ and bool(keys.get(a_, set()) & keys.get(b_, set())) for a_, b_ in zip(a, b)]
        pairs = pairs[pd.Series(shared, index=pairs.index, dtype=bool)]
    pairs = pairs[pairs["match_probability"] >= _below(floor, SLIP_MARGIN_BITS)]
    pairs = add_levels(_tidy_pairs(pairs), state.model)
    pairs = weigh_pairs(pairs, facts)
    pairs = pairs[pairs["match_probability"] >= floor].reset_index(drop=True)
    return collapse(apply_guards(pairs, review_band[0], threshold), keep_sides=True).reset_index(drop=True)


@dataclass
class Joined:
    """Where the new report goes: the persons it joins (first: the one it is linked to; others are
    merged into it), the model edges refused (by a decision or a constraint), with their reasons."""

    persons: list[int] = field(default_factory=list)
    linked: list[tuple[str, str, float]] = field(default_factory=list)
    cut: list[tuple[str, str, float]] = field(default_factory=list)
    split: list[tuple[str, str, float, str]] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)


def join_persons(uid: str, pairs: pd.DataFrame, person_of: dict[str, int], members: dict[int, list[str]],
                 decisions: Iterable[tuple[str, str, str]], constraints: Any, threshold: float) -> Joined:
    """The full run's clustering seen from one new report (clustering.cluster_pairs): reviewer
    "same" decisions join first; then its edges at or above ``threshold``, strongest first, each
    joining the candidate's person unless a "different" decision or a constraint (between every
    report gathered so far and every report of that person) refuses it. A report that joins two
    persons merges them, as the full run's connected components would."""
    out = Joined()
    person_of = {**{m: p for p, ms in members.items() for m in ms}, **person_of}
    group: list[str] = [uid]
    different: dict[str, set[str]] = {}
    same: list[str] = []
    for a, b, verdict in decisions:
        if verdict == "different":
            different.setdefault(a, set()).add(b)
            different.setdefault(b, set()).add(a)
        elif verdict == "same" and uid in (a, b):
            same.append(b if a == uid else a)

    def forbidden(left: list[str], right: list[str]) -> bool:
        right_set = set(right)
        return any(different.get(x, set()) & right_set for x in left)

    def take(person: int) -> None:
        out.persons.append(person)
        group.extend(m for m in members.get(person, []) if m not in group)

    for other in sorted(same):
        person = person_of.get(other)
        if person is None or person in out.persons:
            continue
        if forbidden(group, members.get(person, [])):
            out.conflicts.append(f"{uid} and {other} were judged the same, but their clusters hold a pair judged different")
            continue
        take(person)
    if pairs.empty:
        return out
    strong = pairs[(pairs["match_probability"] >= threshold) & (pairs.get("decision", "") != "different")]
    strong = strong.sort_values(["match_probability", "unique_id_r"], ascending=[False, True], kind="stable")
    for a, b, p in zip(strong["unique_id_l"].astype(str), strong["unique_id_r"].astype(str),
                       strong["match_probability"]):
        person = person_of.get(b)
        if person is None or math.isnan(float(p)):
            continue
        if person in out.persons:
            out.linked.append((a, b, float(p)))
            continue
        others = members.get(person, [b])
        if forbidden(group, others):
            out.cut.append((a, b, float(p)))
            continue
        if constraints is not None:
            reason = constraints.conflict(group, others)
            if reason:
                out.split.append((a, b, float(p), reason))
                continue
        out.linked.append((a, b, float(p)))
        take(person)
    return out


def recluster(ids: list[str], pairs: pd.DataFrame, decisions: Iterable[tuple[str, str, str]], constraints: Any,
              threshold: float) -> tuple[pd.DataFrame, Any]:
    """The full run's clustering (clustering.cluster_pairs: "same" decisions first, then the edges
    strongest first, each refused by a "different" decision or a constraint between the two
    clusters it would join) over a new report and every report of the persons it meets, from
    ``pairs``: the new report's and theirs among themselves. Returns the pairs with their
    decisions and the outcome. What a report's arrival changes in those persons (a report that
    now belongs with the new one rather than with its namesake) is changed as a full run would."""
    from athar.matching.linkage.clustering import cluster_pairs, normalise_decisions
    from athar.matching.linkage.link import _apply_decisions

    inside = set(ids)
    decided = normalise_decisions([d for d in decisions if d[0] in inside and d[1] in inside])
    pairs = _apply_decisions(pairs.reset_index(drop=True), decided)
    return pairs, cluster_pairs(ids, pairs, threshold, decided, constraints)


def persons_of_clusters(clusters: dict[str, list[str]], person_of: dict[str, int]) -> dict[str, int | None]:
    """Cluster → the person most of its reports had (each person used once, larger clusters
    first), or None: a new person. The one rule for both a full run's persons
    (registry.linkage.assign_persons) and the worker's second clustering."""
    from collections import Counter

    taken: set[int] = set()
    out: dict[str, int | None] = {}
    for cluster, reports in sorted(clusters.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        votes = Counter(person_of[r] for r in reports if r in person_of)
        choice = next((p for p, _ in sorted(votes.items(), key=lambda kv: (-kv[1], kv[0])) if p not in taken), None)
        if choice is not None:
            taken.add(choice)
        out[cluster] = choice
    return out
