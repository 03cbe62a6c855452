"""The move of family photos out of the shared media store (migration 0008_evid_family_uploads), on a
store built the old way: family photos and archive evidence side by side in ``media/``, one file
shared by both (a family uploaded the bytes of an archive original)."""

from __future__ import annotations

import hashlib
import importlib
import io
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.db import transaction
from django.db.migrations.loader import MigrationLoader
from PIL import Image

from athar.archive.imaging import save_derivative
from athar.archive.models import Derivative, Photo
from athar.archive.storage import EvidenceStore, sha256_file
from athar.archive.verify import verify_store
from athar.registry.models import ReportPhoto
from athar.registry.photos import read_photo
from athar.registry.uploads import FamilyUploads
from tests.archive.helpers import jpeg, run_ingest, write
from tests.web.factories import make_report

pytestmark = pytest.mark.django_db
MIGRATION = "0008_evid_family_uploads"


def _old_store_photo(report: Any, data: bytes) -> ReportPhoto:
    """What ``store_photo`` did before the stores were kept apart: original and copies in the media
    store by content, the row naming media-relative paths."""
    store = EvidenceStore(settings.MEDIA_ROOT)
    sha = hashlib.sha256(data).hexdigest()
    store.store_original(data, sha)
    image = Image.open(io.BytesIO(data)).convert("RGB")
    derivatives = {}
    for kind, size in (("view", 100), ("thumb", 40)):
        relpath = store.derivative_relpath(sha, kind)
        if not store.path(relpath).exists():  # the archive's copy of the same bytes: the same file then
            save_derivative(image.resize((size, size)), sha, kind, store)
        derivatives[kind] = relpath
    return ReportPhoto.objects.create(report=report, sha256=sha, original_name="alive.jpg", size=len(data),
                                      derivatives=derivatives)


@pytest.fixture
def old_store(make_user: Any, tmp_path: Path) -> SimpleNamespace:
    """An archive photo (ingested), a family's upload of its very bytes, a family-only photo, and
    the same family-only photo kept by a second version of the report."""
    archive_bytes, family_bytes = jpeg(seed=3, size=160), jpeg(seed=4, size=150)
    write(tmp_path / "archive", "215/C1/1.jpg", archive_bytes)
    run_ingest(tmp_path / "archive", name="Caesar")
    evidence = Photo.objects.get()
    report = make_report(make_user("family"), make_user("caseworker"))
    shared = _old_store_photo(report, archive_bytes)
    own = _old_store_photo(report, family_bytes)
    evidence_files = {p: sha256_file(p) for p in _evidence_paths(evidence)}
    second_version = ReportPhoto.objects.create(report=report, sha256=own.sha256, original_name="alive.jpg",
                                                size=own.size, derivatives=dict(own.derivatives))
    return SimpleNamespace(report=report, evidence=evidence, evidence_files=evidence_files, shared=shared, own=own,
                           second_version=second_version, family_bytes=family_bytes, archive_bytes=archive_bytes)


def _evidence_paths(photo: Photo) -> list[Path]:
    store = EvidenceStore(settings.MEDIA_ROOT)
    return [store.original_path(photo.sha256), *(store.path(d.path) for d in Derivative.objects.filter(photo=photo))]


def _run_migration() -> None:
    module = importlib.import_module(f"athar.registry.migrations.{MIGRATION}")
    module.move(apps, None)


def test_the_migration_is_in_the_graph_after_the_registrys_and_the_archives() -> None:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    parents = loader.graph.node_map[("registry", MIGRATION)].parents
    assert {("archive", "0002_rejected_file_code"), ("registry", "0007_import")} <= {
        p.key for p in parents}


def test_the_move_keeps_every_file_and_leaves_the_evidence_alone(old_store, django_capture_on_commit_callbacks):
    s = old_store
    old_own = [Path(settings.MEDIA_ROOT) / f"originals/{s.own.sha256[:2]}/{s.own.sha256[2:4]}/{s.own.sha256}",
               *(Path(settings.MEDIA_ROOT) / p for p in s.own.derivatives.values())]
    assert all(p.is_file() for p in old_own)
    before = verify_store()
    assert before.orphans == [] or all("derivatives/" in o or "originals/" in o for o in before.orphans)

    with django_capture_on_commit_callbacks(execute=True):
        _run_migration()

    for row in (s.shared, s.own, s.second_version):
        row.refresh_from_db()
        assert set(row.derivatives) == {"view", "thumb"}
        assert all(v.startswith(f"{s.report.lineage}/") for v in row.derivatives.values())
    assert read_photo(s.own) == s.family_bytes and read_photo(s.second_version) == s.family_bytes
    assert read_photo(s.shared) == s.archive_bytes  # the family's copy of the shared bytes …
    assert {p: sha256_file(p) for p in _evidence_paths(s.evidence)} == s.evidence_files  # … and the evidence
    assert not any(p.exists() for p in old_own)  # the family-only files left the media store
    report = verify_store()
    assert report.problems == [] and report.orphans == [] and report.stores["family_uploads"].orphans == []
    assert report.stores["family_uploads"].files == 6


def test_the_move_runs_again_without_changing_anything(old_store, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _run_migration()
    files = sorted(FamilyUploads().files())
    stamps = {f: FamilyUploads().path(f).stat().st_mtime_ns for f in files}
    with django_capture_on_commit_callbacks(execute=True):
        _run_migration()
    assert sorted(FamilyUploads().files()) == files
    assert {f: FamilyUploads().path(f).stat().st_mtime_ns for f in files} == stamps
    assert verify_store().problems == []


def test_an_interrupted_move_loses_nothing_and_resumes(old_store, monkeypatch, django_capture_on_commit_callbacks):
    """The move fails halfway (disk full): the database rolls back (rows and the data keys made for
    the copies), every old file is still there; the next run completes it."""
    s = old_store
    real_write, calls = FamilyUploads.write, {"n": 0}

    def failing_write(self: FamilyUploads, lineage: str, relpath: str, data: bytes) -> Path:
        calls["n"] += 1
        if calls["n"] == 4:
            raise OSError(28, "No space left on device")
        return real_write(self, lineage, relpath, data)

    monkeypatch.setattr(FamilyUploads, "write", failing_write)
    with pytest.raises(OSError), django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        _run_migration()
    s.own.refresh_from_db()
    assert not s.own.derivatives["view"].startswith(s.report.lineage)  # unchanged row
    assert Path(settings.MEDIA_ROOT, s.own.derivatives["view"]).is_file()  # old file kept
    monkeypatch.setattr(FamilyUploads, "write", real_write)
    with django_capture_on_commit_callbacks(execute=True):
        _run_migration()
    s.own.refresh_from_db()
    assert read_photo(s.own) == s.family_bytes and read_photo(s.own, "view")[:2] == b"\xff\xd8"
    report = verify_store()
    assert report.problems == [] and report.orphans == []


def test_a_file_missing_before_the_move_is_reported_not_invented(old_store, django_capture_on_commit_callbacks):
    from athar.registry.upload_migration import move_family_uploads

    s = old_store
    thumb = Path(settings.MEDIA_ROOT) / s.own.derivatives["thumb"]
    thumb.unlink()
    with django_capture_on_commit_callbacks(execute=True):
        counts = move_family_uploads(ReportPhoto, Photo, Derivative, None, Path(settings.MEDIA_ROOT),
                                     Path(settings.UPLOADS_ROOT))
    old = thumb.relative_to(settings.MEDIA_ROOT).as_posix()
    assert counts["missing"] == [{"report_photo": row.pk, "kind": "thumb", "file": old}  # both versions name it
                                 for row in (s.own, s.second_version)]
    assert counts["shared_with_archive"] == 3  # the archive's original and copies of the shared bytes: kept
    problems = verify_store().stores["family_uploads"].problems
    assert problems and all(p.startswith("family uploads store: thumb of report photo") for p in problems)
