"""Error pages in the visitor's language with the quick exit; stale candidate links lead somewhere."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from athar.identification.models import Candidate, Ranking
from athar.web.views import errors
from tests.web.factories import make_candidate

PAGE_FURNITURE = ('name="viewport"', 'id="quick-exit"')


def assert_error_page(html: str, lang: str) -> None:
    for piece in PAGE_FURNITURE:
        assert piece in html
    if lang == "ar":
        assert 'lang="ar" dir="rtl"' in html
    else:
        assert 'lang="en" dir="ltr"' in html


@pytest.mark.django_db
def test_404_in_arabic_right_to_left_with_quick_exit():
    response = Client().get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert_error_page(html, "ar")
    assert "الصفحة غير موجودة" in html  # "page not found"


@pytest.mark.django_db
def test_404_in_english_under_en():
    response = Client().get("/en/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404 and "Page not found" in html
    assert_error_page(html, "en")


@pytest.mark.django_db
def test_403_in_arabic_for_a_reviewer_filing_a_report(client_for, make_user):
    response = client_for(make_user("reviewer")).get(reverse("web:report_new"))
    html = response.content.decode()
    assert response.status_code == 403
    assert_error_page(html, "ar")
    assert "هذه الصفحة غير متاحة لحسابكم" in html


@pytest.mark.django_db
def test_400_on_a_bad_host_is_translated():
    response = Client().get("/", HTTP_HOST="bad host name")
    html = response.content.decode()
    assert response.status_code == 400
    assert_error_page(html, "ar")
    assert "تعذّر فهم الطلب" in html


@pytest.mark.django_db
def test_an_expired_form_explains_itself(client_for, world):
    client = client_for(world.family)
    client.handler.enforce_csrf_checks = True
    response = client.post(reverse("web:consent", kwargs={"report_id": world.report.pk}), {})
    assert response.status_code == 403
    assert "مفتوحة مدة طويلة" in response.content.decode()


def test_500_needs_no_database_and_speaks_the_language():
    """No django_db mark: any query would fail this test."""
    for lang, words in (("ar", "حدث خطأ من جهتنا"), ("en", "Something went wrong on our side")):
        with translation.override(lang):
            response = errors.server_error(RequestFactory().get("/reports/new/"))
        html = response.content.decode()
        assert response.status_code == 500 and words in html
        assert_error_page(html, lang)


def _run_again(candidate: Candidate) -> Ranking:
    """What a new matching run does: the report's ranking is replaced by a new one."""
    old = candidate.ranking
    Ranking.objects.filter(pk=old.pk).update(is_current=False)
    return Ranking.objects.create(report=old.report, algorithm="test", algorithm_version="2", cases=1)


@pytest.mark.django_db
def test_stale_candidate_link_leads_the_family_to_the_current_list(client_for, world):
    candidate = make_candidate(world.report, world.case)
    _run_again(candidate)
    client = client_for(world.family)
    url = reverse("web:candidate", kwargs={"candidate_id": candidate.pk})
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("web:candidates", kwargs={"report_id": world.report.pk})
    page = client.get(response["Location"]).content.decode()
    assert "مقارنة سابقة" in page  # "an earlier comparison"
    claim = client.post(reverse("web:claim", kwargs={"candidate_id": candidate.pk}), {"verdict": "yes"})
    assert claim.status_code == 302 and not candidate.case.claims.exists()


@pytest.mark.django_db
def test_stale_candidate_link_reveals_nothing_to_another_family(client_for, world):
    candidate = make_candidate(world.report, world.case)
    _run_again(candidate)
    for user in (world.other_family, world.other_caseworker, None):
        response = client_for(user).get(reverse("web:candidate", kwargs={"candidate_id": candidate.pk}))
        assert response.status_code in (404, 302)
        if response.status_code == 302:  # signed out: to the sign-in page, not to the report
            assert reverse("accounts:login") in response["Location"]
        else:
            assert "مقارنة سابقة" in response.content.decode()  # the same words as for a removed one


@pytest.mark.django_db
def test_removed_candidate_gives_a_404_that_explains(client_for, world):
    candidate = make_candidate(world.report, world.case)
    url = reverse("web:candidate", kwargs={"candidate_id": candidate.pk})
    candidate.ranking.delete()
    response = client_for(world.family).get(url)
    assert response.status_code == 404
    assert "مقارنة سابقة" in response.content.decode()
