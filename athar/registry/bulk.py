"""Fast writes for linkage write-back and imports: plain parameterised INSERTs (``executemany``)
instead of the ORM's ``bulk_create`` (which, on SQLite, cuts a batch of 60-column reports into
INSERTs of 16 rows), so a million link rows take seconds, on SQLite and PostgreSQL alike. Callers
run them inside their transaction."""

from __future__ import annotations

import datetime as dt
import json
import operator
import uuid
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import islice
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Max
from django.db.models.base import ModelState
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


@lru_cache(maxsize=1)
def _report_defaults() -> tuple[dict[str, Any], tuple[tuple[str, Any], ...]]:
    """Every Report column's default by attname, and the columns whose default is made anew for
    each report (a JSON list or dict: never shared between two reports)."""
    fields = [f for f in Report._meta.concrete_fields if not f.primary_key]
    fresh = tuple((f.attname, f.default) for f in fields if f.has_default() and callable(f.default))
    return {f.attname: f.get_default() for f in fields}, fresh


def new_report(**values: Any) -> Report:
    """A Report not yet saved, from attnames (``batch_id``, not ``batch``): the instance
    ``Report(**values)`` makes (tested equal), its attributes set at once as unpickling sets them,
    without ``Model.__init__``, which walks every field and every keyword for each instance (a
    third of an import's time, 60 columns a report) where a chunk's reports all take the same
    defaults. An unknown name is a TypeError, as the constructor's."""
    defaults, fresh = _report_defaults()
    unknown = values.keys() - defaults.keys()
    if unknown:
        raise TypeError(f"Report has no field(s) {', '.join(sorted(unknown))}")
    report = Report.__new__(Report)
    report.__dict__.update(defaults)
    for name, make in fresh:
        report.__dict__[name] = make()
    report.__dict__.update(values)
    report.__dict__["id"] = None
    report._state = ModelState()
    return report


# Field types whose Python value is the database value on SQLite and PostgreSQL alike.
PLAIN_TYPES = {"CharField", "TextField", "PositiveIntegerField", "PositiveSmallIntegerField", "BooleanField",
               "FloatField", "IntegerField", "ForeignKey", "OneToOneField"}


class _PreparedValues:
    """A field's database value prepared once per insert for each value that repeats: empty ones
    (``None``, ``[]``, ``{}``, ``b""``), dates and times (a file repeats its years and months; every
    report of a chunk has one ``filed_at``). ``get_db_prep_save`` (a JSON dump, a date's text, an
    adapter on PostgreSQL) for every JSON, date and binary column was a tenth of an import's time."""

    def __init__(self, connection: Any) -> None:
        self.connection, self.known = connection, dict[tuple[str, Any], Any]()

    def prepared(self, field: Any, value: Any) -> Any:
        kind = type(value)
        if kind in _REPEATING or (kind in _EMPTY_CONTAINERS and not value):
            key = (field.attname, repr(value) if kind in _EMPTY_CONTAINERS else value)
            if key not in self.known:
                self.known[key] = field.get_db_prep_save(value, self.connection)
            return self.known[key]
        return field.get_db_prep_save(value, self.connection)


_REPEATING = (type(None), dt.date, dt.datetime)
_EMPTY_CONTAINERS = (list, dict, bytes)


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
    # Every column read at once (itemgetter), then only the columns that need preparing replaced.
    every = operator.itemgetter(*(f.attname for f in fields))
    special = [(i, f) for i, f in enumerate(fields) if f.get_internal_type() not in PLAIN_TYPES]
    prepared = _PreparedValues(real)
    rows = []
    for report in reports:
        if report.filed_at is None:
            report.filed_at = now
        row = list(every(report.__dict__))
        for i, f in special:
            row[i] = prepared.prepared(f, row[i])
        rows.append(tuple(row))
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
