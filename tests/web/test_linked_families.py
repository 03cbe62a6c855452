"""A stranger linked into another family's person sees nothing of that family.

Linkage is a staff judgement, not a key: someone who self-registers (unverified), files a report
naming a missing man, and is linked by ``athar registry link`` into the same person as another
family's report receives none of that family's text, ids, claims or photos — on the web or the
API — cannot change its consent, and sees no candidate at all until a caseworker takes it on.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from athar.api.models import ApiToken
from athar.core.signed_ids import sign_id
from athar.identification import claims
from athar.registry.models import ReportLink
from tests.web.factories import make_candidate, make_report, person_for

SECRET_MARK = "وشم طائر على الساعد الأيسر"
SECRET_NUMBER = "1000"


@pytest.fixture
def linked(world: Any, make_user: Any) -> dict[str, Any]:
    """Family A (taken on by its caseworker) with a candidate whose reasons quote its report; a
    self-registered stranger whose report is linked into the same person."""
    report_a = world.report
    report_a.distinguishing_marks, report_a.detainee_number = SECRET_MARK, SECRET_NUMBER
    report_a.consent = {**(report_a.consent or {}), "publication": True}
    report_a.save()
    candidate = make_candidate(report_a, world.case)
    candidate.reasons = [{"feature": "marks", "level": "content", "weight": 3.0,
                          "detail": f"marks: reported {SECRET_MARK}"},
                         {"feature": "number", "level": "same_number", "weight": 4.0,
                          "detail": f"detainee number: reported {SECRET_NUMBER}"}]
    candidate.save()
    person = person_for(candidate)
    staff_ranking = person.rankings.get(is_current=True)
    staff_ranking.candidates.update(reasons=candidate.reasons)
    claim = claims.make_claim(person, world.case, "is_them", world.family, report=report_a)
    stranger = make_user("family", login="+963944000111")  # self-registered: no caseworker
    report_s = make_report(stranger, None, name="محمد أحمد")
    ReportLink.objects.create(run=person.links.first().run, report=report_s, person=person, probability=0.99)
    return {"a": report_a, "s": report_s, "stranger": stranger, "candidate": candidate, "claim": claim,
            "person": person}


def _api(user: Any) -> Client:
    client = Client()
    _, token = ApiToken.issue(user, "test")
    client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


def _leaks(text: str, linked: dict[str, Any]) -> list[str]:
    a = linked["a"]
    secrets = [SECRET_MARK, SECRET_NUMBER, sign_id("report", a.pk), sign_id("candidate", linked["candidate"].pk),
               sign_id("claim", linked["claim"].pk), "faces very similar"]
    return [s for s in secrets if s in text]


@pytest.mark.django_db
def test_a_linked_stranger_sees_nothing_of_the_other_family_on_the_web(linked: dict[str, Any], client_for: Any,
                                                                      world: Any) -> None:
    client = client_for(linked["stranger"])
    pages = [reverse("web:family_home"), reverse("web:report", args=[linked["s"].pk]),
             reverse("web:candidates", args=[linked["s"].pk])]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert _leaks(response.content.decode(), linked) == [], url
    summary = client.get(reverse("web:report", args=[linked["s"].pk])).content.decode()
    # awaiting a caseworker, in careful words ("Your report is filed. No caseworker looks after it yet: …")
    assert "قُدِّم بلاغكم. لا يتولاه مسؤول حالة بعد" in summary
    for name, kwargs in (("candidate", [linked["candidate"].pk]), ("report", [linked["a"].pk]),
                         ("consent", [linked["a"].pk]), ("candidates", [linked["a"].pk]),
                         ("report_export", [linked["a"].pk])):
        assert client.get(reverse(f"web:{name}", args=kwargs)).status_code == 404, name
    response = client.post(reverse("web:consent", args=[linked["a"].pk]), {"publication": ""})
    assert response.status_code == 404
    linked["a"].refresh_from_db()
    assert linked["a"].consent["publication"] is True  # the other family's consent is its own


@pytest.mark.django_db
def test_a_linked_stranger_sees_nothing_of_the_other_family_through_the_api(linked: dict[str, Any]) -> None:
    api = _api(linked["stranger"])
    for url in ("/api/reports", f"/api/reports/{sign_id('report', linked['s'].pk)}",
                f"/api/reports/{sign_id('report', linked['s'].pk)}/candidates", "/api/claims"):
        response = api.get(url)
        assert response.status_code == 200, url
        assert _leaks(response.content.decode(), linked) == [], url
    assert api.get(f"/api/reports/{sign_id('report', linked['s'].pk)}/candidates").json()["items"] == []
    assert api.get("/api/claims").json()["items"] == []
    assert api.get(f"/api/candidates/{sign_id('candidate', linked['candidate'].pk)}").status_code == 404
    assert api.get(f"/api/reports/{sign_id('report', linked['a'].pk)}").status_code == 404
    response = api.post(f"/api/candidates/{sign_id('candidate', linked['candidate'].pk)}/claim",
                        {"verdict": "no"}, content_type="application/json")
    assert response.status_code == 404


@pytest.mark.django_db
def test_taken_on_it_sees_its_own_reports_ranking_never_the_other_familys(linked: dict[str, Any], client_for: Any,
                                                                        world: Any) -> None:
    """Once a caseworker takes the stranger on, it sees candidates ranked from its own report only:
    never the other report's reasons, candidate or claims, and no reasons at all (as on the web)."""
    stranger = linked["stranger"]
    stranger.caseworker = world.other_caseworker
    stranger.save(update_fields=["caseworker"])
    own = make_candidate(linked["s"], world.case, linked=False)
    client = client_for(stranger)
    page = client.get(reverse("web:candidates", args=[linked["s"].pk])).content.decode()
    assert sign_id("candidate", own.pk) in page and _leaks(page, linked) == []
    api = _api(stranger)
    rows = api.get(f"/api/reports/{sign_id('report', linked['s'].pk)}/candidates").json()["items"]
    assert [r["id"] for r in rows] == [sign_id("candidate", own.pk)] and rows[0]["reasons"] == []
    assert _leaks(api.get("/api/claims").content.decode(), linked) == []
    staff = linked["person"].rankings.get(is_current=True).candidates.get()  # the person's, from both reports
    assert client.get(reverse("web:candidate", args=[staff.pk])).status_code == 404
    assert api.get(f"/api/candidates/{sign_id('candidate', staff.pk)}").status_code == 404
    assert client.get(reverse("web:candidate", args=[linked["candidate"].pk])).status_code == 404
    # the family's own caseworker still sees its family's candidate, and a reviewer sees the person's ranking
    assert client_for(world.caseworker).get(reverse("web:candidate", args=[linked["candidate"].pk])).status_code == 200


@pytest.mark.django_db
def test_erasing_a_report_removes_its_words_from_every_ranking_at_once(linked: dict[str, Any]) -> None:
    from athar.identification.models import Candidate
    from athar.registry.privacy import erase_report

    assert Candidate.objects.filter(reasons__icontains=SECRET_NUMBER).exists()
    erase_report(linked["a"], actor="test")
    assert not Candidate.objects.filter(reasons__icontains=SECRET_NUMBER).exists()
    assert not any(SECRET_MARK in str(c.reasons) for c in Candidate.objects.all())
    linked["claim"].refresh_from_db()
    assert linked["claim"].relation == ""
