"""Archivists start an ingest of a folder on the server and follow it (as on their web page): the
same domain request (``identification.ingest_requests``), the same folder rule
(``ATHAR_INGEST_ROOT``), run by the worker. Anyone else learns nothing (404)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest
from ninja import Field, Schema, Status

from athar.api.api import api
from athar.api.endpoints import REFUSALS, ErrorOut
from athar.archive.models import IngestRun
from athar.core.errors import UserError
from athar.core.signed_ids import sign_id, unsign_id
from athar.identification import policy
from athar.identification.ingest_requests import progress, start_ingest


class IngestIn(Schema):
    """``folder``: inside ``ATHAR_INGEST_ROOT`` (absolute, or relative to it); ``archive``: its name
    (an existing archive's name adds to it); ``faces``: also find faces in the new photos."""

    folder: str = Field(..., min_length=1, max_length=1024)
    archive: str = Field(..., min_length=1, max_length=200)
    faces: bool = False


class RefusedFileOut(Schema):
    path: str
    code: str
    reason: str
    params: dict[str, Any]


class IngestOut(Schema):
    """A run: ``status`` queued / running / done / failed; ``phase`` files / faces / done; ``done``
    of ``total`` in that phase; ``counts`` once done; ``rejected``: the files refused and why."""

    id: str
    archive: str
    status: str
    phase: str
    done: int
    total: int | None
    percent: int
    counts: dict[str, Any]
    error: str
    started_at: str
    finished_at: str | None
    rejected: list[RefusedFileOut]


def _out(run: IngestRun) -> dict[str, Any]:
    row = progress(run)
    return {**{k: v for k, v in row.items() if k != "run"}, "id": sign_id("ingest_run", run.pk)}


def _archivist(request: HttpRequest) -> Any:
    if not policy.may_start_ingest(request.user):
        raise Http404
    return request.user


@api.post("/archive/ingests", response={202: IngestOut, 400: ErrorOut, **REFUSALS}, url_name="ingests")
def post_ingest(request: HttpRequest, body: IngestIn) -> Any:
    """Queue an ingest; the worker runs it. Follow it at ``/archive/ingests/{id}``."""
    user = _archivist(request)
    try:
        run = start_ingest(user, body.folder, body.archive, body.faces)
    except UserError as exc:
        return Status(400, {"detail": str(exc)})
    return Status(202, _out(IngestRun.objects.select_related("archive").get(pk=run.pk)))


@api.get("/archive/ingests/{run_id}", response={200: IngestOut, **REFUSALS}, url_name="ingest")
def get_ingest(request: HttpRequest, run_id: str) -> Any:
    """How far a run got: phase, done of total; then its counts and refused files."""
    _archivist(request)
    pk = unsign_id("ingest_run", run_id)
    run = IngestRun.objects.select_related("archive").filter(pk=pk).first() if pk is not None else None
    if run is None:
        raise Http404
    return _out(run)
