"""Publishing asks once more: a confirmation step shows the very row the public list will show
(never a photo) and that the families were told and agreed; nothing changes until confirmed. The
page's heading follows the facts once the family was informed. Arabic and English."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import translation

from athar.audit.models import AuditEvent
from athar.identification import claims
from athar.identification.models import Identification
from tests.web.factories import make_candidate, person_for

pytestmark = pytest.mark.django_db


def _verified(world, django_capture_on_commit_callbacks) -> Identification:
    claims.make_claim(person_for(make_candidate(world.report, world.case)), world.case, "is_them", world.family)
    ident = Identification.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        for user in (world.reviewer, world.admin):
            claims.review(ident, user, "approve", "ok")
    world.report.consent = {**world.report.consent, "publication": True}
    world.report.birth_year = 1971
    world.report.save()
    return ident


def _heading(page: str) -> str:
    return re.search(r'<span id="where-it-stands">(.*?)</span>', page, re.DOTALL).group(1)


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_publishing_shows_what_becomes_public_and_waits_for_a_confirmation(
        client, client_for, world, django_capture_on_commit_callbacks, lang):
    ident = _verified(world, django_capture_on_commit_callbacks)
    caseworker = client_for(world.caseworker)
    with translation.override(lang):
        page = reverse("web:publication", kwargs={"identification_id": ident.pk})
        not_yet = "not every family informed yet" if lang == "en" else "ولم تُبلَّغ كل العائلات بعد"
        assert not_yet in _heading(caseworker.get(page).content.decode())
        caseworker.post(page, {"action": "inform", "report": world.report.pk,
                               "informed_on": dt.date.today().isoformat(), "method": "in_person"})
        informed = _heading(caseworker.get(page).content.decode())
        assert not_yet not in informed  # the heading follows the facts
        assert ("every family informed" if lang == "en" else "وأُبلغت كل العائلات") in informed

        response = caseworker.post(page, {"action": "publish"})  # first step: nothing happens yet
        ident.refresh_from_db()
        assert response.status_code == 200 and ident.status == "verified"
        assert not AuditEvent.objects.filter(action__contains="publish").exists()
        confirm = response.content.decode()
        public = re.search(r'<section class="card" id="will-be-public".*?</section>', confirm, re.DOTALL).group(0)
        assert world.report.full_name_ar in public and "1971" in public and "<img" not in public
        assert ("No photograph is ever shown" if lang == "en" else "لا تُعرض هناك أي صورة") in public
        families = re.search(r'id="families-told".*?</section>', confirm, re.DOTALL).group(0)
        assert ("agreed to publication" if lang == "en" else "ووافقت على النشر") in families
        assert 'name="confirmed" value="yes"' in confirm
        assert world.report.full_name_ar not in client.get(reverse("web:identified")).content.decode()

        caseworker.post(page, {"action": "publish", "confirmed": "yes"})
    ident.refresh_from_db()
    assert ident.status == "published"
    assert world.report.full_name_ar in client.get(reverse("web:identified")).content.decode()


def test_no_confirmation_is_offered_while_a_family_was_not_told(client_for, world,
                                                                 django_capture_on_commit_callbacks):
    ident = _verified(world, django_capture_on_commit_callbacks)
    page = reverse("web:publication", kwargs={"identification_id": ident.pk})
    response = client_for(world.caseworker).post(page, {"action": "publish"})
    assert response.status_code == 302
    response = client_for(world.caseworker).post(page, {"action": "publish", "confirmed": "yes"})
    ident.refresh_from_db()
    assert ident.status == "verified"  # the rules still refuse
