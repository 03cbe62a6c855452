"""``athar eval linkage``: the benchmark contract.

The file is imported and linked by the product's own code in a **scratch store**: a child
process ``python -m athar.registry.evaluation`` with ``ATHAR_HOME`` set to a new temporary
folder and ``DATABASE_URL`` removed, so the user's database is never touched whatever it is.
The child writes row number → person and the pairs offered for review; the parent scores them
against the truth column: pairwise and B-cubed figures, ``review_pairs`` (pairs in the review queue),
``review_share`` (review pairs per record) and ``recall_with_review`` (true pairs linked or reachable
through a review pair of the same person: the recall a careful reviewer can reach).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from athar.core.errors import UserError
from athar.core.scratch import scratch_environment
from athar.matching.linkage import evaluate_clusters
from athar.matching.linkage.evaluate import recall_with_review
from athar.registry.reading import read_table

METRICS = ("pairwise_precision", "pairwise_recall", "pairwise_f1", "bcubed_precision", "bcubed_recall",
           "bcubed_f1")


def truth_by_row(path: Path, column: str) -> dict[int, str]:
    """Row number → the truth value (rows without one are left out)."""
    table = read_table(path)
    if column not in table.header:
        raise UserError(f"no column {column!r} in {path.name} (columns: {', '.join(table.header)})")
    return {row.number: row.values[column] for row in table.rows if row.values.get(column)}


def evaluate_file(path: Path, truth_column: str, engine: str = "duckdb") -> dict[str, Any]:
    """Import + link FILE in a scratch store and score the persons against the truth column."""
    path = Path(path).resolve()
    truth = truth_by_row(path, truth_column)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="athar-eval-") as home:
        out = Path(home) / "persons.json"
        env = scratch_environment(home)
        command = [sys.executable, "-m", "athar.registry.evaluation", str(path), truth_column, engine, str(out)]
        done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=sys.stderr, text=True, check=False)
        if done.returncode != 0:
            raise UserError(f"the scratch import and link failed (exit {done.returncode})")
        child = json.loads(out.read_text(encoding="utf-8"))
    seconds = time.perf_counter() - started
    persons = {int(k): v for k, v in child["persons"].items()}
    rows = [r for r in truth if r in persons]
    scores = evaluate_clusters([persons[r] for r in rows], [truth[r] for r in rows])
    result: dict[str, Any] = {k: round(float(scores[k]), 4) for k in METRICS}
    review = [(int(a), int(b)) for a, b in child["review"]]
    with_review = recall_with_review({r: persons[r] for r in rows}, {r: truth[r] for r in rows}, review)
    result.update(review_pairs=len(review), review_share=round(len(review) / max(len(rows), 1), 4),
                  recall_with_review=round(with_review, 4))
    result.update(records=len(rows), seconds=round(seconds, 2), engine=engine,
                  rejected=child["rejected"], link_seconds=child["link_seconds"])
    return result


def _child(path: str, truth_column: str, engine: str, out: str) -> None:
    """In the scratch store: migrate, import (truth column ignored), link, write row → person."""
    # The child imports this module before django.setup(): what needs the models is imported after it.
    import django

    django.setup()
    from athar.core.store import ensure_store

    ensure_store()
    from athar.registry.importing import import_reports
    from athar.registry.linkage import link_all
    from athar.registry.models import ReportLink, ReviewPair

    imported = import_reports(Path(path), source="eval", ignore_columns={truth_column})
    started = time.perf_counter()
    link_all(engine=engine)
    link_seconds = time.perf_counter() - started
    rows = ReportLink.objects.filter(run__is_current=True).values_list("report__row_number", "person_id")
    persons = {str(row): person for row, person in rows.iterator(chunk_size=20_000)}
    open_pairs = ReviewPair.objects.filter(run__is_current=True, status=ReviewPair.Status.OPEN)
    review = list(open_pairs.values_list("left_report__row_number", "right_report__row_number"))
    Path(out).write_text(json.dumps({"persons": persons, "review": review, "rejected": len(imported["rejected"]),
                                     "link_seconds": round(link_seconds, 2)}), encoding="utf-8")


if __name__ == "__main__":  # the scratch child process
    _child(*sys.argv[1:5])
