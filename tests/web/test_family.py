"""A family files a report in short steps, gives and withdraws consent, adds photos, reviews candidates."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from athar.audit.models import AuditEvent
from athar.identification.models import Claim
from athar.registry.models import Report
from tests.web.factories import jpeg_bytes, make_candidate


def heic_bytes() -> bytes:
    import pillow_heif

    pillow_heif.register_heif_opener()
    out = io.BytesIO()
    Image.new("RGB", (96, 96), (10, 120, 30)).save(out, "HEIF")
    return out.getvalue()


def walk_wizard(client, photos):
    client.get(reverse("web:report_new"))
    steps = [
        ("consent", {"face_processing": "on", "publication": ""}),
        ("person", {"full_name_ar": "أحمد محمد الخطيب", "full_name_latin": "Ahmad Mohammad al-Khatib",
                    "father_name": "محمد", "mother_name": "فاطمة", "sex": "M"}),
        ("birth", {"birth_year": "1987", "birth_year_approximate": "on", "governorate": "", "city": "Douma"}),
        ("arrest", {"arrest_year": "2012", "arrest_month": "3", "arrest_place": "Damascus", "arresting_agency": "Branch 215"}),
        ("marks", {"distinguishing_marks": "scar above the right eyebrow", "reporter_relation": "mother"}),
    ]
    for step, data in steps:
        response = client.post(reverse("web:report_step", kwargs={"step": step}), data)
        assert response.status_code == 302, (step, response.content.decode()[:2000])
    return client.post(reverse("web:report_step", kwargs={"step": "photos"}), {"photos": photos})


@pytest.mark.django_db
def test_family_files_a_report_in_steps_with_jpeg_and_heic(client_for, world):
    client = client_for(world.family)
    photos = [SimpleUploadedFile("a.jpg", jpeg_bytes(size=120), "image/jpeg"),
              SimpleUploadedFile("IMG_0001.HEIC", heic_bytes(), "image/heic")]
    response = walk_wizard(client, photos)
    assert response.status_code == 302
    report = Report.objects.exclude(pk__in=[world.report.pk, world.other_report.pk]).get()
    assert report.reporter_user == world.family and report.caseworker == world.caseworker
    assert report.arrest_date.isoformat() == "2012-03-01" and report.arrest_date_precision == "month"
    assert report.birth_year == 1987 and report.birth_year_margin == 2
    assert report.consent["face_processing"] is True and report.consent["publication"] is False
    assert report.photos.count() == 2
    assert client.get(reverse("web:report", kwargs={"report_id": report.pk})).status_code == 200
    assert AuditEvent.objects.filter(action="report.filed", object_id=str(report.pk)).exists()


@pytest.mark.django_db
def test_a_name_is_required_in_either_script(client_for, world):
    client = client_for(world.family)
    client.get(reverse("web:report_new"))
    client.post(reverse("web:report_step", kwargs={"step": "consent"}), {})
    response = client.post(reverse("web:report_step", kwargs={"step": "person"}), {"sex": "M"})
    assert response.status_code == 200 and "errorlist" in response.content.decode()


@pytest.mark.django_db
def test_caseworker_files_for_one_of_their_families(client_for, world):
    client = client_for(world.caseworker)
    client.get(reverse("web:report_new"))
    response = client.post(reverse("web:report_step", kwargs={"step": "family"}), {"family": world.other_family.pk})
    assert response.status_code == 200  # not their family: refused
    response = client.post(reverse("web:report_step", kwargs={"step": "family"}), {"family": world.family.pk})
    assert response.status_code == 302


@pytest.mark.django_db
def test_consent_is_revocable_and_audited(client_for, world):
    client = client_for(world.family)
    url = reverse("web:consent", kwargs={"report_id": world.report.pk})
    assert client.post(url, {}).status_code == 302
    world.report.refresh_from_db()
    assert world.report.consent["face_processing"] is False
    assert AuditEvent.objects.filter(action="consent.changed").count() == 1
    pick = reverse("web:pick_face", kwargs={"report_id": world.report.pk, "photo_id": world.photo.pk})
    assert client.get(pick)["Location"] == url  # no face search without consent


@pytest.mark.django_db
def test_family_picks_one_face_of_several(client_for, world):
    world.photo.faces = [{"box": [0, 0, 40, 40]}, {"box": [60, 0, 100, 40]}]
    world.photo.save()
    client = client_for(world.family)
    url = reverse("web:pick_face", kwargs={"report_id": world.report.pk, "photo_id": world.photo.pk})
    assert "<svg" in client.get(url).content.decode()
    assert client.post(url, {"face": "1"}).status_code == 302
    world.photo.refresh_from_db()
    assert [f.get("chosen") for f in world.photo.faces] == [False, True]


@pytest.mark.django_db
def test_no_likely_match_shows_no_bodies(client_for, world):
    candidate = make_candidate(world.report, world.case, likely=False)
    html = client_for(world.family).get(reverse("web:candidates", kwargs={"report_id": world.report.pk})).content.decode()
    assert "لا توجد حالة يُرجَّح أنها تطابقه" in html  # "no case is a likely match", in the family's Arabic
    assert "<img" not in html and reverse("web:candidate", kwargs={"candidate_id": candidate.pk}) not in html


@pytest.mark.django_db
def test_candidate_review_warning_then_blurred_then_face_then_body(client_for, world):
    from athar.archive.models import Derivative

    candidate = make_candidate(world.report, world.case)
    client = client_for(world.family)
    url = reverse("web:candidate", kwargs={"candidate_id": candidate.pk})
    first = client.get(url).content.decode()
    assert "<img" not in first and "?ready=1" in first  # a warning first, no picture
    ready = client.get(url + "?ready=1").content.decode()
    assert 'data-kind="face_blur"' in ready and 'data-kind="face"' not in ready and 'data-kind="view"' not in ready
    face = Derivative.objects.get(photo__case=world.case, kind="face")
    body = Derivative.objects.get(photo__case=world.case, kind="view")
    blurred = Derivative.objects.get(photo__case=world.case, kind="face_blur")
    assert client.get(reverse("web:derivative", kwargs={"derivative_id": face.pk})).status_code == 404
    response = client.get(reverse("web:derivative", kwargs={"derivative_id": blurred.pk}))
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-store"

    reveal = reverse("web:photo_reveal", kwargs={"candidate_id": candidate.pk})
    assert client.get(reveal).status_code == 405  # only an explicit POST reveals
    shown = client.post(reveal, {"level": "face"}).content.decode()
    assert 'data-kind="face"' in shown and 'data-kind="view"' not in shown
    assert client.get(reverse("web:derivative", kwargs={"derivative_id": face.pk})).status_code == 404  # never here
    face_src = re.search(r'src="([^"]+)"[^>]*data-kind="face"', shown).group(1)
    assert client.get(face_src).status_code == 200  # through the audited media link
    again = client.get(url + "?ready=1").content.decode()  # the reveal does not outlive the page
    assert 'data-kind="face_blur"' in again and 'data-kind="face"' not in again
    skipped = client.post(reveal, {"level": "body"}).content.decode()  # not from the page showing the face
    assert 'data-kind="view"' not in skipped
    body_page = client.post(reveal, {"level": "body", "face_shown": "1"}).content.decode()
    body_src = re.search(r'src="([^"]+)"[^>]*data-kind="view"', body_page).group(1)
    assert client.get(body_src).status_code == 200
    assert client.get(reverse("web:derivative", kwargs={"derivative_id": body.pk})).status_code == 404
    for _ in range(2):
        client.get(face_src)
    levels = list(AuditEvent.objects.filter(action="photo.viewed").values_list("data", flat=True))
    assert [d["level"] for d in levels] == ["face", "body", "face", "face"]  # one event per view


@pytest.mark.django_db
def test_body_needs_the_face_step_first(client_for, world):
    candidate = make_candidate(world.report, world.case)
    client = client_for(world.family)
    client.post(reverse("web:photo_reveal", kwargs={"candidate_id": candidate.pk}), {"level": "body"})
    assert 'data-kind="view"' not in client.get(reverse("web:candidate", kwargs={"candidate_id": candidate.pk})).content.decode()


@pytest.mark.django_db
def test_family_claims_and_can_change_the_answer(client_for, world):
    candidate = make_candidate(world.report, world.case)
    client = client_for(world.family)
    url = reverse("web:claim", kwargs={"candidate_id": candidate.pk})
    assert client.post(url, {"verdict": "yes"}).status_code == 302
    assert client.post(url, {"verdict": "unsure"}).status_code == 302
    active = Claim.objects.filter(withdrawn_at__isnull=True)
    assert [c.verdict for c in active] == ["not_sure"] and Claim.objects.count() == 2


@pytest.mark.django_db
def test_other_family_cannot_see_or_claim_the_candidate(client_for, world):
    candidate = make_candidate(world.report, world.case)
    client = client_for(world.other_family)
    for name in ("candidate", "photo_reveal", "claim"):
        url = reverse(f"web:{name}", kwargs={"candidate_id": candidate.pk})
        assert client.get(url).status_code in (404, 405)
        assert client.post(url, {"verdict": "yes", "level": "face"}).status_code == 404
    assert not Claim.objects.exists()


@pytest.mark.django_db
def test_family_page_is_light(client_for, world):
    make_candidate(world.report, world.case)
    from django.contrib.staticfiles import finders

    css = len(Path(finders.find("web/athar.css")).read_bytes())
    client = client_for(world.family)
    for url in (reverse("web:family_home"), reverse("web:report", kwargs={"report_id": world.report.pk}),
                reverse("web:candidates", kwargs={"report_id": world.report.pk})):
        assert len(client.get(url).content) + css < 100_000


@pytest.mark.django_db
def test_a_report_filed_since_the_last_linkage_run_can_be_claimed(client_for, world):
    """No linkage run has looked at the report yet: the claim gives it a person of its own (a
    provisional link in the current run) and keeps its ranking, instead of refusing the family."""
    from athar.identification.models import Ranking
    from athar.registry.lookup import person_of

    candidate = make_candidate(world.report, world.case, linked=False)
    assert candidate.ranking.person is None and person_of(world.report) is None
    response = client_for(world.family).post(reverse("web:claim", kwargs={"candidate_id": candidate.pk}),
                                             {"verdict": "yes"})
    assert response.status_code == 302
    person = person_of(world.report)
    assert person is not None
    claim = Claim.objects.get()
    assert claim.person == person and claim.case == world.case and claim.by == world.family
    ranking = Ranking.objects.get(pk=candidate.ranking_id)
    assert ranking.report == world.report and ranking.person is None  # the family keeps its report's ranking
    assert Ranking.objects.get(person=person).candidates.get().case == world.case  # copied for reviewers
    assert client_for(world.family).get(reverse("web:candidate", kwargs={"candidate_id": candidate.pk})).status_code == 200
