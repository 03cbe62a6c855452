"""Fast writes for linkage write-back and imports: plain parameterised INSERTs (``executemany``)
instead of the ORM's ``bulk_create`` (which, on SQLite, cuts a batch of 60-column reports into
INSERTs of 16 rows), so a million link rows take seconds, on SQLite and PostgreSQL alike. Callers
run them inside their transaction."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Max
from django.utils import timezone

from athar.registry.models import MissingPerson, Report, ReportLink

CHUNK = 20_000


def _chunks(rows: Iterable[tuple[Any, ...]], size: int = CHUNK) -> Iterator[list[tuple[Any, ...]]]:
    iterator = iter(rows)
    while chunk := list(islice(iterator, size)):
        yield chunk


def insert_links(run_id: int, rows: Iterable[tuple[int, int, float | None, dict[str, Any]]]) -> int:
    """(report id, person id, probability, explanation) → ReportLink rows of a run."""
    table = connection.ops.quote_name(ReportLink._meta.db_table)
    sql = (f"INSERT INTO {table} (run_id, report_id, person_id, probability, explanation) "
           "VALUES (%s, %s, %s, %s, %s)")
    written = 0
    with connection.cursor() as cursor:
        for chunk in _chunks((run_id, r, p, prob, json.dumps(e, ensure_ascii=False)) for r, p, prob, e in rows):
            cursor.executemany(sql, chunk)
            written += len(chunk)
    return written


def create_persons(count: int) -> list[int]:
    """``count`` new MissingPerson rows; their ids in creation order."""
    if count <= 0:
        return []
    meta = MissingPerson._meta
    public_id, created_at = meta.get_field("public_id"), meta.get_field("created_at")
    before = MissingPerson.objects.aggregate(m=Max("id"))["m"] or 0
    now = created_at.get_db_prep_value(timezone.now(), connection)
    ours = [uuid.uuid4() for _ in range(count)]
    table = connection.ops.quote_name(meta.db_table)
    with connection.cursor() as cursor:
        for chunk in _chunks((public_id.get_db_prep_value(u, connection), now) for u in ours):
            cursor.executemany(f"INSERT INTO {table} (public_id, created_at) VALUES (%s, %s)", chunk)
        cursor.execute(f"SELECT id, public_id FROM {table} WHERE id > %s", [before])
        ids = {uuid.UUID(str(value)): pk for pk, value in cursor.fetchall()}
    return [ids[u] for u in ours]


# Field types whose Python value is the database value on SQLite and PostgreSQL alike.
PLAIN_TYPES = {"CharField", "TextField", "PositiveIntegerField", "PositiveSmallIntegerField", "BooleanField",
               "FloatField", "IntegerField", "ForeignKey", "OneToOneField"}


def insert_reports(reports: list[Report], batch_id: int) -> None:
    """Insert new Report rows of one import batch and set their ids.

    Each value goes through its field's ``get_db_prep_save`` (JSON, dates, binary), as the ORM
    does; the ids are read back by (batch, row number), which one chunk of one batch never repeats.
    """
    if not reports:
        return
    connection.ensure_connection()
    # The connection itself, not the thread-local proxy: each attribute read through the proxy
    # costs a context-local lookup, and every JSON, date and binary value reads one (≈10 % of an import).
    real = connections[DEFAULT_DB_ALIAS]
    fields = [f for f in Report._meta.concrete_fields if not f.primary_key]
    table = connection.ops.quote_name(Report._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(f.attname) for f in fields)
    sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"
    now = timezone.now()
    plain = [f.get_internal_type() in PLAIN_TYPES for f in fields]
    names = [f.attname for f in fields]
    rows = []
    for report in reports:
        if report.filed_at is None:
            report.filed_at = now
        values = report.__dict__
        rows.append(tuple(values[n] if is_plain else f.get_db_prep_save(values[n], real)
                          for n, f, is_plain in zip(names, fields, plain)))
    numbers = [int(r.row_number or 0) for r in reports]
    with connection.cursor() as cursor:
        for chunk in _chunks(rows):
            cursor.executemany(sql, chunk)
        cursor.execute(f"SELECT id, row_number FROM {table} WHERE batch_id = %s AND row_number BETWEEN %s AND %s",
                       [batch_id, min(numbers), max(numbers)])
        ids = dict((number, pk) for pk, number in cursor.fetchall())
    for report in reports:
        report.pk = ids[report.row_number]
        report._state.adding = False
