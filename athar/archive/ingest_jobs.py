"""An ingest asked for from the archivists' page and run by the worker (``athar worker``).

The folder must already be on the server, below the one folder the operator allows
(``ATHAR_INGEST_ROOT``): a page never names an arbitrary path for athar to read. The request
becomes a queued ``IngestRun`` (audited ``ingest.requested``); the worker's job runs it with
``run_queued_ingest`` and, stopped midway, runs the same run again: files already recorded are
skipped, nothing is doubled (``ingest.py``). Who may ask is the identification policy's business
(``may_start_ingest``, checked by ``identification.ingest_requests``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from athar.archive.ingest import IngestOptions, ingest
from athar.archive.models import Archive, IngestRun
from athar.audit.chain import record
from athar.core.errors import UserError

ARCHIVE_NAME_MAX = 200


def ingest_root() -> Path | None:
    """The folder below which the web may start ingests (None: not allowed at all)."""
    configured = str(getattr(settings, "ATHAR_INGEST_ROOT", "") or "").strip()
    return Path(configured).resolve() if configured else None


def allowed_folder(text: str) -> Path:
    """The folder a page asked for, resolved (``..`` and symbolic links followed), if it is an
    existing folder inside ``ATHAR_INGEST_ROOT``; otherwise a ``UserError`` that says why."""
    root = ingest_root()
    if root is None:
        raise UserError(_("Ingesting from the web is not enabled: the server's operator must set "
                          "ATHAR_INGEST_ROOT to the folder where archives are copied."))
    raw = text.strip()
    if not raw or "\x00" in raw:
        raise UserError(_("Give the path of a folder on the server."))
    asked = Path(raw) if Path(raw).is_absolute() else root / raw
    try:
        folder = asked.resolve(strict=False)
    except (OSError, RuntimeError) as exc:  # a loop of symbolic links
        raise UserError(_("The folder %(path)s cannot be read.") % {"path": raw}) from exc
    if folder != root and root not in folder.parents:
        raise UserError(_("Only folders inside %(root)s can be ingested from the web; %(path)s is "
                          "not inside it.") % {"root": root, "path": raw})
    if not folder.is_dir():
        raise UserError(_("There is no folder %(path)s on the server.") % {"path": raw})
    return folder


def archive_name(text: str) -> str:
    name = " ".join(text.split())
    if not name:
        raise UserError(_("Give the archive's name."))
    if len(name) > ARCHIVE_NAME_MAX:
        raise UserError(_("An archive's name has at most %(n)s characters.") % {"n": ARCHIVE_NAME_MAX})
    return name


def queue_run(folder: Path, name: str, faces: bool, user: Any, actor: str) -> IngestRun:
    """A queued run of ``folder`` into the archive ``name`` (created if new), audited."""
    with transaction.atomic():
        archive, _created = Archive.objects.get_or_create(name=name)
        run = IngestRun.objects.create(archive=archive, source=str(folder), status=IngestRun.Status.QUEUED,
                                       requested_by=user, faces=faces)
        record("ingest.requested", object_type="archive", object_id=archive.pk, actor=actor,
               data={"run": run.pk, "faces": faces})
    return run


def run_queued_ingest(run_id: int) -> dict[str, Any]:
    """The worker's part. A run already done is not run again; a folder that is gone, or that the
    operator's setting no longer allows, fails the run with its reason (for the page), without a
    retry. Anything else (a bug, a full disk) fails the job, which the worker delays and retries:
    the run resumes where it stopped."""
    run = IngestRun.objects.select_related("archive").get(pk=run_id)
    if run.status == IngestRun.Status.DONE:
        return {"run": run.pk, "already": "done"}
    try:
        folder = allowed_folder(run.source)
    except UserError as exc:
        IngestRun.objects.filter(pk=run.pk).update(status=IngestRun.Status.FAILED, error=str(exc)[:2000],
                                                   finished_at=timezone.now())
        return {"run": run.pk, "error": str(exc)}
    summary, archive = ingest(IngestOptions(root=folder, archive=run.archive.name, faces=run.faces), run=run)
    return {"run": run.pk, "photos_added": summary.photos_added, "rejected": len(summary.rejected)}
