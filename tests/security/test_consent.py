"""Consent on public pages: a name is published only when every family who reported the person agreed."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.security.helpers import stored_case

pytestmark = pytest.mark.django_db

PUBLIC_PAGES = ["web:home", "web:about", "web:method", "web:support", "web:identified", "web:stats"]


def _published(tmp_path, consents: list[dict]) -> list[str]:
    from athar.identification.models import Identification
    from athar.registry.models import LinkageRun, MissingPerson, Report, ReportLink

    stored = stored_case(tmp_path)
    person = MissingPerson.objects.create()
    run = LinkageRun.objects.create(status="done", is_current=True, engine="t", algorithm="t", algorithm_version="1")
    names = []
    for n, consent in enumerate(consents):
        name = f"اسم-سري-{n}"
        report = Report.objects.create(source="t", report_id=f"C{n}", lineage=f"consent-{n}", content_hash="-",
                                       full_name_ar=name, full_name_latin=f"Secret Name {n}", consent=consent)
        ReportLink.objects.create(run=run, report=report, person=person)
        names.append(name)
    Identification.objects.create(person=person, case=stored.case, status="published", published_at=timezone.now())
    return names


def _public_text(client) -> str:
    return "\n".join(client.get(reverse(name)).content.decode() for name in PUBLIC_PAGES)


@pytest.mark.parametrize("consents,shown", [
    ([{"publication": True}], True),
    ([{}], False),
    ([{"publication": False}], False),
    ([{"publication": True}, {"publication": False}], False),  # one family said no: nobody is published
    ([{"publication": True}, {}], True),
])
def test_public_pages_publish_a_name_only_with_consent(client, tmp_path, consents, shown):
    names = _published(tmp_path, consents)
    text = _public_text(client)
    assert (names[0] in text or (len(names) > 1 and names[1] in text)) is shown
    assert "Secret Name" not in text or shown
