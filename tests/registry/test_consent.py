"""Consent to publication recorded by staff or carried by an import, and the one answer that combines
it with the family's own choice on the web (``registry.consent``): domain, import, CLI, API, web."""

from __future__ import annotations

import datetime as dt
import io
import json
import sys
from types import SimpleNamespace
from typing import Any
from unittest.mock import patch

import pytest
from django.core.management import call_command
from django.urls import reverse

from athar.audit.models import AuditEvent
from athar.core.signed_ids import sign_id
from athar.registry import consent as rules
from athar.registry.importing import import_reports
from athar.registry.models import ConsentRecord, Report
from athar.registry.policy import NotAllowed
from athar.registry.privacy import erase_report
from tests.web.conftest import client_for  # noqa: F401  (fixture)
from tests.web.factories import make_report

pytestmark = pytest.mark.django_db
WORDS = "قالت الأم: نعم، انشروا اسمه"


@pytest.fixture
def people(make_user: Any) -> SimpleNamespace:
    caseworker, other_caseworker = make_user("caseworker"), make_user("caseworker")
    family = make_user("family", caseworker=caseworker)
    report = make_report(family, caseworker)  # the form: publication not ticked
    return SimpleNamespace(caseworker=caseworker, other_caseworker=other_caseworker, family=family, report=report,
                           reviewer=make_user("reviewer"), admin=make_user("admin"),
                           inactive=make_user("caseworker", is_active=False))


def test_the_latest_statement_counts_whoever_recorded_it(people: SimpleNamespace) -> None:
    p = people
    first = rules.publication_consent(p.report)
    assert (first.given, first.how) == (False, "web")  # the family left the box unticked
    rules.record_consent(p.report, p.caseworker, publication=True, method="phone", words=WORDS)
    now = rules.publication_consent(p.report)
    assert (now.given, now.how, now.recorded_by) == (True, "phone", p.caseworker.pk)
    # The family then withdraws on the web: its own later word wins.
    from athar.registry.filing import consent_record

    p.report.consent = consent_record(True, False)
    p.report.save(update_fields=["consent"])
    assert (rules.publication_consent(p.report).given, rules.publication_consent(p.report).how) == (False, "web")
    # A withdrawal recorded by the caseworker is a statement too.
    rules.record_consent(p.report, p.caseworker, publication=True, method="paper")
    rules.record_consent(p.report, p.admin, publication=False, method="in_person")
    assert not rules.consents_to_publication(p.report)
    assert [r.publication for r in rules.history(p.report)] == [True, True, False]  # nothing replaced
    assert rules.publication_consents([p.report])[p.report.pk] == rules.publication_consent(p.report)


def test_an_imported_report_without_a_statement_has_no_consent(tmp_path: Any) -> None:
    path = tmp_path / "r.csv"
    path.write_text("report_id,full_name_ar\n1,محمد\n", encoding="utf-8")
    import_reports(path, source="ngo")
    assert rules.publication_consent(Report.objects.get()) == rules.NO_STATEMENT


def test_only_the_reports_caseworker_or_an_administrator_records_it(people: SimpleNamespace) -> None:
    p = people
    for user in (p.family, p.other_caseworker, p.reviewer, p.inactive):
        with pytest.raises(NotAllowed):
            rules.record_consent(p.report, user, publication=True, method="paper")
    with pytest.raises(ValueError, match="how"):
        rules.record_consent(p.report, p.caseworker, publication=True, method="import")
    with pytest.raises(ValueError, match="future"):
        rules.record_consent(p.report, p.caseworker, publication=True, method="paper",
                             given_on=dt.date.today() + dt.timedelta(days=2))
    assert not ConsentRecord.objects.exists()


def test_the_familys_words_are_encrypted_never_audited_and_shredded_on_erasure(people: SimpleNamespace) -> None:
    p = people
    row = rules.record_consent(p.report, p.caseworker, publication=True, method="phone", words=WORDS)
    assert WORDS.encode() not in bytes(row.words)
    assert rules.words_of(row, p.caseworker) == WORDS
    assert rules.words_of(row, p.other_caseworker) is None and rules.words_of(row, p.reviewer) is None
    event = AuditEvent.objects.get(action="consent.recorded")
    assert WORDS not in json.dumps(event.data, ensure_ascii=False) and event.data["words"] is True
    assert event.actor == f"user:{p.caseworker.pk}"
    erase_report(p.report)
    row.refresh_from_db()
    assert rules.words_of(row, p.admin) is None


# ---- imports --------------------------------------------------------------------------------------

def _import(tmp_path: Any, header: str, rows: list[str], source: str = "ngo-list") -> dict[str, Any]:
    path = tmp_path / "reports.csv"
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return import_reports(path, source=source)


def _consent(report_id: str) -> rules.Consent:
    return rules.publication_consent(Report.objects.get(report_id=report_id, is_current=True))


@pytest.mark.parametrize("header", ["report_id,full_name_ar,publication_consent", "رقم البلاغ,الاسم,الموافقة على النشر"])
def test_an_import_carries_consent_per_report_in_arabic_or_english(tmp_path: Any, header: str) -> None:
    result = _import(tmp_path, header, ["1,محمد أحمد,نعم", "2,خالد عمر,no", "3,سامر علي,ربما لاحقا", "4,عمر حسن,"])
    given = _consent("1")
    assert (given.given, given.how, given.source) == (True, "import", "ngo-list")
    assert not _consent("2").given and _consent("2").how == "import"
    unread = _consent("3")
    assert not unread.given  # a value athar cannot read counts as no consent …
    kept = Report.objects.get(report_id="3")
    assert "ربما لاحقا" in kept.extra.values() and "ربما لاحقا" in kept.notes  # … and is kept verbatim
    assert any(w["value"] == "ربما لاحقا" for w in result["value_warnings"])
    assert _consent("4") == rules.NO_STATEMENT  # an empty cell says nothing
    event = AuditEvent.objects.get(action="consent.imported")
    assert event.data == {"given": 1, "not_given": 2}


def test_importing_the_same_list_again_never_outvotes_the_family(tmp_path: Any, people: SimpleNamespace) -> None:
    header = "report_id,full_name_ar,publication_consent"
    _import(tmp_path, header, ["1,محمد أحمد,yes"])
    report = Report.objects.get(report_id="1")
    report.caseworker = people.caseworker
    report.save(update_fields=["caseworker"])
    rules.record_consent(report, people.caseworker, publication=False, method="phone")  # the family withdrew
    _import(tmp_path, header, ["1,محمد أحمد,yes"])  # the same list again
    assert not _consent("1").given and ConsentRecord.objects.count() == 2
    _import(tmp_path, header, ["1,محمد أحمد,no"])  # the source's own withdrawal is new: recorded
    _import(tmp_path, header, ["1,محمد أحمد,yes"])  # and its consent again after that
    assert _consent("1").given and ConsentRecord.objects.filter(method="import").count() == 3


# ---- the command, the API, the web ----------------------------------------------------------------

def _cli(capsys: Any, *args: str, stdin: str = "a long test password\n") -> dict[str, Any]:
    capsys.readouterr()
    with patch.object(sys, "stdin", io.StringIO(stdin)):
        call_command("registry", "consent", *args, "--json")
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_cli_records_consent_and_its_withdrawal(people: SimpleNamespace, capsys: Any) -> None:
    p = people
    rid = f"#{p.report.pk}"
    out = _cli(capsys, "--report", rid, "--given", "--method", "paper", "--on", "2026-01-05", "--words", WORDS,
               "--by", p.caseworker.login)
    assert out["consent"] == {"given": True, "how": "paper", "given_on": "2026-01-05"}
    out = _cli(capsys, "--report", rid, "--withdrawn", "--method", "phone", "--by", p.caseworker.login)
    assert out["consent"]["given"] is False
    with pytest.raises(SystemExit):
        _cli(capsys, "--report", rid, "--given", "--method", "paper", "--by", p.other_caseworker.login)
    assert ConsentRecord.objects.count() == 2


def _api(user: Any) -> Any:
    from django.test import Client

    from athar.api.models import ApiToken

    _row, token = ApiToken.issue(user, "test")
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


def test_api_reads_and_records_consent(people: SimpleNamespace) -> None:
    p = people
    client_for = _api
    url = f"/api/reports/{sign_id('report', p.report.pk)}/consent"
    assert client_for(p.family).get(url).json()["given"] is False
    refused = client_for(p.family).post(url, {"publication": True, "method": "paper"}, content_type="application/json")
    assert refused.status_code == 403
    assert client_for(p.other_caseworker).post(url, {"publication": True, "method": "paper"},
                                               content_type="application/json").status_code == 404
    made = client_for(p.caseworker).post(url, {"publication": True, "method": "in_person", "words": WORDS},
                                         content_type="application/json")
    assert made.status_code == 201 and made.json()["how"] == "in_person" and made.json()["given"] is True
    assert client_for(p.family).get(url).json()["given"] is True
    bad = client_for(p.caseworker).post(url, {"publication": True, "method": "import"},
                                        content_type="application/json")
    assert bad.status_code == 422
    assert ConsentRecord.objects.count() == 1


def test_the_caseworkers_report_page_records_it(people: SimpleNamespace, client_for: Any) -> None:
    p = people
    page = reverse("web:report", kwargs={"report_id": p.report.pk})
    post = reverse("web:record_consent", kwargs={"report_id": p.report.pk})
    assert 'id="publication-consent"' in client_for(p.caseworker).get(page).content.decode()
    assert 'id="publication-consent"' not in client_for(p.family).get(page).content.decode()
    assert client_for(p.family).post(post, {"publication": "yes", "method": "paper"}).status_code == 403
    response = client_for(p.caseworker).post(post, {"publication": "yes", "method": "phone", "words": WORDS})
    assert response.status_code == 302
    shown = client_for(p.caseworker).get(page).content.decode()
    assert WORDS in shown  # the caseworker reads the family's words back
    assert rules.publication_consent(p.report).how == "phone"
    # The family's own consent page starts from the combined answer (so saving it does not undo it).
    consent_page = client_for(p.family).get(reverse("web:consent", kwargs={"report_id": p.report.pk})).content.decode()
    assert '<input type="checkbox" name="publication" id="id_publication" checked>' in consent_page
