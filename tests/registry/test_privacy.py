"""A family's data: export (JSON) and erasure (tombstone, shredded key, photos removed)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from athar.audit.models import AuditEvent
from athar.core.crypto import DecryptionError
from athar.registry import keys
from athar.registry.importing import contact_owner, import_reports
from athar.registry.lookup import find_report
from athar.registry.models import DataKey, ReportPhoto
from athar.registry.privacy import TOMBSTONE, erase_report, export_report

pytestmark = pytest.mark.django_db
HEADER = ["report_id", "full_name_ar", "mother_name", "birth_year", "reporter_contact", "photos"]


@pytest.fixture
def report_with_photo(write_csv: Callable[..., Path], tmp_path: Path):
    Image.new("RGB", (40, 40), (10, 20, 30)).save(tmp_path / "alive.jpg")
    path = write_csv(HEADER, [["E1", "محمود أحمد السالم", "فاطمة", "1985", "+963944123456", "alive.jpg"]])
    import_reports(path, source="org")
    changed = write_csv(HEADER, [["E1", "محمود أحمد السالم", "فاطمة الحسن", "1985", "+963944123456", "alive.jpg"]],
                        name="v2.csv")
    import_reports(changed, source="org")
    return find_report("E1", "org")


def test_export_holds_every_version_and_the_contact(report_with_photo) -> None:
    data = export_report(report_with_photo)
    assert [v["version"] for v in data["versions"]] == [1, 2]
    assert data["versions"][1]["mother_name"] == "فاطمة الحسن"
    assert data["versions"][0]["reporter_contact"] == "+963944123456"
    assert len(data["versions"][0]["photos"]) == 1
    event = AuditEvent.objects.get(action="registry.export_report")
    assert "+963" not in str(event.data) and "محمود" not in str(event.data)


def test_erasure(report_with_photo, settings) -> None:
    report = report_with_photo
    sha = ReportPhoto.objects.filter(report__lineage=report.lineage).first().sha256
    folder = settings.UPLOADS_ROOT / report.lineage
    original = folder / f"{sha}.original"
    assert original.exists() and not any(settings.MEDIA_ROOT.rglob("*.*"))  # apart from the evidence
    kept_in_a_backup = original.read_bytes()
    assert b"JFIF" not in kept_in_a_backup  # sealed with the report's data key, never in clear
    sealed = bytes(report.reporter_contact)
    result = erase_report(report, actor="user:7")
    assert result["versions"] == 2 and result["key_shredded"] and result["files_removed"] == 3
    assert not original.exists() and not folder.exists()
    with pytest.raises(DecryptionError):  # a copy in an earlier backup is unreadable too
        keys.open_bytes_for(contact_owner(report.lineage), kept_in_a_backup, f"{report.lineage}/{sha}.original")
    assert not DataKey.objects.filter(owner_ref=contact_owner(report.lineage)).exists()
    with pytest.raises(DecryptionError):
        keys.decrypt_for(contact_owner(report.lineage), sealed)
    for version in type(report).objects.filter(lineage=report.lineage):
        assert version.full_name_ar == TOMBSTONE and version.mother_name == TOMBSTONE
        assert version.birth_year is None and version.reporter_contact is None and version.erased_at
    event = AuditEvent.objects.get(action="registry.erase_report")
    assert event.actor == "user:7" and "محمود" not in str(event.data)


def test_contact_only_for_the_reports_caseworker(report_with_photo, make_user) -> None:
    from athar.registry.privacy import contact_for

    caseworker, other = make_user("caseworker"), make_user("caseworker")
    report = report_with_photo
    report.caseworker = caseworker
    report.save(update_fields=["caseworker"])
    assert contact_for(report, caseworker) == "+963944123456"
    for outsider in (other, make_user("family"), None):
        with pytest.raises(PermissionError):
            contact_for(report, outsider)
    assert AuditEvent.objects.filter(action="registry.contact_viewed").count() == 1
