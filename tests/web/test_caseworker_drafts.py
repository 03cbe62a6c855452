"""A caseworker's unfinished reports and changes are found again on their home page: what each is
for, when it was last saved, a way to continue and a way to discard it. Only their own."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from athar.audit.models import AuditEvent
from athar.registry.models import Report, ReportDraft

pytestmark = pytest.mark.django_db

NAME = "سليم الحموي"


def step_url(name: str) -> str:
    return reverse("web:report_step", kwargs={"step": name})


def drafts_section(client: Any) -> str:
    page = client.get(reverse("web:caseworker_home")).content.decode()
    found = re.search(r'<section class="card warning" id="drafts".*?</section>', page, re.S)
    return found.group(0) if found else ""


def begin_for_family(client: Any, family: Any) -> None:
    assert client.get(reverse("web:report_new"))["Location"] == step_url("family")
    client.post(step_url("family"), {"family": family.pk})
    client.post(step_url("consent"), {"face_processing": "on"})
    client.post(step_url("person"), {"full_name_ar": NAME, "sex": "M"})


def test_the_caseworker_owns_the_draft_of_a_report_filed_for_a_family(client_for: Any, world: Any) -> None:
    begin_for_family(client_for(world.caseworker), world.family)
    draft = ReportDraft.objects.get()
    assert draft.owner == world.caseworker and draft.data["family"] == world.family.pk
    assert NAME not in client_for(world.family).get(reverse("web:family_home")).content.decode()


def test_begin_sign_out_and_in_continue_from_the_home_page_and_finish(client_for: Any, world: Any) -> None:
    first = client_for(world.caseworker)
    begin_for_family(first, world.family)
    first.post(reverse("accounts:logout"))
    assert first.get(reverse("web:caseworker_home")).status_code == 302  # signed out
    again = client_for(world.caseworker)  # signed in again: a new session
    section = drafts_section(again)
    draft = ReportDraft.objects.get(owner=world.caseworker)
    assert "بلاغات لم تكتمل" in section and f"بلاغ جديد عن {NAME}" in section
    assert f"للعائلة: {world.family.display_name or world.family.login}" in section
    assert draft.updated_at.strftime("%Y-%m-%d") in section  # when it was last saved
    assert f'href="{reverse("web:report_new")}"' in section  # continue
    assert reverse("web:draft_discard", args=[draft.pk]) in section
    assert again.get(reverse("web:report_new"))["Location"] == step_url("birth")  # where it stopped
    assert f'value="{NAME}"' in again.get(step_url("person")).content.decode()
    again.post(step_url("birth"), {"birth_year": "1979", "governorate": ""})
    for name in ("arrest", "marks", "details", "check"):
        again.post(step_url(name), {})
    again.post(step_url("photos"), {})
    report = Report.objects.get(full_name_ar=NAME)
    assert report.reporter_user == world.family and report.caseworker == world.caseworker
    assert report.birth_year == 1979 and not ReportDraft.objects.exists()
    assert drafts_section(again) == ""  # filed: nothing left unfinished


def test_unfinished_changes_to_a_filed_report_are_listed_and_continued(client_for: Any, world: Any) -> None:
    client = client_for(world.caseworker)
    edit = reverse("web:report_edit", kwargs={"report_id": world.report.pk})
    client.get(edit)
    client.post(reverse("web:report_edit_step", kwargs={"report_id": world.report.pk, "step": "person"}),
                {"full_name_ar": world.report.full_name_ar, "sex": world.report.sex})
    section = drafts_section(client_for(world.caseworker))
    assert f"تعديلات على البلاغ عن {world.report.full_name_ar}" in section and f'href="{edit}"' in section
    assert client.get(edit)["Location"].endswith("/birth/")  # continued where it stopped


def test_the_owner_discards_a_draft(client_for: Any, world: Any) -> None:
    client = client_for(world.caseworker)
    begin_for_family(client, world.family)
    draft = ReportDraft.objects.get()
    url = reverse("web:draft_discard", args=[draft.pk])
    assert client.get(url).status_code == 405  # only an explicit POST discards
    response = client.post(url)
    assert response["Location"] == reverse("web:caseworker_home")
    assert not ReportDraft.objects.exists() and not Report.objects.filter(full_name_ar=NAME).exists()
    assert client.post(url).status_code == 404
    audited = AuditEvent.objects.filter(action="report.draft_discarded").get()  # once: the 404 wrote none
    assert (audited.actor, audited.object_type, audited.object_id) == (f"user:{world.caseworker.pk}", "draft", str(draft.pk))
    assert NAME not in str(audited.data)  # what the draft said was never sent, nor is it kept


def test_another_caseworker_neither_sees_nor_discards_it(client_for: Any, world: Any) -> None:
    begin_for_family(client_for(world.caseworker), world.family)
    client_for(world.caseworker).get(reverse("web:report_edit", kwargs={"report_id": world.report.pk}))
    assert ReportDraft.objects.count() == 2
    for outsider in (world.other_caseworker, world.family, world.other_family, world.reviewer):
        client = client_for(outsider)
        if outsider.role == "caseworker":
            assert drafts_section(client) == ""
        for draft in ReportDraft.objects.all():
            assert client.post(reverse("web:draft_discard", args=[draft.pk])).status_code == 404
    signed_out = client_for(None).post(reverse("web:draft_discard", args=[ReportDraft.objects.first().pk]))
    assert reverse("accounts:login") in signed_out["Location"]
    assert ReportDraft.objects.count() == 2
    other_home = client_for(world.other_caseworker).get(reverse("web:caseworker_home")).content.decode()
    assert NAME not in other_home


def test_changes_overtaken_by_a_new_version_can_only_be_discarded(client_for: Any, world: Any) -> None:
    from tests.web.test_drafts import _change

    client_for(world.caseworker).get(reverse("web:report_edit", kwargs={"report_id": world.report.pk}))
    _change(client_for(world.family), world.report, birth_year="1990")  # the family changed it meanwhile
    section = drafts_section(client_for(world.caseworker))
    assert "لم يعد حفظها ممكناً" in section and world.report.full_name_ar not in section
    assert reverse("web:report_edit", kwargs={"report_id": world.report.pk}) not in section
    draft = ReportDraft.objects.get(owner=world.caseworker)
    assert client_for(world.caseworker).post(reverse("web:draft_discard", args=[draft.pk])).status_code == 302
    assert not ReportDraft.objects.filter(owner=world.caseworker).exists()


def test_a_family_discards_its_own_draft_from_its_home(client_for: Any, world: Any) -> None:
    from tests.web.test_drafts import begin

    client = client_for(world.family)
    begin(client)
    draft = ReportDraft.objects.get(owner=world.family)
    url = reverse("web:draft_discard", args=[draft.pk])
    assert url in client.get(reverse("web:family_home")).content.decode()
    assert client.post(url)["Location"] == reverse("web:family_home")
    assert not ReportDraft.objects.filter(owner=world.family).exists()
