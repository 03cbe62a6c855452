"""The worker's incremental linkage: a new or changed report joins, or opens, a person in well
under a second, without a full run (docs/linkage.md, "Incremental linkage").

The block index lives in the registry's own database (``LinkageKey``: report → 64-bit hashes of
its blocking keys; ``NameFrequency``: hashed value → count), not in a DuckDB file beside it: it is
written in the transaction that links the report and deleted in the one that erases it, so an
erased report never stays findable; it is indexed on SQLite and PostgreSQL alike; several workers
and the web share it without a second store to keep in step. It holds hashes only, no name.

* ``sync_index`` (end of every full run, ``registry.linkage.link_all``): keys of the reports the
  run linked, the term frequencies of the store, and what the run leaves for the incremental step
  (its prediction rules, the number of reports, the totals) in ``LinkageRun.parameters["index"]``.
* ``link_waiting``: each current report the current run has no link for, in id order, one
  transaction each: its keys → candidates (current, not erased) → their persons and those persons'
  reports → Splink's scores with the run's model (u measured on the store), the slips, the guards
  → reviewer decisions → the full run's clustering seen from the new report (strongest edge first;
  "different" decisions and constraints refuse a join; a report that joins two persons merges
  them) → its link, its keys, its review pairs. When a constraint or a decision refuses one of its
  edges, the persons it meets are clustered again as the full run clusters them (``_relinked``):
  the order of arrival no longer decides which of two namesakes keeps a person. When it meets a
  report linked only because it and its partner were each other's only candidate
  (``link.lift_only_candidates``), that lift is undone as a full run would undo it (``_lifts_at_hand``).

What can differ from a full run over the same reports (tested: tests/registry/test_incremental.py):
the full run measures u again on the grown store, counts term frequencies again and reads names
whose order is in doubt with the votes of the whole table (matching/linkage/order.py); the
incremental step keeps those of the last full run and reads a new report's name with the votes of
the report and its candidates. Reports of persons the new report does not meet are not
clustered again: a report moved out of a person is compared only with the persons at hand.
"""

from __future__ import annotations

import json
import logging
import time
from collections import defaultdict
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from django.db import connection, transaction
from django.db.models import Q

from athar.audit.chain import record
from athar.registry.bulk import create_persons
from athar.registry.decisions import decisions_in_force
from athar.registry.models import LinkageKey, LinkageRun, NameFrequency, Report, ReportLink, ReviewPair

log = logging.getLogger(__name__)
INCREMENTAL_LIMIT = 2000  # more reports waiting than this: a full run is quicker
WRITE_CHUNK = 20_000


def _executemany(sql: str, rows: list[tuple[Any, ...]]) -> None:
    with connection.cursor() as cursor:
        for start in range(0, len(rows), WRITE_CHUNK):
            cursor.executemany(sql, rows[start:start + WRITE_CHUNK])


def _insert_keys(rows: list[tuple[int, int]]) -> None:
    table = connection.ops.quote_name(LinkageKey._meta.db_table)
    _executemany(f"INSERT INTO {table} (report_id, {connection.ops.quote_name('key')}) VALUES (%s, %s)", rows)


def sync_index(run: LinkageRun, prepared: Any, model: Any, votes: Any = None) -> dict[str, int]:
    """After a full run: the block index and term frequencies of the reports it linked (``prepared``:
    its prepared table), its order votes (``votes``: where each name stood, order.py, which decide how
    a new report's name is read), and the run's index state. Keys of reports already indexed under
    the same rules are kept; a change of rules (the store grew past a threshold) rebuilds them all."""
    from athar.matching.linkage.incremental import StoreModel, block_keys_by_report, term_frequencies, vote_counts
    from athar.matching.linkage.link import _populated
    from athar.matching.linkage.readings import base_id, with_readings
    from athar.matching.linkage.settings import rule_columns

    rules = rule_columns(_populated(prepared), len(prepared))
    scored = with_readings(prepared)  # the table the full run's Splink blocked and counted
    counts, totals = term_frequencies(scored)
    if votes is not None:
        counts.update(vote_counts(votes))
    state = StoreModel(model, len(prepared), rules, totals, order_votes=votes is not None)
    previous = (LinkageRun.objects.filter(status=LinkageRun.Status.DONE, parameters__has_key="index")
                .exclude(pk=run.pk).order_by("-pk").first())
    same_rules = previous is not None and previous.parameters["index"].get("rules") == state.to_dict()["rules"]
    key_table = connection.ops.quote_name(LinkageKey._meta.db_table)
    report_table = connection.ops.quote_name(Report._meta.db_table)
    with transaction.atomic():
        if same_rules:
            with connection.cursor() as cursor:
                cursor.execute(f"DELETE FROM {key_table} WHERE report_id NOT IN (SELECT id FROM {report_table} "
                               "WHERE is_current = %s AND erased_at IS NULL)", [True])
                cursor.execute(f"SELECT DISTINCT report_id FROM {key_table}")
                indexed = {str(r) for (r,) in cursor.fetchall()}
        else:
            LinkageKey.objects.all().delete()
            indexed = set()
        todo = scored[~scored["unique_id"].map(base_id).isin(indexed)]
        rows = [(int(uid), key) for uid, keys in block_keys_by_report(todo, rules).items() for key in sorted(keys)]
        _insert_keys(rows)
        NameFrequency.objects.all().delete()
        table = connection.ops.quote_name(NameFrequency._meta.db_table)
        _executemany(f"INSERT INTO {table} ({connection.ops.quote_name('key')}, {connection.ops.quote_name('count')}) "
                     "VALUES (%s, %s)", list(counts.items()))
        saved = LinkageRun.objects.get(pk=run.pk).parameters or {}  # the model, written by write_back
        run.parameters = {**saved, "index": state.to_dict()}
        LinkageRun.objects.filter(pk=run.pk).update(parameters=run.parameters)
    return {"indexed_reports": int(todo["unique_id"].map(base_id).nunique()), "keys": len(rows),
            "rebuilt": int(not same_rules)}


def index_current_run() -> dict[str, int]:
    """The block index of the run in force, without linking again (a store linked before the index
    existed): the current reports prepared as the full run prepares them, the run's model."""
    from athar.matching.linkage.model import LinkageModel
    from athar.matching.linkage.prepare import prepare_with_votes
    from athar.registry.linkage import load_input
    from athar.registry.lookup import current_run

    run = current_run()
    if run is None:
        raise ValueError("no linkage run is in force: run `athar registry link`")
    frame, _ = load_input()
    prepared, votes = prepare_with_votes(frame)
    return sync_index(run, prepared, LinkageModel.from_dict(run.parameters), votes)


def store_model(run: LinkageRun | None) -> Any:
    """What the run leaves for the incremental step (StoreModel), or None: no run, a run without its
    index (written before this code, or its index failed) or of another algorithm version."""
    from athar.matching.linkage.incremental import StoreModel
    from athar.matching.linkage.model import LinkageModel
    from athar.matching.linkage.settings import run_version

    data = (run.parameters or {}).get("index") if run is not None else None
    if not data or run.algorithm_version != run_version():  # type: ignore[union-attr]
        return None  # other rules made the persons in force: the worker links everything again
    try:
        model = LinkageModel.from_dict(run.parameters)  # type: ignore[union-attr]
    except (KeyError, ValueError):
        return None
    return StoreModel(model, int(data["n_rows"]), [tuple(r) for r in data["rules"]], dict(data["tf_totals"]),
                      order_votes=bool(data.get("order_votes")))


def waiting(run: LinkageRun) -> list[int]:
    """Current reports (not erased) the run has no link for: new ones and new versions."""
    linked = ReportLink.objects.filter(run=run).values("report_id")
    return list(Report.objects.current_kept().exclude(pk__in=linked).order_by("pk").values_list("pk", flat=True))


def link_waiting(actor: str = "system", limit: int = INCREMENTAL_LIMIT) -> dict[str, Any] | None:
    """Link every waiting report incrementally; None when a full run is needed instead (no run in
    force with its index, or more than ``limit`` reports waiting)."""
    from athar.registry.lookup import current_run

    run = current_run()
    state = store_model(run)
    if run is None or state is None:
        return None
    ids = waiting(run)
    if len(ids) > limit:
        return None
    state = _grown(state, Report.objects.current_kept().count())
    decisions = decisions_in_force()
    started = time.perf_counter()
    changed: set[int] = set()
    counts = {"reports": 0, "new_persons": 0, "joined": 0, "merged": 0, "reclustered": 0, "moved": 0, "review_pairs": 0,
              "lifts_undone": 0}
    for uid in ids:
        done = link_one(run, state, uid, decisions)
        if done is None:
            continue
        counts["reports"] += 1
        counts["new_persons"] += int(done["new"])
        counts["joined"] += int(not done["new"])
        counts["merged"] += len(done["merged"])
        counts["review_pairs"] += done["review_pairs"]
        counts["moved"] += done["moved"]
        counts["reclustered"] += int(done["reclustered"])
        counts["lifts_undone"] += done["lifts_undone"]
        changed.update(done["changed"])
    if counts["reports"]:
        record("registry.link_incremental", object_type="linkage_run", object_id=run.pk, actor=actor, data=counts)
    return {"run": run.pk, "incremental": True, **counts, "persons_changed": sorted(changed),
            "seconds": round(time.perf_counter() - started, 3)}


def _grown(state: Any, reports: int) -> Any:
    """The run's state with the store's size now (the prior λ scales as 1 / reports: model.prior_for),
    to two significant digits once it is more than 2 % away from the run's (the scoring SQL is kept
    while the size stays)."""
    from dataclasses import replace

    if abs(reports - state.n_rows) <= 0.02 * state.n_rows:
        return state
    from athar.matching.linkage.model import TF_MIN_ROWS

    digits = max(0, len(str(reports)) - 2)
    grown = max(1, round(reports, -digits))
    # whether term frequencies apply stays the run's (it has their totals, or none)
    grown = min(grown, TF_MIN_ROWS - 1) if state.n_rows < TF_MIN_ROWS else max(grown, TF_MIN_ROWS)
    return replace(state, n_rows=grown)


def _candidates(keys: set[int], uid: int) -> list[int]:
    """Current reports (not erased) sharing a block key with the report: the index first (on its key
    column), then the reports' state by primary key."""
    if not keys:
        return []
    found = set(LinkageKey.objects.filter(key__in=sorted(keys)).values_list("report_id", flat=True)) - {uid}
    if not found:
        return []
    return sorted(Report.objects.current_kept().filter(pk__in=found).values_list("pk", flat=True))


def _store_votes(frame: Any, own: Any) -> Any:
    """How the names of ``frame`` are read (order.py): with the votes of the store the last full run
    counted, plus ``own``, the new report's — as a full run over the store and the new report would
    read them."""
    from athar.matching.linkage.incremental import vote_key, votes_from
    from athar.matching.linkage.prepare import vote_keys

    ids = vote_keys(frame)
    counts = _frequencies({vote_key(side, i) for i in ids for side in ("family", "given")})
    return votes_from(counts, ids).plus(own)


def _frequencies(keys: set[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    ordered = sorted(keys)
    for start in range(0, len(ordered), 500):
        out.update(NameFrequency.objects.filter(key__in=ordered[start:start + 500]).values_list("key", "count"))
    return out


# Clustering again scores the pairs among every report of the persons a new report meets: its cost
# grows with the square of their number (CPU p95 0.42 s where it fired on the independent Syrian set,
# max 0.87 s). Past this many reports at hand (common names in a store of a million) the worker keeps
# the greedy join, so that one report stays well under a second — unless the person the report would
# join holds namesakes (``_holds_two_agreed_facts``): then that person's own reports, if no more than
# this, are clustered again. The next full run, which sees every report at once, clusters them all.
RECLUSTER_MAX_REPORTS = 200


def link_one(run: LinkageRun, state: Any, uid: int, decisions: list[tuple[str, str, str]],
             threshold: float = 0.9, review_band: tuple[float, float] | None = None) -> dict[str, Any] | None:
    """Link one current report into the run (its own transaction); None when it is gone."""
    from athar.matching.linkage import prepare_reports
    from athar.matching.linkage.clustering import normalise_decisions
    from athar.matching.linkage.incremental import join_persons
    from athar.matching.linkage.link import _apply_decisions, _mark_splits, _status
    from athar.matching.linkage.prepare import table_votes
    from athar.matching.linkage.settings import REVIEW_BAND
    from athar.registry.linkage import load_input

    review_band = review_band or REVIEW_BAND  # the full run's band: the same pairs offered
    with transaction.atomic():
        frame, lineage = load_input([uid])
        if frame.empty:
            return None
        # names read with the store's order votes when the run kept them, else with the table's own
        own_votes = table_votes(frame) if state.order_votes else None
        keys, candidates = _block_candidates(frame, uid, state, own_votes)
        mine = lineage[str(uid)]
        partners = {b if a == mine else a for a, b, v in decisions if mine in (a, b) and v == "same"}
        partner_ids = list(Report.objects.current_kept().filter(lineage__in=partners).values_list("pk", flat=True))
        person_of = {str(r): p for r, p in ReportLink.objects.filter(
            run=run, report_id__in=[*candidates, *partner_ids]).values_list("report_id", "person_id")}
        members: dict[int, list[str]] = defaultdict(list)
        for person, report in ReportLink.objects.filter(
                run=run, person_id__in=set(person_of.values()), report__is_current=True,
                report__erased_at__isnull=True).values_list("person_id", "report_id"):
            members[person].append(str(report))
        everyone = sorted({uid, *candidates, *partner_ids, *(int(r) for m in members.values() for r in m)})
        frame, lineage = load_input(everyone)
        table = prepare_reports(frame, votes=None if own_votes is None else _store_votes(frame, own_votes))
        pairs, constraints = _scored(table, uid, candidates, state, threshold, review_band)
        pairs = _only_candidates(pairs, uid, state, own_votes, threshold, review_band)
        current = {lin: rid for rid, lin in lineage.items()}
        decided = [(current[a], current[b], v) for a, b, v in decisions if a in current and b in current]
        held = {**{m: p for p, ms in members.items() for m in ms}, **person_of}  # every report at hand
        lifted, stale = _lifts_at_hand(run, pairs, uid, held, decided, min(review_band[0], threshold))
        pairs = _apply_decisions(pairs, normalise_decisions([d for d in decided if str(uid) in d[:2]]))
        split_off: tuple[Any, dict[str, int]] | None = None
        if stale and len(frame) > RECLUSTER_MAX_REPORTS:  # too many reports at hand to cluster them again
            split_off = _split_lifts(run, stale, pairs, person_of, members, table, state, threshold, review_band)
        joined = join_persons(str(uid), pairs, person_of, members, decided, constraints, threshold)
        own = [str(uid), *(m for p in joined.persons for m in members.get(p, []))]  # the person it would join
        namesakes = _holds_two_agreed_facts(own, constraints)
        set_aside = bool(joined.persons) and _holds_set_aside(run, own)
        if (joined.split or joined.cut or stale or namesakes or set_aside) and len(frame) <= RECLUSTER_MAX_REPORTS:
            # an edge of the new report was refused, or its person would hold two namesakes' agreed
            # facts: the order in which reports arrived may have decided which of two namesakes a
            # person kept; or the new report meets a report linked only as its partner's only
            # candidate, which it no longer is (a full run leaves that pair for review): cluster them
            # again as a full run would; or the person holds a bare name a run set aside between two
            # namesakes (clustering._set_aside_ambiguous), which the new report may join only if a
            # full run would join it too
            return _write(run, uid, mine, keys, _relinked(run, state, uid, keys, frame, held, decided, threshold,
                                                          review_band, lifted, stale), len(candidates))
        if namesakes and split_off is None and len(own) <= RECLUSTER_MAX_REPORTS:
            # too many reports at hand to cluster them all again (a common name of a large store), but
            # the person the report would join holds namesakes: its own reports are clustered again
            # (a report parted from them opens a person; the next full run may join it elsewhere)
            small, _ = load_input(sorted(int(r) for r in own))
            return _write(run, uid, mine, keys, _relinked(
                run, state, uid, keys, small, {r: held[r] for r in own if r in held}, decided, threshold,
                review_band, lifted), len(candidates))
        pairs = _status(pairs, joined.cut, threshold, review_band)
        pairs = _mark_splits(pairs, joined.split)
        if joined.persons:
            person, merged, new_person = joined.persons[0], joined.persons[1:], False
        else:
            person, merged, new_person = create_persons(1)[0], [], True
        split_persons = split_off[1] if split_off is not None else {}
        cluster_of = {r: f"p{person if p in merged else p}" for r, p in {**person_of, **split_persons}.items()}
        cluster_of[str(uid)] = f"p{person}"
        if split_off is not None:  # the pairs of the lifts undone, offered for review as a full run offers them
            import pandas as pd

            unlifted = _mark_splits(_status(_apply_decisions(split_off[0], []), [], threshold, review_band), [])
            pairs = pd.concat([pairs, unlifted], ignore_index=True)
        placed = Placed(person, new_person, merged, {}, pairs, cluster_of, changed=set(split_persons.values()),
                        unlifted=set(split_persons), lifts_undone=len(split_persons) // 2)
        return _write(run, uid, mine, keys, placed, len(candidates))


def _only_candidates(pairs: Any, uid: int, state: Any, own_votes: Any, threshold: float,
                     review_band: tuple[float, float]) -> Any:
    """The full run's lift of names-only reports that are each other's only candidate
    (``link.lift_only_candidates``), seen from the new report: when its one pair above the floor
    qualifies, the candidate's own candidates in the store (the new report aside) are scored; the
    pair is lifted only when none of them reaches the floor either."""
    from athar.matching.linkage.link import lift_only_candidates
    from athar.matching.linkage.readings import base_id

    floor = min(review_band[0], threshold)
    trial = lift_only_candidates(pairs.copy(), floor, threshold)
    if not trial["only_candidates"].any():
        return trial
    other = int(base_id(str(trial.loc[trial["only_candidates"], "unique_id_r"].iloc[0])))
    return pairs.assign(only_candidates=False) if _meets_another(other, uid, state, own_votes, floor,
                                                                 threshold, review_band) else trial


def _meets_another(rid: int, uid: int, state: Any, own_votes: Any, floor: float, threshold: float,
                   review_band: tuple[float, float]) -> bool:
    """Does report ``rid`` meet a report of the store other than ``uid`` at or above ``floor``?"""
    from athar.matching.linkage import prepare_reports
    from athar.registry.linkage import load_input

    frame, _ = load_input([rid])
    if frame.empty:
        return False
    candidates = [c for c in _block_candidates(frame, rid, state, own_votes)[1] if c != uid]
    if not candidates:
        return False
    frame, _ = load_input(sorted({rid, *candidates}))
    table = prepare_reports(frame, votes=None if own_votes is None else _store_votes(frame, own_votes))
    pairs, _constraints = _scored(table, rid, candidates, state, threshold, review_band)
    return bool((pairs["match_probability"] >= floor).any()) if not pairs.empty else False


def _lifts_at_hand(run: LinkageRun, pairs: Any, uid: int, held: dict[str, int], decided: list[tuple[str, str, str]],
                   floor: float) -> tuple[set[frozenset[str]], set[frozenset[str]]]:
    """The pairs of reports at hand (``held``: report → person) that ``link.lift_only_candidates``
    linked, as two sets: those that still hold (the new report's own lift among them, checked by
    ``_only_candidates``) and those the new report makes stale. A lift is known by the explanation
    of either report's link (its strongest linked pair is the lifted one: the lift needs each to
    have no other pair above the floor). It is stale when the new report meets either report at or
    above ``floor`` (the full run lifts before it applies decisions: a pair judged different counts)
    and no reviewer judged the two the same person (decisions come first)."""
    from athar.matching.linkage.link import ONLY_CANDIDATES_NOTE
    from athar.matching.linkage.readings import base_id

    stored: set[frozenset[str]] = set()
    for report, explanation in ReportLink.objects.filter(
            run=run, report_id__in=[int(r) for r in held]).values_list("report_id", "explanation"):
        other = str((explanation or {}).get("linked_with", ""))
        if ONLY_CANDIDATES_NOTE in str((explanation or {}).get("why", "")) and held.get(other) == held[str(report)]:
            stored.add(frozenset((str(report), other)))
    met = {str(base_id(str(r))) for r, p in zip(pairs["unique_id_r"], pairs["match_probability"]) if p >= floor}
    same = {frozenset(d[:2]) for d in decided if d[2] == "same"}
    stale = {pair for pair in stored if pair & met and pair not in same}
    own = {frozenset((str(uid), str(base_id(str(r))))) for r, o in zip(
        pairs["unique_id_r"], pairs.get("only_candidates", [False] * len(pairs))) if o}
    return (stored - stale) | own, stale


def _split_lifts(run: LinkageRun, stale: set[frozenset[str]], pairs: Any, person_of: dict[str, int],
                 members: dict[int, list[str]], table: Any, state: Any, threshold: float,
                 review_band: tuple[float, float]) -> tuple[Any, dict[str, int]]:
    """Past RECLUSTER_MAX_REPORTS: each stale lift (``_lifts_at_hand``) whose person holds just its
    two reports is split in two before the new report is joined, as a full run leaves them (its
    only edge no longer lifted): the report the new one meets best keeps the person, the other gets
    a new one (``person_of`` and ``members`` follow). A lift inside a larger person stays until the
    next full run. Returns the two reports' pairs at the model's own probability (for the review
    queue) and the persons of the reports split."""
    import pandas as pd

    from athar.matching.linkage.readings import base_id

    met: dict[str, float] = {}
    for other, p in zip(pairs["unique_id_r"], pairs["match_probability"]):
        met[str(base_id(str(other)))] = max(met.get(str(base_id(str(other))), 0.0), float(p))
    held = {m: p for p, ms in members.items() for m in ms}
    found, placed = [], {}
    for pair in sorted(stale, key=sorted):
        keep, leave = sorted(pair, key=lambda r: (-met.get(r, 0.0), int(r)))
        person = held.get(keep)
        if person is None or set(members.get(person, [])) != set(pair):
            continue
        new = create_persons(1)[0]
        ReportLink.objects.filter(run=run, report_id=int(leave)).update(person_id=new)
        members[person], members[new] = [keep], [leave]
        if leave in person_of:
            person_of[leave] = new
        placed.update({keep: person, leave: new})
        two = table[table["unique_id"].astype(str).isin(pair)].reset_index(drop=True)
        found.append(_scored(two, int(keep), [int(leave)], state, threshold, review_band)[0])
    scored = pd.concat(found, ignore_index=True) if found else pairs.iloc[0:0]
    return scored.assign(only_candidates=False), placed


def _block_candidates(frame: Any, rid: int, state: Any, own_votes: Any) -> tuple[set[int], list[int]]:
    """Report ``rid``'s block keys (``frame`` holds its row) and the stored reports sharing one."""
    from athar.matching.linkage import prepare_reports
    from athar.matching.linkage.incremental import block_keys_by_report
    from athar.matching.linkage.readings import with_readings

    own = prepare_reports(frame, votes=None if own_votes is None else _store_votes(frame, own_votes))
    keys = block_keys_by_report(with_readings(own), state.rules)[str(rid)]
    return keys, _candidates(keys, rid)


def _scored(table: Any, rid: int, candidates: list[int], state: Any, threshold: float,
            review_band: tuple[float, float]) -> tuple[Any, Any]:
    """Report ``rid`` of ``table`` scored against its ``candidates`` (incremental.score_new), and the
    constraints of every report of the table (one reading of each report compatible suffices)."""
    import pandas as pd

    from athar.matching.linkage.constraints import Constraints
    from athar.matching.linkage.incremental import score_new, tf_keys_of
    from athar.matching.linkage.readings import with_readings

    new = table[table["unique_id"] == str(rid)].reset_index(drop=True)
    others = table[table["unique_id"].isin({str(c) for c in candidates})].reset_index(drop=True)
    constraints = Constraints(with_readings(table))
    counts = _frequencies(tf_keys_of(with_readings(pd.concat([new, others]))))
    pairs = score_new(new, others, state, counts, constraints.facts, threshold=threshold, review_band=review_band)
    return pairs, constraints


def _holds_set_aside(run: LinkageRun, group: list[str]) -> bool:
    """Does the person the new report would join hold a report a run set aside as a bare name that
    fits two namesakes (an open review pair kept apart for clustering.AMBIGUOUS_REASON)? A full run
    sets it aside again when the new report is one more namesake, so the worker clusters them again."""
    from athar.matching.linkage.clustering import AMBIGUOUS_REASON

    reports = [int(r) for r in group]
    held = ReviewPair.objects.filter(Q(left_report_id__in=reports) | Q(right_report_id__in=reports), run=run,
                                     status=ReviewPair.Status.OPEN).values_list("explanation", flat=True)
    return any(AMBIGUOUS_REASON in str((why or {}).get("why", "")) for why in held)


def _holds_two_agreed_facts(group: list[str], constraints: Any) -> bool:
    """Would the new report's person (``group``: the new report and the reports of the persons it
    would join) hold two far-apart facts, each stated by two of its reports
    (constraints.holds_two_agreed_facts), or a report outvoted by as many of its reports as a full
    run's clustering refuses (constraints.holds_outvoted_report)? A person the first run joined
    before either namesake had two reports of its own, or that took a namesake's report when its own
    were still few, stays joined when a later report agrees with one side and no edge of it is
    refused; a full run keeps the two apart, so the worker clusters them again."""
    from athar.matching.linkage.constraints import holds_outvoted_report, holds_two_agreed_facts

    facts = [constraints.facts[r] for r in group if r in constraints.facts]
    return holds_two_agreed_facts(facts) or holds_outvoted_report(facts)


@dataclass
class Placed:
    """Where one report's linking puts reports: the new report's person (``new``: made for it), the
    persons that ceased (merged into others), the reports of the store moved to another person, the
    pairs scored (with their status) and each report's cluster (for the review queue)."""

    person: int
    new: bool
    merged: list[int]
    moves: dict[str, int]
    pairs: Any
    cluster_of: dict[str, str]
    changed: set[int] = field(default_factory=set)  # besides ``person`` and ``merged``: persons moves changed
    reclustered: bool = False  # the persons the report met were clustered again (_relinked)
    unlifted: set[str] = field(default_factory=set)  # reports of lifts undone: their explanation is rewritten
    lifts_undone: int = 0  # pairs linked as each other's only candidate and no longer linked


def _relinked(run: LinkageRun, state: Any, uid: int, keys: set[int], frame: Any, person_of: dict[str, int],
              decided: list[tuple[str, str, str]], threshold: float, review_band: tuple[float, float],
              lifted: set[frozenset[str]] | None = None, stale: set[frozenset[str]] | None = None) -> Placed:
    """The new report and every report of the persons it meets (``frame``) clustered again as the
    full run clusters (incremental.recluster), from their pairs that share a block key; each
    cluster keeps the person most of its reports had. Names are read with the store's votes plus
    those of every report at hand, as a full run over them all would read them. ``person_of``: the
    person of every report at hand but the new one. ``lifted``: the pairs at hand that
    link.lift_only_candidates links in the store and still would, lifted again if nothing at hand
    says otherwise (the reports at hand cannot tell whether a pair meets a report elsewhere in the
    store); ``stale``: lifts the new report undoes (not lifted: their pair goes to review at the
    model's probability)."""
    from athar.matching.linkage import prepare_reports
    from athar.matching.linkage.constraints import Constraints
    from athar.matching.linkage.incremental import persons_of_clusters, recluster, score_among, tf_keys_of
    from athar.matching.linkage.link import _mark_splits, _status
    from athar.matching.linkage.prepare import table_votes
    from athar.matching.linkage.readings import with_readings

    table = prepare_reports(frame, votes=_store_votes(frame, table_votes(frame)) if state.order_votes else None)
    ids = [str(u) for u in table["unique_id"]]
    block: dict[str, set[int]] = defaultdict(set, {str(uid): set(keys)})
    for report, key in LinkageKey.objects.filter(report_id__in=[int(r) for r in ids if r != str(uid)]).values_list(
            "report_id", "key"):
        block[str(report)].add(key)
    constraints = Constraints(with_readings(table))
    counts = _frequencies(tf_keys_of(with_readings(table)))
    pairs = score_among(table, state, counts, constraints.facts, block, threshold=threshold, review_band=review_band)
    pairs = _lifted_again(pairs, lifted or set(), min(review_band[0], threshold), threshold)
    pairs, outcome = recluster(ids, pairs, decided, constraints, threshold)
    pairs = _mark_splits(_status(pairs, outcome.cut_edges, threshold, review_band), outcome.split_edges)
    clusters: dict[str, list[str]] = defaultdict(list)
    for rid in ids:
        clusters[outcome.cluster_of[rid]].append(rid)
    chosen = persons_of_clusters(clusters, person_of)
    fresh = [c for c, p in chosen.items() if p is None]
    chosen.update(zip(fresh, create_persons(len(fresh))))
    person = int(chosen[outcome.cluster_of[str(uid)]])  # type: ignore[arg-type]
    now = {r: int(chosen[c]) for c, reports in clusters.items() for r in reports}  # type: ignore[arg-type]
    moves = {r: p for r, p in now.items() if r in person_of and person_of[r] != p}
    merged = sorted(set(person_of.values()) - set(now.values()))
    made = {int(chosen[c]) for c in fresh}  # type: ignore[arg-type]
    undone = [pair for pair in stale or set() if len({now.get(r) for r in pair}) > 1]
    return Placed(person, person in made, merged, moves, pairs, {r: f"p{p}" for r, p in now.items()},
                  changed={person, *merged, *moves.values(), *(person_of[r] for r in moves)}, reclustered=True,
                  unlifted={r for pair in undone for r in pair}, lifts_undone=len(undone))


def _lifted_again(pairs: Any, lifted: set[frozenset[str]], floor: float, threshold: float) -> Any:
    """``pairs`` (score_among) with link.lift_only_candidates applied to those of ``lifted`` that it
    still lifts among the pairs at hand; every other pair keeps the model's probability."""
    import pandas as pd

    from athar.matching.linkage.link import lift_only_candidates
    from athar.matching.linkage.readings import base_id

    pairs = pairs.assign(only_candidates=False)
    if pairs.empty or not lifted:
        return pairs
    trial = lift_only_candidates(pairs.copy(), floor, threshold)
    known = pd.Series([frozenset((str(base_id(str(a))), str(base_id(str(b))))) in lifted
                       for a, b in zip(pairs["unique_id_l"], pairs["unique_id_r"])], index=pairs.index, dtype=bool)
    keep = trial["only_candidates"].astype(bool) & known
    if keep.any():
        pairs.loc[keep, ["match_probability", "match_weight"]] = trial.loc[keep, ["match_probability", "match_weight"]]
        pairs.loc[keep, "only_candidates"] = True
    return pairs


def _write(run: LinkageRun, uid: int, mine: str, keys: set[int], placed: Placed, candidates: int) -> dict[str, Any]:
    """The new report's link and block keys, the moves of the store's reports, the review pairs."""
    import pandas as pd

    from athar.matching.linkage.link import review_queue
    from athar.registry.linkage import best_pairs, explain, unlinked_explanation

    result = SimpleNamespace(pairs=placed.pairs)
    best = best_pairs(result) if "status" in placed.pairs.columns else pd.DataFrame(columns=["uid"])
    reasons = {str(u): row for u, row in zip(best["uid"], best.to_dict("records"))}
    for report, person in placed.moves.items():
        why = reasons.get(report)
        ReportLink.objects.filter(run=run, report_id=int(report)).update(
            person_id=person, **({} if why is None and report not in placed.unlifted else _restated(why, report, placed)))
    for report in sorted(placed.unlifted - set(placed.moves)):  # its stored reason, the lift, no longer holds
        ReportLink.objects.filter(run=run, report_id=int(report)).update(**_restated(reasons.get(report), report, placed))
    if placed.merged:
        ReportLink.objects.filter(run=run, person_id__in=placed.merged).update(person_id=placed.person)
    if str(uid) in reasons:
        prob, explanation = _probability(reasons[str(uid)]["match_probability"]), _explanation(reasons[str(uid)])
    else:
        prob, explanation = None, unlinked_explanation(alone=not placed.merged and placed.new)
    ReportLink.objects.create(run=run, report_id=uid, person_id=placed.person, probability=prob,
                              explanation=json.loads(json.dumps(explanation, default=str)))
    if placed.merged or placed.moves:
        _drop_pairs_within(run, {placed.person, *placed.changed} - set(placed.merged))
    older = Report.objects.filter(lineage=mine).exclude(pk=uid)
    LinkageKey.objects.filter(report__in=older).delete()
    ReviewPair.objects.filter(Q(left_report__in=older) | Q(right_report__in=older), run=run,
                              status=ReviewPair.Status.OPEN).delete()
    LinkageKey.objects.bulk_create([LinkageKey(report_id=uid, key=k) for k in sorted(keys)])
    pairs = placed.pairs
    review = review_queue(pairs, placed.cluster_of) if "status" in pairs.columns else pairs.iloc[0:0]
    rows = []
    if len(review):
        for (left, right, p), text in zip(review[["unique_id_l", "unique_id_r", "match_probability"]]
                                          .itertuples(index=False, name=None), explain(review, result)):
            a, b = sorted((int(left), int(right)))
            rows.append(ReviewPair(run=run, left_report_id=a, right_report_id=b, probability=float(p),
                                   explanation={"why": text}))
        ReviewPair.objects.bulk_create(rows, ignore_conflicts=True)
        _keep_strongest_per_report(run, {r for row in rows for r in (row.left_report_id, row.right_report_id)})
    return {"report": uid, "person": placed.person, "new": placed.new, "merged": placed.merged,
            "reclustered": placed.reclustered, "moved": len(placed.moves), "changed": sorted(placed.changed | {placed.person, *placed.merged}),
            "candidates": candidates, "review_pairs": len(rows), "lifts_undone": placed.lifts_undone}


def _keep_strongest_per_report(run: LinkageRun, reports: set[int]) -> None:
    """The full run's cap on the queue (link.review_queue: each report offered against its
    ``REVIEW_PER_REPORT`` strongest other persons at most) on the open pairs of the reports that new
    pairs touch: a report's weaker pairs, now beyond the cap, leave the queue as a full run would
    leave them out. A reviewer's decision on one of the strongest brings the next back on the next
    full run."""
    from athar.matching.linkage.settings import REVIEW_PER_REPORT

    beyond: list[int] = []
    for report in sorted(reports):
        open_pairs = ReviewPair.objects.filter(Q(left_report_id=report) | Q(right_report_id=report), run=run,
                                               status=ReviewPair.Status.OPEN)
        beyond += open_pairs.order_by("-probability", "left_report_id", "right_report_id").values_list(
            "pk", flat=True)[REVIEW_PER_REPORT:]
    if beyond:
        ReviewPair.objects.filter(pk__in=beyond).delete()


def _restated(why: dict[str, Any] | None, report: str, placed: Placed) -> dict[str, Any]:
    """A stored report's probability and explanation after its person changed: its strongest linked
    pair, or, without one, what a full run writes (registry.linkage._links)."""
    from athar.registry.linkage import unlinked_explanation

    if why is not None:
        return {"probability": _probability(why["match_probability"]), "explanation": _explanation(why)}
    alone = sum(c == placed.cluster_of.get(report) for c in placed.cluster_of.values()) <= 1
    return {"probability": None, "explanation": unlinked_explanation(alone=alone)}


def _drop_pairs_within(run: LinkageRun, persons: set[int]) -> None:
    """Open review pairs between two reports that a merge or a move has made one person leave the
    queue: it offers pairs of two persons, never two reports of one (link.review_queue), and a full
    run would not offer them either."""
    person_of = dict(ReportLink.objects.filter(run=run, person_id__in=persons).values_list("report_id", "person_id"))
    within = [pk for pk, left, right in ReviewPair.objects.filter(
        run=run, status=ReviewPair.Status.OPEN, left_report_id__in=list(person_of), right_report_id__in=list(person_of),
    ).values_list("pk", "left_report_id", "right_report_id") if person_of[left] == person_of[right]]
    ReviewPair.objects.filter(pk__in=within).delete()


def _probability(value: Any) -> float | None:
    import pandas as pd

    return None if pd.isna(value) else round(float(value), 6)


def _explanation(best: dict[str, Any]) -> dict[str, Any]:
    """A link's explanation from its strongest linked pair (registry.linkage.best_pairs)."""
    out: dict[str, Any] = {"linked_with": int(best["other"]), "probability": _probability(best["match_probability"]),
                           "why": best["why"]}
    if best.get("decision"):
        out["decision"] = best["decision"]
    return json.loads(json.dumps(out, default=str))
