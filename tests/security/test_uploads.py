"""Uploads are checked before they are kept: a refused file never stays in the media store; a
family account has a daily quota; ``athar verify`` names files no row points to."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from athar.archive.verify import verify_store
from athar.registry.photos import UploadRefused, store_upload
from tests.web.conftest import client_for, world  # noqa: F401  (fixtures)
from tests.web.factories import jpeg_bytes

pytestmark = pytest.mark.django_db


def _png_bomb() -> bytes:
    out = io.BytesIO()
    Image.new("1", (12_000, 12_000)).save(out, "PNG")  # tiny file, 144 megapixels
    return out.getvalue()


def _truncated_jpeg() -> bytes:
    data = jpeg_bytes(size=400)
    return data[: len(data) // 2]


REFUSED = {
    "svg": ("x.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    "html": ("x.html", b"<!doctype html><script>alert(1)</script>"),
    "gif-js": ("x.gif", b"GIF89a/*\x00\x00*/=alert(1)//;"),
    "truncated-jpeg": ("x.jpg", _truncated_jpeg()),
    "png-bomb": ("x.png", _png_bomb()),
    "random": ("x.jpg", os.urandom(300_000)),
}


def _files() -> list[str]:
    """Every file of both stores: the evidence store (``media/…``) and the family uploads (``uploads/…``)."""
    roots = {"media": Path(settings.MEDIA_ROOT), "uploads": Path(settings.UPLOADS_ROOT)}
    return sorted(f"{name}/{p.relative_to(root).as_posix()}" for name, root in roots.items()
                  for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_a_refused_upload_leaves_nothing_in_the_store(client_for, world, kind, settings):
    settings.ATHAR_MAX_IMAGE_PIXELS = 100_000_000
    name, data = REFUSED[kind]
    before, rows = _files(), world.report.photos.count()
    client = client_for(world.family)
    client.post(reverse("web:report_photos", kwargs={"report_id": world.report.pk}),
                {"photos": [SimpleUploadedFile(name, data, "image/jpeg")]})
    assert world.report.photos.count() == rows
    assert _files() == before
    assert verify_store().orphans == []
    assert verify_store().stores["family_uploads"].orphans == []


def test_an_accepted_upload_is_stored_by_content_in_the_family_uploads_store(world):
    before = [f for f in _files() if f.startswith("media/")]
    photo = store_upload(world.report, SimpleUploadedFile("a.jpg", jpeg_bytes(size=200), "image/jpeg"), world.family)
    lineage = world.report.lineage
    assert f"uploads/{lineage}/{photo.sha256}.original" in _files()
    assert [f for f in _files() if f.startswith("media/")] == before  # nothing in the evidence store
    report = verify_store()
    assert report.orphans == [] and report.stores["family_uploads"].orphans == []
    assert report.stores["family_uploads"].files == 6 and report.stores["family_uploads"].problems == []


def test_a_family_has_a_daily_upload_quota(world, settings):
    settings.ATHAR_UPLOAD_DAILY_FILES = 2
    rows = world.report.photos.count()
    for _ in range(2):
        store_upload(world.report, SimpleUploadedFile("a.jpg", jpeg_bytes(size=80), "image/jpeg"), world.family)
    with pytest.raises(UploadRefused, match="daily"):
        store_upload(world.report, SimpleUploadedFile("b.jpg", jpeg_bytes(size=90), "image/jpeg"), world.family)
    assert world.report.photos.count() == rows + 2
    # a caseworker filing for families is not held to a family's quota
    store_upload(world.report, SimpleUploadedFile("c.jpg", jpeg_bytes(size=100), "image/jpeg"), world.caseworker)


def test_the_quota_counts_bytes_too(world, settings):
    settings.ATHAR_UPLOAD_DAILY_MB = 0
    before = _files()
    with pytest.raises(UploadRefused, match="daily"):
        store_upload(world.report, SimpleUploadedFile("a.jpg", jpeg_bytes(size=80), "image/jpeg"), world.family)
    assert _files() == before


def test_verify_reports_files_no_row_points_to(world):
    store_upload(world.report, SimpleUploadedFile("a.jpg", jpeg_bytes(size=200), "image/jpeg"), world.family)
    stray = Path(settings.MEDIA_ROOT) / "originals" / "ab" / "cd" / ("ab" + "0" * 62)
    stray.parent.mkdir(parents=True, exist_ok=True)
    stray.write_bytes(b"<svg/>")
    report = verify_store()
    assert report.orphans == [stray.relative_to(settings.MEDIA_ROOT).as_posix()]
    assert any("no row points to it" in w for w in report.as_dict()["warnings"])


def test_the_family_reads_why_an_upload_was_refused_in_its_language(client_for, world, settings):
    """Over the day's quota the page says so (in Arabic), not "not a photo"; a broken file says "not a photo"."""
    settings.ATHAR_UPLOAD_DAILY_FILES = 1
    client = client_for(world.family)
    url = reverse("web:report_photos", kwargs={"report_id": world.report.pk})
    uploads = [SimpleUploadedFile("broken.jpg", _truncated_jpeg(), "image/jpeg"),
               SimpleUploadedFile("late.jpg", jpeg_bytes(size=90), "image/jpeg")]
    page = client.post(url, {"photos": uploads}, follow=True).content.decode()
    assert "تعذّرت قراءة هذا الملف كصورة: broken.jpg" in page
    assert "بلغتَ حدّ الرفع لهذا اليوم" in page and "late.jpg" in page
    assert "could not be read as a photo: late.jpg" not in page
