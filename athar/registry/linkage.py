"""``athar registry link``: every current report linked into missing persons.

The model and the clustering are ``athar.matching.linkage`` (plain Python, Splink on DuckDB or
Spark; docs/linkage.md). This module is the database side:

1. read the current reports (not erased) into the linkage input table;
2. hand over the reviewer decisions in force (they win over the model);
3. write back in one transaction: persons (kept stable across runs: a cluster keeps the person
   most of its reports had), one ``ReportLink`` per report with the probability and the reasons,
   the unsure pairs as ``ReviewPair`` rows, and the switch of the current run. A crash before the
   commit leaves the previous assignment in force; the run row is marked failed.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pandas as pd
from django.db import connection, transaction
from django.utils import timezone

from athar.audit.chain import record
from athar.config import env_str
from athar.registry.bulk import create_persons, insert_links
from athar.registry.decisions import decisions_in_force
from athar.registry.models import LinkageRun, Report, ReportLink, ReviewPair

log = logging.getLogger(__name__)
WRITE_BATCH = 5000
KEEP_RUNS_WITH_LINKS = 2  # the current run and the one before it keep their link rows
INPUT_FIELDS = ("first_name", "father_name", "grandfather_name", "family_name", "mother_name",
                "full_name_ar", "full_name_latin", "sex", "birth_year", "birth_place", "governorate", "city",
                "arrest_date", "arrest_date_precision", "arresting_agency", "age_at_detention")


def _iso(date: Any, precision: str) -> str:
    if not date:
        return ""
    text = date if isinstance(date, str) else date.isoformat()
    return {"year": text[:4], "month": text[:7]}.get(precision, text[:10])


def _rows(ids: list[int] | None = None) -> Iterator[tuple[Any, ...]]:
    table = Report._meta.db_table
    columns = ", ".join(("id", "lineage", *INPUT_FIELDS))
    where = "is_current = %s AND erased_at IS NULL"
    params: list[Any] = [True]
    if ids is not None:
        if not ids:
            return
        where += f" AND id IN ({', '.join(['%s'] * len(ids))})"
        params += [int(i) for i in ids]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns} FROM {table} WHERE {where} ORDER BY id", params)
        while batch := cursor.fetchmany(20_000):
            yield from batch


OUTPUT_COLUMNS = ("unique_id", "first_name", "father_name", "grandfather_name", "family_name", "mother_name",
                  "full_name", "full_name_latin", "sex", "birth_year", "birth_place", "governorate", "city",
                  "arrest_date", "arresting_agency")
PLAIN = ("first_name", "father_name", "grandfather_name", "family_name", "mother_name", "birth_place",
         "governorate", "city", "arresting_agency")


def load_input(ids: list[int] | None = None) -> tuple[pd.DataFrame, dict[str, str]]:
    """The linkage input (one row per current report, built column by column to stay small at
    a million reports; only those of ``ids`` when given) and report id → lineage."""
    columns: dict[str, list[str]] = {name: [] for name in OUTPUT_COLUMNS}
    lineage: dict[str, str] = {}
    position = {name: i for i, name in enumerate(("id", "lineage", *INPUT_FIELDS))}
    for row in _rows(ids):
        uid = str(row[0])
        lineage[uid] = row[1]
        columns["unique_id"].append(uid)
        for name in PLAIN:
            columns[name].append(row[position[name]] or "")
        full_ar, full_la = row[position["full_name_ar"]] or "", row[position["full_name_latin"]] or ""
        columns["full_name"].append(full_ar or full_la)
        columns["full_name_latin"].append(full_la if full_ar else "")
        sex = row[position["sex"]]
        columns["sex"].append("" if sex in ("U", None) else sex)
        # an age with no birth year (no arrest year to count it from) goes where lists write it, the
        # birth-year column, for the linkage to read as an age (prepare.birth_year_from_age)
        born, age = row[position["birth_year"]], row[position["age_at_detention"]]
        columns["birth_year"].append(str(born) if born else (str(age) if age is not None else ""))
        columns["arrest_date"].append(_iso(row[position["arrest_date"]], row[position["arrest_date_precision"]]))
    return pd.DataFrame(columns, columns=list(OUTPUT_COLUMNS)), lineage


def decisions_for(lineage: dict[str, str]) -> list[tuple[str, str, str]]:
    """Reviewer decisions in force, on the current versions of the reports they judged."""
    current = {lin: uid for uid, lin in lineage.items()}
    out = []
    for left, right, verdict in decisions_in_force():
        if left in current and right in current:
            out.append((current[left], current[right], verdict))
    return out


def link_all(engine: str = "duckdb", actor: str = "system", spark: Any = None) -> dict[str, Any]:
    """Link every current report; returns counts and timings."""
    from athar.matching.linkage import link_reports
    from athar.matching.linkage.prepare import prepare_with_votes
    from athar.matching.linkage.settings import ALGORITHM, run_version
    from athar.registry.incremental import sync_index

    if engine == "spark" and spark is None:
        from athar.registry.spark import local_session

        spark = local_session()
    run = LinkageRun.objects.create(engine=engine, algorithm=ALGORITHM, algorithm_version=run_version())
    timings: dict[str, float] = {}
    try:
        started = time.perf_counter()
        frame, lineage = load_input()
        decisions = decisions_for(lineage)
        timings["read_seconds"] = round(time.perf_counter() - started, 2)
        started = time.perf_counter()
        prepared, votes = prepare_with_votes(frame)
        del frame
        result = link_reports(prepared, prepared=prepared, engine=engine, decisions=decisions, explain=False, spark=spark,
                              memory_limit=env_str("ATHAR_DUCKDB_MEMORY_LIMIT"))
        timings["link_seconds"] = round(time.perf_counter() - started, 2)
        started = time.perf_counter()
        counts = write_back(run, result, lineage, actor)
        timings["write_seconds"] = round(time.perf_counter() - started, 2)
    except BaseException:
        LinkageRun.objects.filter(pk=run.pk).update(status=LinkageRun.Status.FAILED, finished_at=timezone.now())
        raise
    started = time.perf_counter()
    try:  # the run is in force; without its block index the worker's next link is a full run again
        sync_index(run, prepared, result.model, votes)
    except Exception:  # noqa: BLE001 - logged; the assignment just written stands
        log.exception("the block index of linkage run %s was not written", run.pk)
    timings["index_seconds"] = round(time.perf_counter() - started, 2)
    prune_old_runs()
    return {"run": run.pk, "engine": engine, "algorithm": f"{ALGORITHM} v{run_version()}", **counts, **timings}


def explain(pairs: pd.DataFrame, result: Any) -> list[str]:
    """Readable reasons of pairs (athar.matching.linkage.explain_pairs)."""
    from athar.matching.linkage import explain_pairs

    if pairs.empty:
        return []
    pairs = pairs.copy()  # pairs added for reviewer decisions have no model columns
    for column in pairs.columns:
        if column == "guard":
            pairs[column] = pairs[column].fillna("")
        elif column.startswith("level_"):
            pairs[column] = pairs[column].fillna("missing")
    return list(explain_pairs(pairs))


def best_pairs(result: Any) -> pd.DataFrame:
    """For each report, its strongest linked pair (either side), with an explanation.

    Pairs are ranked on a narrow table, and only the chosen pairs are explained."""
    linked = result.pairs[result.pairs["status"] == "linked"]
    if linked.empty:
        return pd.DataFrame(columns=["uid", "other", "match_probability", "decision", "why"])
    left, right, prob = linked["unique_id_l"], linked["unique_id_r"], linked["match_probability"]
    both = pd.concat([
        pd.DataFrame({"uid": left, "other": right, "match_probability": prob, "row": linked.index}),
        pd.DataFrame({"uid": right, "other": left, "match_probability": prob, "row": linked.index}),
    ], ignore_index=True)
    both = both.sort_values("match_probability", ascending=False, na_position="first", kind="stable")
    best = both.drop_duplicates("uid").reset_index(drop=True)
    chosen = linked.loc[best["row"]]
    best["decision"] = chosen["decision"].to_numpy() if "decision" in chosen else ""
    best["why"] = explain(chosen.reset_index(drop=True), result)
    return best[["uid", "other", "match_probability", "decision", "why"]]


def assign_persons(clusters: dict[str, list[str]], lineage: dict[str, str]) -> dict[str, int | None]:
    """cluster id → an existing person (the one most of its reports had; each used once), or None:
    the rule the worker uses when it clusters a few persons again (incremental.persons_of_clusters)."""
    from athar.matching.linkage.incremental import persons_of_clusters

    previous = _previous_person_by_lineage()
    person_of = {m: previous[lineage[m]] for members in clusters.values() for m in members if lineage[m] in previous}
    return persons_of_clusters(clusters, person_of)


def _previous_person_by_lineage() -> dict[str, int]:
    run = LinkageRun.objects.filter(is_current=True).first()
    if run is None:
        return {}
    rows = ReportLink.objects.filter(run=run).values_list("report__lineage", "person_id")
    return dict(rows.iterator(chunk_size=20_000))


def write_back(run: LinkageRun, result: Any, lineage: dict[str, str], actor: str) -> dict[str, Any]:
    """Persons, links, review pairs and the switch of the current run, in one transaction."""
    clock = Clock()
    clusters: dict[str, list[str]] = defaultdict(list)
    for uid, cid in zip(result.clusters["unique_id"], result.clusters["cluster_id"]):
        clusters[str(cid)].append(str(uid))
    best = best_pairs(result)
    reasons = {u: (o, p, d, w) for u, o, p, d, w in best.itertuples(index=False, name=None)}
    clock.lap("explain_seconds")
    with transaction.atomic():
        chosen = assign_persons(clusters, lineage)
        clock.lap("assign_seconds")
        fresh = [cid for cid, person in chosen.items() if person is None]
        made = create_persons(len(fresh))
        chosen.update(zip(fresh, made))
        persons = {cid: int(person) for cid, person in chosen.items() if person is not None}  # every one, now
        insert_links(run.pk, _links(clusters, persons, reasons))
        review = _review_pairs(run, result)
        clock.lap("insert_seconds")
        LinkageRun.objects.filter(is_current=True).update(is_current=False)
        counts = {"reports": len(lineage), "persons": len(clusters), "new_persons": len(made),
                  "linked_pairs": int((result.pairs["status"] == "linked").sum()), "review_pairs": review,
                  "conflicts": len(result.conflicts)}
        LinkageRun.objects.filter(pk=run.pk).update(
            status=LinkageRun.Status.DONE, is_current=True, finished_at=timezone.now(), counts=counts,
            parameters=result.model.to_dict() if result.model else {})
        record("registry.link", object_type="linkage_run", object_id=run.pk, actor=actor, data=counts)
    clock.lap("commit_seconds")
    return {**counts, "write_detail": clock.laps}


class Clock:
    """Named laps of wall-clock time, in seconds."""

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.laps: dict[str, float] = {}

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = round(now - self.last, 2)
        self.last = now


def _links(clusters: dict[str, list[str]], chosen: dict[str, int],
           reasons: dict[str, tuple[Any, ...]]) -> Iterator[tuple[int, int, float | None, dict[str, Any]]]:
    for cid, members in clusters.items():
        for uid in members:
            if uid in reasons:
                other, prob, decision, why = reasons[uid]
                prob = None if pd.isna(prob) else round(float(prob), 6)
                explanation = {"linked_with": int(other), "probability": prob, "why": why}
                if decision:
                    explanation["decision"] = decision
            else:
                prob, explanation = None, unlinked_explanation(alone=len(members) == 1)
            yield int(uid), chosen[cid], prob, explanation


def unlinked_explanation(*, alone: bool) -> dict[str, Any]:
    """The explanation of a report linked by no pair of its own: alone in its person, or joined
    through the person's other reports (the full run and the worker write the same)."""
    return {"why": "no other report is close enough" if alone else "linked through other reports of this person"}


def _review_pairs(run: LinkageRun, result: Any) -> int:
    review = result.review
    if review.empty:
        return 0
    why = explain(review, result)
    rows = []
    for (left, right, prob), text in zip(review[["unique_id_l", "unique_id_r", "match_probability"]]
                                         .itertuples(index=False, name=None), why):
        a, b = sorted((int(left), int(right)))
        rows.append(ReviewPair(run=run, left_report_id=a, right_report_id=b, probability=float(prob),
                               explanation={"why": text}))
    ReviewPair.objects.bulk_create(rows, batch_size=WRITE_BATCH)
    return len(rows)


def prune_old_runs() -> int:
    """Drop link rows of runs older than the last ``KEEP_RUNS_WITH_LINKS`` (their summary stays)."""
    keep = list(LinkageRun.objects.filter(status=LinkageRun.Status.DONE).order_by("-pk")
                .values_list("pk", flat=True)[:KEEP_RUNS_WITH_LINKS])
    old = LinkageRun.objects.exclude(pk__in=keep).exclude(status=LinkageRun.Status.RUNNING)
    with transaction.atomic():
        ReviewPair.objects.filter(run__in=old, status=ReviewPair.Status.OPEN).delete()
        deleted, _ = ReportLink.objects.filter(run__in=old).delete()
    return deleted
