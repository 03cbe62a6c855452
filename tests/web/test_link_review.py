"""Reviewers decide the pairs of reports the linkage model was unsure of (and withdraw decisions)."""

from __future__ import annotations

import datetime
from types import SimpleNamespace
from typing import Any

import pytest
from django.urls import reverse

from athar.audit.models import AuditEvent
from athar.registry import decisions
from athar.registry.models import LinkageRun, LinkDecision, Report, ReviewPair, Verdict

pytestmark = pytest.mark.django_db


def _report(report_id: str, reporter: Any = None, **fields: Any) -> Report:
    return Report.objects.create(source="test-source", report_id=report_id, lineage=f"lineage-{report_id}",
                                 content_hash=f"hash-{report_id}", reporter_user=reporter, **fields)


@pytest.fixture
def pair(make_user) -> SimpleNamespace:
    family = make_user("family", login="reporter-contact@example.org")
    left = _report("r1", family, reporter_relation="أخ الشخص المفقود", father_name="خليل",
                   arresting_agency="فرع المداهمة", full_name_ar="سامر خليل", full_name_latin="Samer Khalil", birth_year=1980,
                   governorate="Homs", city="Talbiseh", arrest_date=datetime.date(2013, 5, 2),
                   arrest_date_precision="day", mother_name="فاطمة")
    right = _report("r2", family, full_name_ar="سامر خليل الأحمد", full_name_latin="Samir Khalil", birth_year=1981,
                    governorate="Homs", city="Rastan", mother_name="فاطمة")
    run = LinkageRun.objects.create(status=LinkageRun.Status.DONE, is_current=True, engine="test",
                                    algorithm="test", algorithm_version="1")
    review = ReviewPair.objects.create(run=run, left_report=left, right_report=right, probability=0.61,
                                       explanation={"why": "first name: similar spelling (+2.1); birth year: one year apart (-0.4)"})
    return SimpleNamespace(left=left, right=right, run=run, pair=review, family=family)


def test_reviewer_sees_an_open_pair_and_decides_it(world, client_for, pair):
    client = client_for(world.reviewer)
    page = client.get(reverse("web:link_review"))
    assert page.status_code == 200
    html = page.content.decode()
    for text in ("سامر خليل", "Samer Khalil", "Samir Khalil", "1980", "Talbiseh", "فاطمة",
                 "الاسم الأول: تهجئة متقاربة", "(+2.1)", "سنة الولادة: بفارق سنة واحدة", "(-0.4)",  # reasons in Arabic
                 "أخ الشخص المفقود", "test-source", "خليل", "فرع المداهمة",  # who reported, the father, the agency
                 reverse("web:link_decide", kwargs={"pair_id": pair.pair.pk})):
        assert text in html, text
    assert "reporter-contact@example.org" not in html
    assert "0٫61" in html or "0,61" in html or "0.61" in html  # the model's probability, localised

    response = client.post(reverse("web:link_decide", kwargs={"pair_id": pair.pair.pk}),
                           {"verdict": "same", "reason": "same mother, same town, the spelling differs"})
    assert response.status_code == 302 and response["Location"].endswith(reverse("web:link_review"))
    decision = LinkDecision.objects.get()
    assert decision.verdict == Verdict.SAME and decision.user == world.reviewer
    assert decision.reason == "same mother, same town, the spelling differs"
    assert {decision.left_report_id, decision.right_report_id} == {pair.left.pk, pair.right.pk}
    pair.pair.refresh_from_db()
    assert pair.pair.status == ReviewPair.Status.DECIDED
    assert AuditEvent.objects.filter(action="registry.link_decision", object_id=str(decision.pk)).exists()

    html = client.get(reverse("web:link_review")).content.decode()
    assert reverse("web:link_decide", kwargs={"pair_id": pair.pair.pk}) not in html
    assert reverse("web:link_reverse", kwargs={"decision_id": decision.pk}) in html


def test_admin_may_review(world, client_for, pair):
    assert client_for(world.admin).get(reverse("web:link_review")).status_code == 200


@pytest.mark.parametrize("data", [{"verdict": "same", "reason": "  "}, {"verdict": "same"},
                                  {"verdict": "maybe", "reason": "a reason"}, {"reason": "a reason"},
                                  {"verdict": "reversal", "reason": "a reason"}])
def test_verdict_and_reason_are_required(world, client_for, pair, data):
    client = client_for(world.reviewer)
    response = client.post(reverse("web:link_decide", kwargs={"pair_id": pair.pair.pk}), data)
    assert response.status_code == 302
    assert not LinkDecision.objects.exists()
    pair.pair.refresh_from_db()
    assert pair.pair.status == ReviewPair.Status.OPEN


def test_withdrawing_a_decision(world, client_for, pair):
    decision = decisions.decide(pair.left, pair.right, Verdict.DIFFERENT, world.reviewer, "different mothers")
    client = client_for(world.reviewer)
    url = reverse("web:link_reverse", kwargs={"decision_id": decision.pk})
    client.post(url, {"reason": ""})
    decision.refresh_from_db()
    assert decision.reversed_by_id is None, "a reason is required"

    assert client.post(url, {"reason": "the family corrected the mother's name"}).status_code == 302
    decision.refresh_from_db()
    assert decision.reversed_by is not None and decision.reversed_by.verdict == Verdict.REVERSAL
    assert decision.reversed_by.user == world.reviewer
    assert decisions.active_decision(pair.left, pair.right) is None
    assert AuditEvent.objects.filter(action="registry.link_decision_reversed").exists()
    html = client.get(reverse("web:link_review")).content.decode()
    assert url not in html

    client.post(url, {"reason": "again"})
    assert LinkDecision.objects.filter(verdict=Verdict.REVERSAL).count() == 1


@pytest.mark.parametrize("who", ["family", "caseworker", "archivist", None])
def test_no_access_for_other_roles(world, client_for, pair, who):
    decision = decisions.decide(pair.left, pair.right, Verdict.UNSURE, world.reviewer, "not enough to say")
    ReviewPair.objects.filter(pk=pair.pair.pk).update(status=ReviewPair.Status.OPEN)
    client = client_for(getattr(world, who) if who else None)
    urls = [reverse("web:link_review"), reverse("web:link_decide", kwargs={"pair_id": pair.pair.pk}),
            reverse("web:link_reverse", kwargs={"decision_id": decision.pk})]
    for url in urls:
        for method in ("get", "post"):
            response = getattr(client, method)(url, {"verdict": "same", "reason": "x"} if method == "post" else {})
            if who is None:
                assert response.status_code in (302, 405), (url, method)
                if response.status_code == 302:
                    assert "/accounts/login/" in response["Location"]
            else:
                assert response.status_code in (403, 405), (url, method, response.status_code)
            assert "سامر" not in response.content.decode()
    assert LinkDecision.objects.count() == 1
    pair.pair.refresh_from_db()
    assert pair.pair.status == ReviewPair.Status.OPEN
