"""Evidence kept apart: the archive's originals and derivatives live in the evidence store, which no
family, caseworker or API action can delete from; a family's photos live in the family uploads
store (per report, sealed), erasable with the report. Identical bytes in both are two files."""

from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

import athar
from athar.archive.models import Case, Derivative, Photo
from athar.archive.storage import MediaStore, sha256_file
from athar.archive.verify import verify_store
from athar.registry.models import ReportPhoto
from athar.registry.uploads import FamilyUploads
from tests.archive.helpers import jpeg, run_ingest, write
from tests.web.conftest import client_for  # noqa: F401  (fixtures)
from tests.web.factories import make_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def archive_photo(tmp_path: Path) -> tuple[Photo, bytes]:
    """One archive photograph, ingested the real way (original, four derivatives, audit events)."""
    data = jpeg(seed=7, size=200)
    write(tmp_path / "archive", "215/C9/1.jpg", data)
    run_ingest(tmp_path / "archive", name="Caesar")
    return Photo.objects.get(sha256=hashlib.sha256(data).hexdigest()), data


@pytest.fixture
def world(make_user: Any) -> SimpleNamespace:
    """Two families and their caseworker, each family with a filed report (and no archive data:
    the archive here is the one ``archive_photo`` ingests)."""
    caseworker = make_user("caseworker")
    family, other_family = make_user("family", caseworker=caseworker), make_user("family", caseworker=caseworker)
    return SimpleNamespace(family=family, caseworker=caseworker, report=make_report(family, caseworker),
                           other_report=make_report(other_family, caseworker, name="خالد"))


def _evidence_files(photo: Photo) -> dict[Path, str]:
    """Every evidence file of the photo (original and derivatives) and its sha256 now."""
    store = MediaStore(settings.MEDIA_ROOT)
    paths = [store.original_path(photo.sha256), *(store.path(d.path) for d in Derivative.objects.filter(photo=photo))]
    return {path: sha256_file(path) for path in paths}


def _upload(client: Any, report: Any, data: bytes) -> ReportPhoto:
    url = reverse("web:report_photos", kwargs={"report_id": report.pk})
    response = client.post(url, {"photos": [SimpleUploadedFile("alive.jpg", data, "image/jpeg")]})
    assert response.status_code == 302
    return ReportPhoto.objects.filter(report__lineage=report.lineage).latest("pk")


def test_a_familys_upload_of_an_archive_original_then_removal_and_erasure_leave_the_evidence_whole(
        archive_photo, world, client_for, tmp_path, capsys):
    """The issue's attack, as a family would do it: upload the exact bytes of an archive original
    (leaked photos circulate), remove the photo, upload it again, erase the report."""
    photo, data = archive_photo
    before = _evidence_files(photo)
    assert len(before) == 5 and all(sha for sha in before.values())
    family = client_for(world.family)

    uploaded = _upload(family, world.report, data)
    assert uploaded.sha256 == photo.sha256  # the same bytes …
    sealed = FamilyUploads().path(FamilyUploads.original_relpath(world.report.lineage, photo.sha256))
    assert sealed.is_file() and sealed.read_bytes() != data  # … kept as another, sealed, file
    assert verify_store().problems == []

    remove = reverse("web:report_photo_remove", kwargs={"report_id": world.report.pk, "photo_id": uploaded.pk})
    assert family.post(remove).status_code == 302
    assert not sealed.exists()
    assert _evidence_files(photo) == before

    _upload(family, world.report, data)
    erase = reverse("web:report_erase", kwargs={"report_id": world.report.pk})
    assert family.post(erase, {"confirm": "yes"}).status_code == 302
    world.report.refresh_from_db()
    assert world.report.erased_at is not None
    assert not (Path(settings.UPLOADS_ROOT) / world.report.lineage).exists()

    assert _evidence_files(photo) == before  # the original and every derivative, unchanged
    report = verify_store()
    assert report.problems == [] and report.orphans == []
    assert report.stores["evidence"].files == 5 and report.stores["family_uploads"].orphans == []
    case = Case.objects.get(pk=photo.case_id)
    out = tmp_path / "export"
    capsys.readouterr()
    call_command("export", "evidence", "--case", str(case.pk), str(out), "--json")
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["files"] == 1
    line = (out / "SHA256SUMS").read_text(encoding="utf-8").split()
    assert line[0] == photo.sha256 and hashlib.sha256((out / line[1]).read_bytes()).hexdigest() == photo.sha256


def test_a_caseworkers_erasure_through_the_service_leaves_the_evidence_too(archive_photo, world):
    from athar.registry.photos import store_photo
    from athar.registry.privacy import erase_report

    photo, data = archive_photo
    before = _evidence_files(photo)
    store_photo(world.report, Path("alive.jpg"), data)
    result = erase_report(world.report, actor="user:1", reason_code="request_via_caseworker")
    assert result["files_removed"] >= 3
    assert _evidence_files(photo) == before and verify_store().problems == []


def test_verify_names_the_store_of_each_finding(archive_photo, world):
    from athar.registry.photos import store_photo

    photo, data = archive_photo
    family_photo = store_photo(world.report, Path("alive.jpg"), data)
    uploads = FamilyUploads()
    sealed = uploads.path(uploads.original_relpath(world.report.lineage, family_photo.sha256))
    altered = bytearray(sealed.read_bytes())
    altered[-1] ^= 1
    sealed.write_bytes(bytes(altered))
    view = uploads.path(family_photo.derivatives["view"])
    view.unlink()
    evidence = MediaStore(settings.MEDIA_ROOT).original_path(photo.sha256)
    evidence.chmod(0o600)
    evidence.unlink()
    (Path(settings.UPLOADS_ROOT) / world.report.lineage / "stray.jpg").write_bytes(b"x")

    report = verify_store().as_dict()
    assert not report["ok"]
    evidence_problems, family_problems = report["stores"]["evidence"]["problems"], report["stores"]["family_uploads"]["problems"]
    assert evidence_problems == [f"evidence store: original of photo {photo.pk} is missing ({photo.sha256})"]
    assert sorted(family_problems) == sorted([
        f"family uploads store: original of report photo {family_photo.pk} cannot be opened with its report's data "
        f"key: altered, moved, or its key is gone ({sealed.name})",
        f"family uploads store: view of report photo {family_photo.pk} is missing ({view.name})"])
    assert set(evidence_problems + family_problems) <= set(report["problems"])
    assert report["stores"]["family_uploads"]["orphans"] == [f"{world.report.lineage}/stray.jpg"]
    assert any(w.startswith("family uploads store: ") and "stray.jpg" in w for w in report["warnings"])


def test_the_family_store_refuses_paths_outside_a_reports_own_folder(world):
    uploads, lineage = FamilyUploads(), world.report.lineage
    evidence = "../media/originals/ab/cd/" + "ab" * 32
    for bad in (evidence, f"{lineage}/../{evidence}", f"{world.other_report.lineage}/{'a' * 64}.original"):
        with pytest.raises(ValueError):
            uploads.remove_file(lineage, bad)
    with pytest.raises(ValueError):
        uploads.remove_lineage("../media")
    with pytest.raises(ValueError):
        FamilyUploads.original_relpath(lineage, "../" + "a" * 61)


def test_a_sealed_family_file_moved_to_another_report_does_not_open(world):
    from athar.core.crypto import DecryptionError
    from athar.registry.photos import store_photo
    from tests.web.factories import jpeg_bytes

    photo = store_photo(world.report, Path("alive.jpg"), jpeg_bytes(size=90))
    uploads = FamilyUploads()
    mine = uploads.original_relpath(world.report.lineage, photo.sha256)
    theirs = uploads.original_relpath(world.other_report.lineage, photo.sha256)
    uploads.write(world.other_report.lineage, uploads.original_relpath(world.other_report.lineage, "0" * 64), b"key")
    target = uploads.path(theirs)
    target.write_bytes(uploads.path(mine).read_bytes())
    with pytest.raises(DecryptionError):
        uploads.read(world.other_report.lineage, theirs)


# The only modules that may delete files, and why. The evidence store (archive/storage.py) deletes
# nothing but the temporary file of a failed atomic write; a family's photos go through the family
# uploads store (registry/uploads.py), confined to one report's folder. A new deletion anywhere else
# fails here and has to be looked at.
ALLOWED_DELETIONS = {
    "archive/storage.py": {"unlink"},  # the temporary file of a failed atomic write
    "registry/uploads.py": {"unlink", "rmdir"},  # a report's own folder of family uploads
    "registry/upload_migration.py": {"unlink"},  # the one-time move: old family copies no archive row names
    "ops/backup.py": {"unlink", "rmtree"},  # old backups (retention), SQLite WAL and folders replaced by a restore
    "core/backup_crypto.py": {"unlink"},  # a half-decrypted file
    "registry/importing.py": {"unlink", "rmdir"},  # a list uploaded for the worker to import, once imported
}
DELETING = {"unlink", "rmtree", "rmdir", "remove", "removedirs", "truncate"}


def _deletions(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in DELETING:
            receiver = ast.unparse(node.func.value)
            if node.func.attr == "remove" and receiver not in ("os", "shutil"):
                continue  # list.remove, set.remove
            found.add(node.func.attr)
    return found


def test_no_module_but_the_known_ones_deletes_files() -> None:
    package = Path(athar.__file__).parent
    deleting = {p.relative_to(package).as_posix(): d for p in package.rglob("*.py") if (d := _deletions(p))}
    assert deleting == {k: v for k, v in ALLOWED_DELETIONS.items() if k in deleting}
    assert "registry/photos.py" not in deleting and "registry/privacy.py" not in deleting
    assert not {name for name in dir(MediaStore) if any(word in name for word in ("remove", "delete", "unlink"))}


def test_every_store_finding_reads_in_arabic_on_pages() -> None:
    from django.utils import translation

    from athar.archive import verify
    from athar.registry import photos

    messages = [verify.ORIGINAL_MISSING, verify.ORIGINAL_ALTERED, verify.DERIVATIVE_MISSING, verify.DERIVATIVE_ALTERED,
                verify.ORPHAN, photos.UPLOAD_MISSING, photos.UPLOAD_UNREADABLE, photos.UPLOAD_ALTERED,
                photos.UPLOAD_ORPHAN]
    with translation.override("ar"):
        arabic = [str(m) for m in messages]
    with translation.override("en"):
        english = [str(m) for m in messages]
    for source, text in zip(english, arabic, strict=True):
        assert source.startswith(("evidence store: ", "family uploads store: ")), source
        assert text != source and text.startswith(("مخزن الأدلة", "مخزن صور العائلات")), source


def test_overlapping_stores_are_refused_at_start(settings) -> None:
    from athar.core.checks import check_stores_apart

    assert check_stores_apart() == []
    settings.UPLOADS_ROOT = Path(settings.MEDIA_ROOT) / "uploads"
    assert [m.id for m in check_stores_apart()] == ["athar.E130"]
