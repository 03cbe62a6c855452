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
  clustered again with the edges between reports that agree taken first (:func:`_part_chained_namesakes`);
* a report that names a man by his given and family name alone, linked as strongly to two persons
  the constraints keep apart, is set aside on its own and both pairs go to review
  (:func:`_set_aside_ambiguous`): which of two namesakes it means is for a person to say.
"""

from __future__ import annotations

import math
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
        _set_aside_ambiguous(comps, strong, constraints, outcome, decided)
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
    edges = _edges_inside(comps, strong, set(suspects))
    for root, members in suspects.items():
        inside = sorted(edges[root], key=lambda e: (_disagree(constraints, e[0], e[1]), -e[2], e[0], e[1]))
        _recluster(comps, root, members, inside, constraints, outcome)


AMBIGUOUS_REASON = "a given and a family name only, and a namesake as strongly linked (which of the two?): to review"
AMBIGUOUS_MARGIN_BITS = 3.0  # a report linked this much more strongly to its own person stays there


def _set_aside_ambiguous(comps: _Components, strong: pd.DataFrame, constraints: Constraints,
                         outcome: ClusterOutcome, decided: set[str]) -> None:
    """(issue 28, twenty-first session) A thin report — a given and a family name, no father,
    grandfather, mother or birth year ("محمد الحداد", Darayya, March 2012) — whose edge to a second
    person was refused by a constraint, though nothing in the report itself contradicts that
    person, and whose edges into its own person are not clearly stronger (``AMBIGUOUS_MARGIN_BITS``),
    names either of two men the table keeps apart. Edges are taken strongest first, so which one it
    joined was the order of equal edges, a coin: on field lists (seed 32) such reports were as often
    wrong as right. It is taken out of its person (the rest clustered again without it) and its
    strongest edge into that person is kept as a split, so that both persons are offered to a
    reviewer. Measured on every set side by side (P / R / R with review): field lists 0.9778 / 0.7924
    / 0.8984 → 0.9813 / 0.7894 / 0.8989 (seed 32: 0.9731 / 0.7877 → 0.9771 / 0.7847, 0.8978), fresh
    0.9838 / 0.9574 / 0.9930 → 0.9876 / 0.9516 / 0.9924 (seed 22: 0.9839 / 0.9624 → 0.9881 / 0.9577,
    0.9924), independent 0.9890 / 0.9589 → 0.9900 / 0.9571 (0.9845), slips P +0.0011; links become
    questions, what is found with review stays. A report that states a birth year is left where it
    is: two persons it fits as well, birth year included, are more often one man's reports parted by
    a slip (OFAC: "FOZ, Hussen", 1981, between two halves of one entity; recall 0.828 → 0.811 when
    such reports were set aside too). Persons holding a reviewer's decision are left as they are."""
    candidates = _thin_ends_of_splits(comps, constraints, outcome, decided)
    if not candidates:
        return
    best = _strongest_inside(comps, strong, set(candidates))
    ambiguous: dict[str, tuple[str, float]] = {}
    for x, refused in candidates.items():
        inside = best.get(x)
        if inside is not None and any(log2_odds(inside[1]) - log2_odds(p) < AMBIGUOUS_MARGIN_BITS
                                      and constraints.conflict([x], comps.members_of(other)) is None
                                      for p, other in refused):
            ambiguous[x] = inside
    if not ambiguous:
        return
    roots = {comps.find(x) for x in ambiguous}
    edges = _edges_inside(comps, strong, roots, leave_out=set(ambiguous))
    for root in sorted(roots):
        _recluster(comps, root, comps.members_of(root), edges[root], constraints, outcome)
    for x, (partner, p) in sorted(ambiguous.items()):
        outcome.split_edges.append((x, partner, p, AMBIGUOUS_REASON))


def _thin_ends_of_splits(comps: _Components, constraints: Constraints, outcome: ClusterOutcome,
                         decided: set[str]) -> dict[str, list[tuple[float, str]]]:
    """Thin reports (:func:`_thin`) at an end of a refused edge, in a person with no reviewer's
    decision: report → [(the refused edge's probability, the other person)]."""
    out: dict[str, list[tuple[float, str]]] = {}
    for a, b, p, _ in outcome.split_edges:
        for x, y in ((a, b), (b, a)):
            own, other = comps.find(x), comps.find(y)
            if own != other and own not in comps.cannot and _thin(constraints, x) \
                    and not decided.intersection(comps.members_of(own)):
                out.setdefault(x, []).append((p, other))
    return out


def _edges_inside(comps: _Components, strong: pd.DataFrame, roots: set[str],
                  leave_out: frozenset[str] | set[str] = frozenset()) -> dict[str, list[tuple[str, str, float]]]:
    """The strong edges inside each person of ``roots`` (by its root), in ``strong``'s order,
    without those touching a report of ``leave_out``."""
    edges: dict[str, list[tuple[str, str, float]]] = {root: [] for root in roots}
    for a, b, p in zip(strong["unique_id_l"].astype(str), strong["unique_id_r"].astype(str), strong["match_probability"]):
        root = comps.find(a)
        if root in edges and comps.find(b) == root and a not in leave_out and b not in leave_out:
            edges[root].append((a, b, float(p)))
    return edges


def _strongest_inside(comps: _Components, strong: pd.DataFrame, reports: set[str]) -> dict[str, tuple[str, float]]:
    """Each of ``reports``' strongest edge to a report of its own person: (that report, probability)."""
    best: dict[str, tuple[str, float]] = {}
    for a, b, p in zip(strong["unique_id_l"].astype(str), strong["unique_id_r"].astype(str), strong["match_probability"]):
        if (a in reports or b in reports) and comps.find(a) == comps.find(b):
            for x, y in ((a, b), (b, a)):
                if x in reports and (x not in best or float(p) > best[x][1]):
                    best[x] = (y, float(p))
    return best


def _thin(constraints: Constraints, uid: str) -> bool:
    """A given and a family name, no father, grandfather, mother or birth year (constraints' facts)."""
    facts = constraints.facts.get(uid)
    if facts is None:
        return False
    first, father, mother = facts.names
    return first is not None and facts.family is not None and father is None and mother is None \
        and facts.grandfather is None and facts.birth_year is None


def log2_odds(probability: float) -> float:
    """A match probability as a match weight in bits (log2 odds; 1.0 read as 40 bits): the one
    conversion the clustering and the weighing steps (link.py) share."""
    p = min(max(probability, 1e-12), 1 - 1e-12)
    return math.log2(p / (1 - p))


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
