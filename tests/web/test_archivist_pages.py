"""Archivists: a facility's page, the evidence export from the web (audited, verifiable), case edits
that refuse an age range out of order, ranges shown in order in both directions of text."""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from datetime import date

import pytest
from django.urls import reverse
from django.utils import translation

from athar.archive.models import Case, PhotoSighting
from athar.audit.models import AuditEvent
from tests.web.factories import make_case

pytestmark = pytest.mark.django_db


def _sighted(case):
    """Record where the case's photo was seen in the archive (as ingest does) and its original."""
    from django.conf import settings

    from athar.archive.storage import MediaStore
    from tests.web.factories import jpeg_bytes

    photo = case.photos.get()
    data = jpeg_bytes((10, 20, 30))
    photo.sha256 = hashlib.sha256(data).hexdigest()  # the store keeps originals by their content
    photo.save(update_fields=["sha256"])
    store = MediaStore(settings.MEDIA_ROOT)
    target = store.original_path(photo.sha256)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    PhotoSighting.objects.create(photo=photo, archive=case.archive, case=case, path=photo.original_path)
    return hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_facility_page_counts_cases_photos_identifications_and_dates(client_for, world, lang):
    second = make_case("C2")
    Case.objects.filter(pk=world.case.pk).update(photographed=date(2012, 3, 4), photographed_precision="day",
                                                 status="identified")
    Case.objects.filter(pk=second.pk).update(photographed=date(2013, 7, 1), photographed_precision="day",
                                             age_min=20, age_max=60)
    make_case("X1", facility_code="227")
    _sighted(world.case)
    with translation.override(lang):
        html = client_for(world.archivist).get(reverse("web:facility", args=[world.case.facility_id])).content.decode()
    overview = re.search(r'<dl class="facts" id="facility-overview">(.*?)</dl>', html, re.DOTALL).group(1)
    assert '<dd class="n-cases">2</dd>' in overview and '<dd class="n-photos">1</dd>' in overview
    assert '<dd data-status="identified">1</dd>' in overview and '<dd data-status="unidentified">1</dd>' in overview
    assert '<bdi dir="ltr" class="date-range">2012-03-04 – 2013-07-01</bdi>' in overview
    cases = re.search(r'<table id="facility-cases">(.*?)</table>', html, re.DOTALL).group(1)
    assert "X1" not in cases and reverse("web:case", args=[second.pk]) in cases
    assert '<bdi dir="ltr">20–60</bdi>' in cases


def test_the_facilities_list_links_to_each_facility(client_for, world):
    html = client_for(world.archivist).get(reverse("web:facilities")).content.decode()
    assert reverse("web:facility", args=[world.case.facility_id]) in html


def test_evidence_export_from_the_web_is_a_verifiable_audited_zip(client_for, world):
    digest = _sighted(world.case)
    response = client_for(world.archivist).post(reverse("web:facility_evidence", args=[world.case.facility_id]))
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert "attachment" in response["Content-Disposition"]
    zipped = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    names = zipped.namelist()
    root = names[0].split("/")[0]
    sums = zipped.read(f"{root}/SHA256SUMS").decode()
    for line in sums.splitlines():  # what sha256sum -c checks, once unpacked
        expected, path = line.split("  ", 1)
        assert hashlib.sha256(zipped.read(f"{root}/{path}")).hexdigest() == expected == digest
    manifest = json.loads(zipped.read(f"{root}/manifest.json"))
    assert manifest["scope"]["type"] == "facility" and len(manifest["files"]) == 1
    assert {f"{root}/proofs/log.json", f"{root}/proofs/checkpoint.txt", f"{root}/verify_evidence.py"} <= set(names)
    event = AuditEvent.objects.get(action="export.evidence")
    assert event.actor == f"user:{world.archivist.pk}" and event.object_type == "facility"
    case_zip = client_for(world.admin).post(reverse("web:case_evidence", args=[world.case.pk]))
    assert case_zip.status_code == 200
    assert AuditEvent.objects.filter(action="export.evidence", object_type="case").count() == 1


@pytest.mark.parametrize("role", ["family", "caseworker", "reviewer"])
def test_facility_page_and_exports_are_refused_to_other_roles(client_for, world, role):
    _sighted(world.case)
    client = client_for(getattr(world, role))
    assert client.get(reverse("web:facility", args=[world.case.facility_id])).status_code == 403
    assert client.post(reverse("web:facility_evidence", args=[world.case.facility_id])).status_code == 403
    assert client.post(reverse("web:case_evidence", args=[world.case.pk])).status_code == 403
    signed_out = client_for(None).post(reverse("web:case_evidence", args=[world.case.pk]))
    assert signed_out.status_code == 302
    assert not AuditEvent.objects.filter(action="export.evidence").exists()


def _edit(client, case, **changes):
    data = {"detainee_number": "", "hospital_number": "", "photographed": "", "photographed_precision": "unknown",
            "sex": "M", "age_min": "", "age_max": "", "marks": "", "notes": "", **changes}
    return client.post(reverse("web:case_edit", args=[case.pk]), data)


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_an_age_range_out_of_order_is_refused_with_a_clear_message(client_for, world, lang):
    client = client_for(world.archivist)
    with translation.override(lang):
        response = _edit(client, world.case, age_min="60", age_max="20")
    html = response.content.decode()
    assert response.status_code == 200
    message = "below “from”" if lang == "en" else "أقل من"
    assert message in html and "60" in html
    world.case.refresh_from_db()
    assert world.case.age_min is None and world.case.age_max is None
    assert not AuditEvent.objects.filter(action="case.edited").exists()
    assert _edit(client, world.case, age_min="20", age_max="60").status_code == 302
    world.case.refresh_from_db()
    assert (world.case.age_min, world.case.age_max) == (20, 60)
    page = client.get(reverse("web:case", args=[world.case.pk])).content.decode()
    assert '<dd class="age-range"><bdi dir="ltr">20–60</bdi></dd>' in page


@pytest.mark.parametrize("role", ["family", "caseworker", "reviewer"])
def test_case_edits_are_refused_to_other_roles(client_for, world, role):
    assert _edit(client_for(getattr(world, role)), world.case, age_min="20", age_max="30").status_code == 403
    world.case.refresh_from_db()
    assert world.case.age_min is None


def test_every_label_of_the_case_form_is_in_arabic(client_for, world):
    """Labels Django makes from a field's name ("Photographed precision") are English: each field
    of the case form carries a translated label."""
    html = client_for(world.archivist).get(reverse("web:case_edit", args=[world.case.pk])).content.decode()
    labels = re.findall(r'<label for="id_\w+">(.*?)</label>', html)
    assert len(labels) == 9
    assert [label for label in labels if not re.search(r"[\u0600-\u06FF]", label)] == []


def test_verify_names_an_altered_copy_in_the_page_language(client_for, world):
    """The archivist's verify page says what was found in Arabic, the photo and fingerprints set apart;
    the command line keeps the English sentence."""
    from django.conf import settings

    from athar.archive.models import Derivative
    from athar.archive.storage import MediaStore
    from athar.archive.verify import verify_store

    derivative = Derivative.objects.filter(photo__case=world.case).order_by("id").first()
    path = MediaStore(settings.MEDIA_ROOT).path(derivative.path)
    path.chmod(0o600)
    path.write_bytes(b"not the stored copy")
    html = client_for(world.archivist).post(reverse("web:verify")).content.decode()
    assert f"مخزن الأدلة: نسخة العرض <bdi>{derivative.kind}</bdi>#<bdi>{derivative.face_index}</bdi> من الصورة رقم " \
           f"<bdi>{derivative.photo_id}</bdi> تغيّرت" in html
    assert "was altered" not in html
    assert "مخزن الأدلة (أصول الأرشيف ونسخها)" in html and "مخزن صور العائلات (صور المفقود في حياته)" in html
    english = f"evidence store: derivative {derivative.kind}#{derivative.face_index} of photo {derivative.photo_id} was altered: " \
              f"sha256 {derivative.sha256} expected"
    assert any(p.startswith(english) for p in verify_store().problems)
