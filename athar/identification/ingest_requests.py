"""An archivist's request to ingest a folder on the server, shared by the web and the API: who may
ask (``policy.may_start_ingest``), which folder (``archive.ingest_jobs.allowed_folder``), the
queued run (audited) and the worker's job."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from athar.archive.ingest_jobs import allowed_folder, archive_name, queue_run
from athar.archive.models import IngestRun
from athar.audit.chain import actor_for_user
from athar.identification import policy
from athar.identification.claims import NotAllowed
from athar.identification.jobs import enqueue_ingest


def start_ingest(user: Any, folder: str, name: str, faces: bool) -> IngestRun:
    """Queue an ingest of ``folder`` (inside ``ATHAR_INGEST_ROOT``) into the archive ``name``."""
    if not policy.may_start_ingest(user):
        raise NotAllowed(_("Only archivists and administrators can start an ingest."))
    run = queue_run(allowed_folder(folder), archive_name(name), faces, user, actor_for_user(user))
    enqueue_ingest(run.pk)
    return run


def progress(run: IngestRun) -> dict[str, Any]:
    """A run's state for pages and the API: status, phase, done of total, counts and refusals."""
    return {
        "run": run.pk, "archive": run.archive.name, "status": run.status, "phase": run.phase,
        "done": run.done, "total": run.total, "percent": run.percent(), "counts": run.counts,
        "error": run.error, "started_at": run.started_at.isoformat(),
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "rejected": [{"path": f.path, "code": f.code, "reason": f.reason, "params": f.params}
                     for f in run.rejected.order_by("path")[:1000]],
    }
