"""Public pages answer without sign-in, in Arabic by default and English under /en/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils.translation import override

from tests.web.factories import make_case

PUBLIC = ["web:home", "web:about", "web:method", "web:support", "web:identified", "web:stats"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", PUBLIC)
def test_public_pages_answer_in_arabic_rtl(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    assert '<html lang="ar" dir="rtl">' in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("name", PUBLIC)
def test_public_pages_answer_in_english_ltr(client, name):
    with override("en"):
        path = reverse(name)
    assert path.startswith("/en/")
    response = client.get(path)
    assert response.status_code == 200
    assert '<html lang="en" dir="ltr">' in response.content.decode()


@pytest.mark.django_db
def test_home_is_200_at_root_with_language_switch_and_quick_exit(client):
    html = client.get("/").content.decode()
    assert 'href="/en/"' in html and 'id="quick-exit"' in html
    english = client.get("/en/").content.decode()
    assert 'href="/"' in english


@pytest.mark.django_db
def test_public_pages_never_show_a_photo(client):
    make_case()
    for name in PUBLIC:
        html = client.get(reverse(name)).content.decode()
        assert "<img" not in html and "/photos/" not in html


@pytest.mark.django_db
def test_statistics_are_bar_tables_that_keep_whole_names(client):
    from athar.archive.models import Facility

    make_case("A1")
    make_case("A2", "227")
    Facility.objects.filter(code="227").update(name_ar="فرع المنطقة التابع لشعبة المخابرات العسكرية في دمشق")
    html = client.get(reverse("web:stats")).content.decode()
    assert "<script" not in html.split("</head>")[1] and "<svg" not in html
    assert len(re.findall(r'<meter min="0" max="1" value="1"', html)) == 2  # one bar per facility
    assert "فرع المنطقة التابع لشعبة المخابرات العسكرية في دمشق" in html  # never cut


@pytest.mark.django_db
def test_statistics_say_why_there_are_no_figures_yet(client):
    html = client.get(reverse("web:stats")).content.decode()
    assert html.count('class="muted"') >= 3 and "<meter" not in html


@pytest.mark.django_db
def test_pages_use_no_inline_script_or_style(client):
    for name in PUBLIC + ["accounts:login", "accounts:redeem"]:
        html = client.get(reverse(name)).content.decode()
        assert "<style" not in html and " style=" not in html
        assert re.search(r"<script(?![^>]*\bsrc=)", html) is None


def test_css_uses_logical_properties_only():
    from pathlib import Path

    import athar

    css = (Path(athar.__file__).parent / "web" / "static" / "web" / "athar.css").read_text()
    assert not re.search(r"(margin|padding|border)-(left|right)|text-align:\s*(left|right)|float:\s*(left|right)", css)


def test_quick_exit_replaces_the_history_entry():
    from pathlib import Path

    import athar

    js = (Path(athar.__file__).parent / "web" / "static" / "web" / "athar.js").read_text()
    assert "location.replace(" in js


@pytest.mark.django_db
def test_every_page_offers_the_quick_exit_and_the_language_switch(client, make_user):
    from tests.web.conftest import sign_in

    sign_in(client, make_user("family"))
    for url in ("/", "/family/", "/reports/new/", "/en/family/", "/accounts/login/"):
        response = client.get(url, follow=True)
        html = response.content.decode()
        assert 'id="quick-exit"' in html and 'class="lang-switch"' in html, url


@pytest.mark.django_db
def test_method_page_publishes_the_measured_error_rates_with_their_source(client):
    import json

    from athar.web.method import MEASURED_FILE

    shipped = json.loads(MEASURED_FILE.read_text(encoding="utf-8"))
    html = client.get("/en/method/").content.decode()
    commands = (Path(__file__).resolve().parents[2] / "docs" / "figures.md").read_text(encoding="utf-8")
    for block in shipped["blocks"]:
        assert block["command"] not in html  # command lines are for docs/, not for families
        assert block["command"] in commands
        for figure in block["figures"]:
            assert f"{round(100 * figure['value'], 1)}%" in html
    assert "false match" in html.lower() or "stranger" in html.lower()
    assert "<img" not in html


@pytest.mark.django_db
def test_method_page_says_so_when_no_figures_are_shipped(client, monkeypatch, tmp_path):
    from athar.web import method as identification

    monkeypatch.setattr(identification, "MEASURED_FILE", tmp_path / "missing.json")
    assert client.get("/en/method/").status_code == 200
    assert "not available" in client.get("/en/method/").content.decode()


@pytest.mark.django_db
def test_the_arabic_support_page_names_the_organisations_contact(client, settings, tmp_path):
    """The demo's contact file (or ATHAR_ORGANISATION_CONTACT) reaches the support page in Arabic."""
    from athar.config import organisation_contact
    from athar.web.demo import DEMO_CONTACT

    (tmp_path / "organisation-contact.txt").write_text(DEMO_CONTACT, encoding="utf-8")
    settings.ATHAR_ORGANISATION_CONTACT = organisation_contact(tmp_path)
    html = client.get(reverse("web:support")).content.decode()
    assert '<html lang="ar" dir="rtl">' in html and "+963 11 000 0000" in html and "منظمة تجريبية" in html
