"""A family's report: drafts on the server, a summary, changes as new versions, removing a photo,
no default sex, and the details forensic teams use."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from athar.audit.models import AuditEvent
from athar.registry.models import Report, ReportDraft, ReportPhoto


def step_url(name: str) -> str:
    return reverse("web:report_step", kwargs={"step": name})


def begin(client) -> None:
    client.get(reverse("web:report_new"))
    client.post(step_url("consent"), {"face_processing": "on"})
    client.post(step_url("person"), {"full_name_ar": "يوسف درويش", "sex": "U"})


@pytest.mark.django_db
def test_a_draft_survives_signing_out_and_in(client_for, world):
    begin(client_for(world.family))
    again = client_for(world.family)  # a new session: signed out, then in again
    home = again.get(reverse("web:family_home")).content.decode()
    assert "متابعة البلاغ الذي بدأتموه" in home  # "continue your draft"
    response = again.get(reverse("web:report_new"))
    assert response["Location"] == step_url("birth")  # where it stopped
    page = again.get(step_url("person")).content.decode()
    assert 'value="يوسف درويش"' in page
    again.post(step_url("birth"), {"birth_year": "١٩٨٠", "governorate": ""})
    for name in ("arrest", "marks", "details", "check"):
        again.post(step_url(name), {})
    again.post(step_url("photos"), {})
    report = Report.objects.get(full_name_ar="يوسف درويش")
    assert report.birth_year == 1980 and report.consent["face_processing"] is True
    assert not ReportDraft.objects.filter(owner=world.family).exists()  # filed: the draft is gone


@pytest.mark.django_db
def test_another_family_never_meets_the_draft(client_for, world):
    begin(client_for(world.family))
    other = client_for(world.other_family)
    assert "يوسف درويش" not in other.get(reverse("web:family_home")).content.decode()
    assert other.get(reverse("web:report_new"))["Location"] == step_url("consent")
    assert "يوسف درويش" not in other.get(step_url("person")).content.decode()
    assert ReportDraft.objects.get(owner=world.family).data["full_name_ar"] == "يوسف درويش"


@pytest.mark.django_db
def test_starting_again_is_a_choice_asked_twice(client_for, world):
    client = client_for(world.family)
    begin(client)
    asked = client.post(reverse("web:report_new"), {"fresh": "1"})  # one tap never wipes the draft
    assert asked.status_code == 200 and 'name="confirm"' in asked.content.decode()
    assert ReportDraft.objects.get(owner=world.family).data["full_name_ar"] == "يوسف درويش"
    confirmed = client.post(reverse("web:report_new"), {"fresh": "1", "confirm": "1"})
    assert confirmed["Location"] == step_url("consent")
    assert ReportDraft.objects.get(owner=world.family).data == {}
    assert AuditEvent.objects.filter(action="report.draft_discarded").count() == 1


@pytest.mark.django_db
def test_back_keeps_what_was_typed_complete_or_not(client_for, world):
    client = client_for(world.family)
    begin(client)
    client.post(step_url("birth"), {"birth_year": "1980", "governorate": "", "city": "داريا"})
    # The arrest step, half typed (an impossible year): "Back" keeps it as typed, and files nothing of it.
    client.post(step_url("arrest"), {"arrest_year": "20012", "arrest_place": "حاجز المزة", "back": "1"})
    draft = ReportDraft.objects.get(owner=world.family)
    assert draft.step == "birth" and "arrest_place" not in draft.data
    page = client.get(step_url("arrest")).content.decode()
    assert "حاجز المزة" in page and "20012" in page
    # A complete step left with "Back" is saved as if "Next" had been pressed.
    client.post(step_url("birth"), {"birth_year": "1981", "governorate": "", "city": "داريا", "back": "1"})
    assert ReportDraft.objects.get(owner=world.family).data["birth_year"] == 1981
    client.post(step_url("arrest"), {"arrest_place": "حاجز المزة"})
    data = ReportDraft.objects.get(owner=world.family).data
    assert data["arrest_place"] == "حاجز المزة" and "_typed" not in data


@pytest.mark.django_db
def test_sex_has_no_default_and_must_be_answered(client_for, world):
    client = client_for(world.family)
    client.get(reverse("web:report_new"))
    page = client.get(step_url("person")).content.decode()
    radios = re.findall(r'<input[^>]*name="sex"[^>]*>', page)
    assert len(radios) == 3 and not any("checked" in r for r in radios)
    assert "لا أعرف" in page  # "I do not know" is one of the answers
    refused = client.post(step_url("person"), {"full_name_ar": "سامي"})
    assert refused.status_code == 200 and "اختاروا إجابة" in refused.content.decode()


@pytest.mark.django_db
def test_the_summary_shows_everything_before_filing(client_for, world):
    client = client_for(world.family)
    begin(client)
    client.post(step_url("details"), {"height_cm": "١٧٥", "build": "slim", "clothing": "قميص أزرق",
                                      "belongings": "ساعة فضية", "dental": "سن ذهبي في الفك العلوي",
                                      "medical": "كسر قديم في الساق اليسرى"})
    page = client.get(step_url("check")).content.decode()
    for fact in ("يوسف درويش", "175", "قميص أزرق", "ساعة فضية", "سن ذهبي", "كسر قديم"):
        assert fact in page
    assert step_url("details") in page and step_url("person") in page  # a way to change each part
    assert not Report.objects.filter(full_name_ar="يوسف درويش").exists()  # nothing filed yet


@pytest.mark.django_db
def test_forensic_details_are_stored_shown_to_staff_exported_and_erased(client_for, world):
    client = client_for(world.family)
    begin(client)
    client.post(step_url("details"), {"height_cm": "180", "build": "heavy", "clothing": "سترة جلدية",
                                      "dental": "ينقصه سنّان أماميان", "medical": "عملية في الركبة اليمنى"})
    client.post(step_url("photos"), {})
    report = Report.objects.get(full_name_ar="يوسف درويش")
    assert (report.height_cm, report.build, report.clothing) == (180, "heavy", "سترة جلدية")
    staff = client_for(world.caseworker).get(reverse("web:report", kwargs={"report_id": report.pk})).content.decode()
    assert "سترة جلدية" in staff and "عملية في الركبة اليمنى" in staff and "180" in staff
    exported = client.get(reverse("web:report_export", kwargs={"report_id": report.pk})).json()
    assert exported["versions"][0]["clothing"] == "سترة جلدية" and exported["versions"][0]["height_cm"] == 180
    client.post(reverse("web:report_erase", kwargs={"report_id": report.pk}), {"confirm": "yes"})
    report.refresh_from_db()
    assert report.height_cm is None and report.build == "" and "سترة" not in report.clothing
    assert "الركبة" not in report.medical


@pytest.mark.django_db
def test_teeth_and_medical_details_feed_the_marks_comparison(world):
    from athar.identification.facts import marks_text
    from athar.matching.scoring.marks import parse_marks

    world.report.dental = "missing front teeth"
    world.report.medical = "old fracture of the left leg"
    kinds = {m.kind for m in parse_marks(marks_text([world.report]))}
    assert {"missing_teeth", "fracture"} <= kinds


def _change(client, report, **facts):
    client.get(reverse("web:report_edit", kwargs={"report_id": report.pk}))
    url = lambda s: reverse("web:report_edit_step", kwargs={"report_id": report.pk, "step": s})  # noqa: E731
    client.post(url("person"), {"full_name_ar": facts.get("name", report.full_name_ar), "sex": report.sex})
    client.post(url("birth"), {"birth_year": facts.get("birth_year", ""), "governorate": ""})
    for name in ("arrest", "marks", "details"):
        client.post(url(name), {})
    return client.post(url("check"), {})


@pytest.mark.django_db
def test_changing_a_filed_report_makes_a_new_version(client_for, world):
    client = client_for(world.family)
    old = world.report
    response = _change(client, old, birth_year="١٩٨٦")
    new = Report.objects.get(lineage=old.lineage, is_current=True)
    assert response["Location"] == reverse("web:report", kwargs={"report_id": new.pk})
    old.refresh_from_db()
    assert not old.is_current and old.birth_year == 1985  # the earlier version is kept as it was
    assert (new.version, new.supersedes_id, new.birth_year) == (2, old.pk, 1986)
    assert new.reporter_user == world.family and new.caseworker == world.caseworker and new.consent == old.consent
    assert new.photos.count() == 1  # the photos go on with the report
    assert AuditEvent.objects.filter(action="report.amended", object_id=str(new.pk)).exists()
    assert client.get(reverse("web:report", kwargs={"report_id": old.pk})).status_code == 404
    assert "الإصدار 2" in client.get(reverse("web:report", kwargs={"report_id": new.pk})).content.decode()


@pytest.mark.django_db
def test_an_unchanged_report_makes_no_new_version(client_for, world):
    _change(client_for(world.family), world.report, birth_year="1985")
    assert Report.objects.filter(lineage=world.report.lineage).count() == 1


@pytest.mark.django_db
def test_its_caseworker_may_change_it_others_may_not(client_for, world):
    _change(client_for(world.caseworker), world.report, birth_year="1984")
    assert Report.objects.get(lineage=world.report.lineage, is_current=True).birth_year == 1984
    current = Report.objects.get(lineage=world.report.lineage, is_current=True)
    for user in (world.other_family, world.other_caseworker):
        client = client_for(user)
        assert client.get(reverse("web:report_edit", kwargs={"report_id": current.pk})).status_code == 404
        step = reverse("web:report_edit_step", kwargs={"report_id": current.pk, "step": "person"})
        assert client.post(step, {"full_name_ar": "x", "sex": "M"}).status_code == 404
    signed_out = client_for(None).get(reverse("web:report_edit", kwargs={"report_id": current.pk}))
    assert reverse("accounts:login") in signed_out["Location"]
    assert Report.objects.filter(lineage=world.report.lineage).count() == 2


@pytest.mark.django_db
def test_family_removes_a_wrongly_uploaded_photo(client_for, world):
    url = reverse("web:report_photo_remove", kwargs={"report_id": world.report.pk, "photo_id": world.photo.pk})
    for user in (world.other_family, world.other_caseworker):
        assert client_for(user).post(url).status_code == 404
    assert client_for(None).post(url).status_code == 302 and ReportPhoto.objects.filter(pk=world.photo.pk).exists()
    client = client_for(world.family)
    assert client.get(url).status_code == 405  # only an explicit POST removes
    page = client.get(reverse("web:report_photos", kwargs={"report_id": world.report.pk})).content.decode()
    assert url in page
    assert client.post(url)["Location"] == reverse("web:report_photos", kwargs={"report_id": world.report.pk})
    assert not ReportPhoto.objects.filter(pk=world.photo.pk).exists()
    event = AuditEvent.objects.get(action="report.photo_removed")
    assert event.data["sha256"] == world.photo.sha256 and event.actor == f"user:{world.family.pk}"
