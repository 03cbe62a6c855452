"""Moving the family's photos out of the shared media store into the family uploads store.

Before the stores were kept apart, a photo of the person alive was kept in the media store beside
the archive's evidence: ``originals/ab/cd/<sha256>`` and ``derivatives/ab/<sha256>_{view,thumb}.jpg``,
shared by content with any archive photo of identical bytes. This move (the registry's data migration
``0008_evid_family_uploads``, run by any ``athar`` command on first start) copies every report photo's
files into its report lineage's folder of the family uploads store (sealed, ``registry/uploads.py``),
points the row at them, and only then — once the database has committed — deletes the old copies
that no archive row names. A file the archive also names stays where it is (the family's sealed copy
is made beside it): nothing of the evidence is touched.

Idempotent and resumable: a row already pointing into the family uploads store is skipped; a copy
already made (it opens with the report's key and, for an original, hashes to the row's sha256) is
reused; an old file already gone is not needed when its copy is there. Interrupted before the
commit, nothing changed in the database and the old files are all still there (the copies made so
far are sealed with keys the rollback removed: they are rewritten on the next run). Interrupted
while deleting the old copies, the rest stay as orphans ``athar verify`` lists in the evidence
store. A file missing before the move is reported (``missing``), never invented.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db import transaction

from athar.registry.uploads import KINDS, FamilyUploads

log = logging.getLogger(__name__)


def _old_original(sha256: str) -> str:
    return f"originals/{sha256[:2]}/{sha256[2:4]}/{sha256}"


def move_family_uploads(report_photos: Any, photos: Any, derivatives: Any, data_keys: Any,
                        media_root: Path, uploads_root: Path,
                        after_commit: Callable[[Callable[[], None]], None] = transaction.on_commit) -> dict[str, Any]:
    """Move every report photo's files (the models may be a migration's historical ones). Returns
    counts: rows moved, files copied, old files to delete, files the archive also names (kept),
    and files missing before the move."""
    uploads = FamilyUploads(uploads_root, data_keys=data_keys)
    counts: dict[str, Any] = {"rows": 0, "copied": 0, "reused": 0, "shared_with_archive": 0, "missing": []}
    leaving: set[str] = set()
    rows = report_photos.objects.select_related("report").order_by("pk")
    for row in rows.iterator():
        lineage = row.report.lineage
        if _already_moved(row, lineage):
            continue
        plan = {"original": (_old_original(row.sha256), uploads.original_relpath(lineage, row.sha256))}
        plan.update({kind: (old, uploads.derivative_relpath(lineage, row.sha256, kind))
                     for kind, old in (row.derivatives or {}).items() if kind in KINDS and old})
        for kind, (old, new) in plan.items():
            outcome = _copy(uploads, lineage, Path(media_root) / old, new, row.sha256 if kind == "original" else None)
            if outcome == "missing":
                counts["missing"].append({"report_photo": row.pk, "kind": kind, "file": old})
            else:
                counts[outcome] += 1
                leaving.add(old)
        row.derivatives = {kind: new for kind, (_, new) in plan.items() if kind != "original"}
        row.save(update_fields=["derivatives"])
        counts["rows"] += 1
    evidence = _evidence_paths(photos, derivatives)
    shared = sorted(leaving & evidence)
    counts["shared_with_archive"] = len(shared)
    to_delete = sorted(leaving - evidence)
    counts["old_files_removed"] = len(to_delete)
    after_commit(lambda: _delete_old(Path(media_root), to_delete, photos, derivatives))
    for item in counts["missing"]:
        log.warning("report photo %s: its %s was missing before the move (%s)", item["report_photo"],
                    item["kind"], item["file"])
    return counts


def _already_moved(row: Any, lineage: str) -> bool:
    values = list((row.derivatives or {}).values())
    return bool(values) and all(str(v).startswith(f"{lineage}/") for v in values)


def _copy(uploads: FamilyUploads, lineage: str, old: Path, new: str, sha256: str | None) -> str:
    """``reused`` (a good copy is there), ``copied``, or ``missing`` (no old file, no copy)."""
    if _good_copy(uploads, lineage, new, sha256):
        return "reused"
    if not old.is_file():
        return "missing"
    data = old.read_bytes()
    if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
        log.warning("%s does not hash to its row's sha256: moved verbatim (athar verify will name it)", old.name)
    uploads.write(lineage, new, data)
    if uploads.read(lineage, new) != data:  # read back before the old copy may go
        raise OSError(f"the sealed copy of {old.name} does not read back: the move stops here")
    return "copied"


def _good_copy(uploads: FamilyUploads, lineage: str, relpath: str, sha256: str | None) -> bool:
    try:
        data = uploads.read(lineage, relpath)
    except (OSError, ValueError):
        return False
    return sha256 is None or hashlib.sha256(data).hexdigest() == sha256


def _evidence_paths(photos: Any, derivatives: Any) -> set[str]:
    paths = {_old_original(sha) for sha in photos.objects.values_list("sha256", flat=True).iterator()}
    paths.update(derivatives.objects.values_list("path", flat=True).iterator())
    return paths


def _delete_old(media_root: Path, relpaths: list[str], photos: Any, derivatives: Any) -> None:
    """After the commit: the old copies of family photos go, checked once more against the archive's
    rows (an ingest may have stored the same bytes in the meantime)."""
    evidence = _evidence_paths(photos, derivatives)
    for relpath in relpaths:
        if relpath in evidence:
            continue
        path = media_root / relpath
        if path.is_file() and not path.is_symlink():
            path.chmod(0o600)
            path.unlink()
