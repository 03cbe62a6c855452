"""Clustering scored pairs into persons, with reviewer decisions that override the model.

* "same" pairs are always joined (first), whatever the model says;
* "different" pairs are never in one cluster: a model edge that would join two clusters
  holding a "different" pair is skipped (edges are taken strongest first);
* "unsure" decisions leave the model's edge as it is;
* with ``constraints`` (constraints.py), a model edge that would put two incompatible reports
  (different given names, fathers, mothers or sexes, birth years far apart) into one cluster is
  refused and kept with its reason in ``split_edges``: siblings are never chained into one person;
* a person that ends up holding two facts each stated by two of its reports, far apart (namesakes
  chained through reports that joined one at a time, before either side had two of its own), is
  clustered again with the edges between reports that agree taken first (:func:`_part_chained_namesakes`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import pandas as pd

from athar.matching.linkage.constraints import Constraints, facts_differ, holds_two_agreed_facts

DECISIONS = ("same", "different", "unsure")


@dataclass(frozen=True)
class Decision:
    """A reviewer's judgement on one pair of reports."""

    id_l: str
    id_r: str
    decision: str  # same | different | unsure
    reviewer: str = ""
    note: str = ""


@dataclass
class ClusterOutcome:
    cluster_of: dict[str, str]
    cut_edges: list[tuple[str, str, float]] = field(default_factory=list)  # model edges refused
    conflicts: list[str] = field(default_factory=list)  # "same" decisions that contradict "different"
    split_edges: list[tuple[str, str, float, str]] = field(default_factory=list)  # refused by a constraint


def normalise_decisions(decisions: Iterable[Decision | dict | tuple] | pd.DataFrame | None) -> list[Decision]:
    """Accept Decision objects, dicts (id_l, id_r, decision) or (id_l, id_r, decision) tuples."""
    if decisions is None:
        return []
    if isinstance(decisions, pd.DataFrame):
        decisions = decisions.to_dict("records")
    out = []
    for d in decisions:
        if isinstance(d, Decision):
            dec = d
        elif isinstance(d, dict):
            dec = Decision(str(d["id_l"]), str(d["id_r"]), str(d["decision"]), str(d.get("reviewer", "")), str(d.get("note", "")))
        else:
            dec = Decision(str(d[0]), str(d[1]), str(d[2]))
        if dec.decision not in DECISIONS:
            raise ValueError(f"unknown decision {dec.decision!r}: expected one of {DECISIONS}")
        out.append(dec)
    return out


class _Components:
    def __init__(self, ids: Iterable[str]) -> None:
        self.parent = {i: i for i in ids}
        self.cannot: dict[str, set[str]] = {}
        self.members: dict[str, list[str]] = {}

    def members_of(self, root: str) -> list[str]:
        return self.members.get(root) or [root]

    def find(self, x: str) -> str:
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def forbidden(self, a: str, b: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        return rb in {self.find(x) for x in self.cannot.get(ra, ())}

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        if len(self.cannot.get(ra, ())) < len(self.cannot.get(rb, ())):
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.members[ra] = self.members_of(ra) + self.members.pop(rb, [rb])
        if rb in self.cannot:
            self.cannot.setdefault(ra, set()).update(self.cannot.pop(rb))

    def forbid(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        self.cannot.setdefault(ra, set()).add(rb)
        self.cannot.setdefault(rb, set()).add(ra)


def cluster_pairs(ids: Iterable[str], pairs: pd.DataFrame, threshold: float,
                  decisions: list[Decision] | None = None, constraints: Constraints | None = None) -> ClusterOutcome:
    """Cluster ids from pairs (columns unique_id_l, unique_id_r, match_probability); strongest
    edges first, each refused when a "different" decision or a constraint forbids the join."""
    decisions = decisions or []
    comps = _Components(str(i) for i in ids)
    for d in decisions:
        for x in (d.id_l, d.id_r):
            comps.parent.setdefault(x, x)
    outcome = ClusterOutcome({})
    for d in (d for d in decisions if d.decision == "different"):
        comps.forbid(d.id_l, d.id_r)
    for d in (d for d in decisions if d.decision == "same"):
        if comps.forbidden(d.id_l, d.id_r):
            outcome.conflicts.append(f"{d.id_l} and {d.id_r} were judged the same, but their clusters hold a pair judged different")
            continue
        comps.union(d.id_l, d.id_r)
    strong = pairs[pairs["match_probability"] >= threshold]
    # Ties broken by the ids: the engine returns pairs in no fixed order, and the order of equal
    # edges decides which of two incompatible reports a cluster keeps.
    strong = strong.sort_values(["match_probability", "unique_id_l", "unique_id_r"],
                                ascending=[False, True, True], kind="stable")
    edges = zip(strong["unique_id_l"].astype(str), strong["unique_id_r"].astype(str), strong["match_probability"])
    _join(comps, ((a, b, float(p)) for a, b, p in edges), constraints, outcome)
    if constraints is not None:
        decided = {x for d in decisions for x in (d.id_l, d.id_r)}
        _part_chained_namesakes(comps, strong, constraints, outcome, decided)
    outcome.cluster_of = {i: comps.find(i) for i in comps.parent}
    return outcome


def _join(comps: _Components, edges: Iterable[tuple[str, str, float]], constraints: Constraints | None,
          outcome: ClusterOutcome) -> None:
    """Add ``edges`` in their order, each refused when a "different" decision (``cut_edges``) or a
    constraint (``split_edges``, with its reason) forbids the join."""
    for a, b, p in edges:
        if comps.find(a) == comps.find(b):
            continue
        if comps.cannot and comps.forbidden(a, b):
            outcome.cut_edges.append((a, b, p))
            continue
        if constraints is not None:
            reason = constraints.conflict(comps.members_of(comps.find(a)), comps.members_of(comps.find(b)))
            if reason:
                outcome.split_edges.append((a, b, p, reason))
                continue
        comps.union(a, b)


def _part_chained_namesakes(comps: _Components, strong: pd.DataFrame, constraints: Constraints,
                            outcome: ClusterOutcome, decided: set[str]) -> None:
    """(issue 28, eleventh session) Cluster again every person whose reports state a fact twice over,
    far apart (``holds_two_agreed_facts``: born 1979 in two reports, 1980 in three; arrested 2011-04
    in two, 2012-05 in five), taking first the edges between reports whose facts agree. Strongest
    first alone, a namesake's single report joined the other man through a year-apart date (a weak
    penalty) before its second report could make his own side two; taken in agreement order, each
    side forms first and ``corroborated_conflict`` keeps them apart (the refused edge goes to review).
    Three Yaser Ali Taha of Raqqa were one person in the fresh set. Persons holding a reviewer's
    decision, or forbidden pairs, are left as they are."""
    suspects: dict[str, list[str]] = {}
    for root in {comps.find(i) for i in comps.parent}:
        members = comps.members_of(root)
        if len(members) < 4 or root in comps.cannot or decided.intersection(members):
            continue
        if holds_two_agreed_facts([constraints.facts[m] for m in members if m in constraints.facts]):
            suspects[root] = members
    if not suspects:
        return
    edges: dict[str, list[tuple[str, str, float]]] = {root: [] for root in suspects}
    for a, b, p in zip(strong["unique_id_l"].astype(str), strong["unique_id_r"].astype(str), strong["match_probability"]):
        root = comps.find(a)
        if root in edges and comps.find(b) == root:
            edges[root].append((a, b, float(p)))
    for root, members in suspects.items():
        inside = sorted(edges[root], key=lambda e: (_disagree(constraints, e[0], e[1]), -e[2], e[0], e[1]))
        _recluster(comps, root, members, inside, constraints, outcome)


def _disagree(constraints: Constraints, a: str, b: str) -> bool:
    fa, fb = constraints.facts.get(a), constraints.facts.get(b)
    return fa is not None and fb is not None and facts_differ(fa, fb)


def _recluster(comps: _Components, root: str, members: list[str], edges: list[tuple[str, str, float]],
               constraints: Constraints, outcome: ClusterOutcome) -> None:
    """The members of one component clustered again over ``edges`` in their order, written back."""
    sub = _Components(members)
    _join(sub, edges, constraints, outcome)
    comps.members.pop(root, None)
    for m in members:
        comps.parent[m] = sub.find(m)
    for m in members:
        if sub.find(m) == m:
            comps.members[m] = sub.members_of(m)
