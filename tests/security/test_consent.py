"""Consent on public pages: what a family gave is published only when that family was told in
person (recorded by its caseworker) and agreed; one family can neither publish nor hide another's."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.security.helpers import stored_case

pytestmark = pytest.mark.django_db

PUBLIC_PAGES = ["web:home", "web:about", "web:method", "web:support", "web:identified", "web:stats"]


def _published(tmp_path, consents: list[dict], informed: list[bool] | None = None) -> list[str]:
    import datetime as dt

    from athar.accounts.models import User
    from athar.identification.models import Claim, FamilyInformed, Identification
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
    ident = Identification.objects.create(person=person, case=stored.case, status="published",
                                          published_at=timezone.now())
    caseworker = User.objects.create_user("cw@example.org", "a long test password", role="caseworker")
    for report in Report.objects.filter(links__person=person):  # each family's own claim led here
        Claim.objects.create(person=person, case=stored.case, verdict="is_them", by=caseworker, report=report)
    for report, told in zip(Report.objects.filter(links__person=person).order_by("pk"), informed or [True] * len(names)):
        if told:
            FamilyInformed.objects.create(identification=ident, report=report, informed_by=caseworker,
                                          informed_on=dt.date.today(), method="in_person")
    return names


def _public_text(client) -> str:
    return "\n".join(client.get(reverse(name)).content.decode() for name in PUBLIC_PAGES)


@pytest.mark.parametrize("consents,informed,shown", [
    ([{"publication": True}], [True], [True]),
    ([{"publication": True}], [False], [False]),  # agreed, but never told in person: nothing
    ([{}], [True], [False]),
    ([{"publication": False}], [True], [False]),
    ([{"publication": True}, {"publication": False}], [True, True], [True, False]),  # each family for itself
    ([{"publication": True}, {}], [True, True], [True, False]),
    ([{"publication": True}, {"publication": True}], [True, False], [True, False]),
])  # every report here is its family's own claim: a report linked by name alone concerns no one (issue 26)
def test_public_pages_publish_only_what_a_told_and_consenting_family_gave(client, tmp_path, consents, informed,
                                                                         shown):
    names = _published(tmp_path, consents, informed)
    text = _public_text(client)
    assert (names[0] in text) is shown[0]
    for name, ok in zip(names, shown):
        if not ok:
            assert name not in text, name
