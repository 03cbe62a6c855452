"""A family's export readable on a phone: a page in Arabic with everything it gave (the governorate
it chose included), its photos, consent and claims; the same as a PDF in Arabic; the JSON file keeps
its keys and gains the places. Only for the report's family (and its caseworker); another family
gets 404."""

from __future__ import annotations

import io
import json

import pytest
from django.urls import reverse
from pypdf import PdfReader

from athar.identification import claims
from athar.registry.consent import record_consent
from athar.registry.models import Place
from tests.web.factories import add_report_photo, make_candidate, make_report, person_for

pytestmark = pytest.mark.django_db

NAME = "محمود أحمد السالم"


@pytest.fixture
def filed(world):
    """The family's report as the web form files it: the governorate chosen from the list."""
    governorate = Place.objects.filter(level="governorate", name_ar="حمص").first() or Place.objects.create(
        code="SY04", level="governorate", name_en="Homs", name_ar="حمص")
    report = make_report(world.family, world.caseworker, name=NAME, governorate=str(governorate.pk),
                         mother_name="فاطمة الحسن", clothing="سترة جلدية", reporter_relation="أم",
                         publication=True)
    add_report_photo(report)
    record_consent(report, world.caseworker, publication=True, method="paper")
    claims.make_claim(person_for(make_candidate(report, world.case)), world.case, "is_them", world.family,
                      report=report)
    return report, governorate


def test_the_family_reads_everything_it_gave_in_arabic(client_for, world, filed):
    report, governorate = filed
    response = client_for(world.family).get(reverse("web:report_data", kwargs={"report_id": report.pk}))
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-store"
    html = response.content.decode()
    assert 'lang="ar"' in html and 'dir="rtl"' in html
    for given in (NAME, "فاطمة الحسن", "سترة جلدية", "أم", governorate.name_ar):
        assert given in html
    assert "المحافظة" in html  # the governorate, labelled
    assert "ورقيًا" in html  # the consent recorded on paper
    assert "هذا هو" in html  # its answer on the case
    assert "alive.jpg" in html  # its photo, listed


def test_the_pdf_is_arabic_text_a_reader_can_extract(client_for, world, filed):
    report, governorate = filed
    response = client_for(world.family).get(reverse("web:report_data_pdf", kwargs={"report_id": report.pk}))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    squashed = text.replace(" ", "")
    for given in (NAME, "فاطمة الحسن", governorate.name_ar):
        assert given.replace(" ", "") in squashed, given
    assert b"/FontFile2" in response.content  # the Arabic font is embedded, not left to the reader


def test_the_json_file_keeps_its_keys_and_names_the_governorate(client_for, world, filed):
    report, governorate = filed
    data = json.loads(client_for(world.family).get(reverse("web:report_export", kwargs={"report_id": report.pk}))
                      .content)
    version = data["versions"][0]
    assert version["full_name_ar"] == NAME and "photos" in version and "consent" in version
    assert version["places"]["governorate"] == {"code": governorate.code, "name_ar": governorate.name_ar,
                                                "name_en": governorate.name_en}
    assert data["format"] == "athar-report-export/2"


@pytest.mark.parametrize("name", ["report_data", "report_data_pdf"])
def test_another_family_gets_404_and_a_signed_out_visitor_signs_in(client_for, world, filed, name):
    report, _ = filed
    url = reverse(f"web:{name}", kwargs={"report_id": report.pk})
    assert client_for(world.other_family).get(url).status_code == 404
    assert client_for(world.other_caseworker).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 302


def test_the_family_sees_its_own_export_only(client_for, world, filed):
    report, _ = filed
    other = make_report(world.other_family, world.other_caseworker, name="خالد يوسف")
    html = client_for(world.family).get(reverse("web:report_data", kwargs={"report_id": report.pk})).content.decode()
    assert "خالد يوسف" not in html
    assert client_for(world.family).get(reverse("web:report_data", kwargs={"report_id": other.pk})).status_code == 404


def test_taking_the_export_is_audited(client_for, world, filed):
    from athar.audit.models import AuditEvent

    report, _ = filed
    client_for(world.family).get(reverse("web:report_data_pdf", kwargs={"report_id": report.pk}))
    assert AuditEvent.objects.filter(action="registry.export_report", object_id=str(report.pk)).exists()
