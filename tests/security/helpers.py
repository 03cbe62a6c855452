"""Small real data for security tests: a case with one photo (with EXIF and GPS) and its derivatives."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from PIL import Image

from athar.archive.imaging import process_file
from athar.archive.models import Archive, Case, Derivative, Facility, Photo

PASSWORD = "a long test password"
GPS_IFD = 0x8825


def jpeg_with_gps(size: int = 400) -> bytes:
    """A JPEG whose EXIF names a camera and a GPS position (what must never be served)."""
    image = Image.new("RGB", (size, size), (120, 90, 80))
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"  # Make
    exif[0x0132] = "2012:05:01 10:00:00"  # DateTime
    exif.get_ifd(GPS_IFD).update({1: "N", 2: (33.0, 30.0, 0.0), 3: "E", 4: (36.0, 17.0, 0.0)})
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif)
    return buffer.getvalue()


@dataclass
class StoredCase:
    case: Case
    photo: Photo
    derivatives: dict[str, Derivative]


def stored_case(tmp_path: Path, label: str = "1001") -> StoredCase:
    """A case in an archive, with one photo ingested through the real imaging code."""
    source = tmp_path / f"{label}.jpg"
    source.write_bytes(jpeg_with_gps())
    result = process_file(str(source), f"215/{label}/{label}.jpg", str(settings.MEDIA_ROOT), 10_000_000)
    archive, _ = Archive.objects.get_or_create(name="Test archive")
    facility, _ = Facility.objects.get_or_create(code="215", defaults={"number": 215})
    case = Case.objects.create(archive=archive, facility=facility, label=label)
    photo = Photo.objects.create(sha256=result.sha256, archive=archive, case=case, original_path=result.relpath,
                                 original_name=source.name, size=result.size, width=result.width,
                                 height=result.height, format=result.format, exif=result.exif)
    derivatives = {d.kind: Derivative.objects.create(photo=photo, kind=d.kind, path=d.relpath, sha256=d.sha256,
                                                     width=d.width, height=d.height) for d in result.derivatives}
    return StoredCase(case, photo, derivatives)


def audit_rows_text() -> str:
    """Every audit event, as text, to search for personal data."""
    from athar.audit.models import AuditEvent

    return "\n".join(f"{e.actor} {e.action} {e.object_type} {e.object_id} {e.data}" for e in AuditEvent.objects.all())
