"""The audit log page is readable, and the erasure page promises what the log records.

Actors are shown by role and login for staff, as "family account #N" for families (a family's login
is its phone number: never shown); data as a small key/value list, yes/no in the page's language.
Erasure: the page says the contact becomes unreadable only when the report holds an encrypted key
to shred, and the audit event's ``key_shredded`` says the same. Arabic and English."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from athar.audit.chain import record
from athar.audit.models import AuditEvent
from athar.core.crypto import DecryptionError
from athar.registry import keys
from athar.registry.importing import contact_owner
from athar.registry.models import Report

pytestmark = pytest.mark.django_db


def _events(page: str) -> str:
    return "".join(re.findall(r'<tr class="event".*?</tr>', page, re.DOTALL))


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_actors_by_role_and_login_and_families_by_number_only(client_for, world, lang):
    record("case.edited", object_type="case", object_id=1, actor=f"user:{world.caseworker.pk}",
           data={"key_shredded": False, "versions": 2, "fields": ["sex", "marks"]})
    record("registry.export_report", object_type="report", object_id=world.report.pk,
           actor=f"user:{world.family.pk}", data={"contact": True})
    with translation.override(lang):
        rows = _events(client_for(world.admin).get(reverse("web:audit_log")).content.decode())
    assert f"user:{world.caseworker.pk}" not in rows and f"user:{world.family.pk}" not in rows
    assert world.caseworker.login in rows and ("caseworker" if lang == "en" else "مسؤول حالة") in rows
    assert world.family.login not in rows  # a family's login is its phone number
    assert (f"family account #{world.family.pk}" if lang == "en" else f"حساب عائلة رقم {world.family.pk}") in rows
    assert "{'" not in rows and "False" not in rows and "True" not in rows  # no Python dict
    assert re.search(r"<dt[^>]*><code>key_shredded</code></dt><dd>(no|لا)</dd>", rows)
    assert re.search(r"<dt[^>]*><code>fields</code></dt><dd><code[^>]*>sex, marks</code></dd>", rows)


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_erasure_page_and_the_log_say_the_same(client_for, world, lang):
    """world.report holds a sealed photo (a key); world.other_report nothing encrypted — until a
    contact is stored for it."""
    cases = [(world.report, world.family, True), (world.other_report, world.other_family, False)]
    with translation.override(lang):
        for report, family, keyed in cases:
            client = client_for(family)
            url = reverse("web:report_erase", kwargs={"report_id": report.pk})
            page = client.get(url).content.decode()
            assert ('id="erase-key"' in page) is keyed and ('id="erase-no-key"' in page) is not keyed
            assert 'id="erase-account"' in page
            client.post(url, {"confirm": "yes"})
            event = AuditEvent.objects.filter(action="registry.erase_report", object_id=str(report.pk)).get()
            assert event.data["key_shredded"] is keyed


def test_a_stored_contact_is_promised_unreadable_and_is(client_for, world):
    owner = contact_owner(world.other_report.lineage)
    Report.objects.filter(pk=world.other_report.pk).update(reporter_contact=keys.encrypt_for(owner, "+963 944 000 111"))
    url = reverse("web:report_erase", kwargs={"report_id": world.other_report.pk})
    client = client_for(world.other_family)
    assert 'id="erase-key"' in client.get(url).content.decode()
    ciphertext = bytes(Report.objects.get(pk=world.other_report.pk).reporter_contact)
    client.post(url, {"confirm": "yes"})
    assert AuditEvent.objects.get(action="registry.erase_report").data["key_shredded"] is True
    with pytest.raises(DecryptionError):
        keys.decrypt_for(owner, ciphertext)  # a copy of the ciphertext (a backup) reads as nothing
