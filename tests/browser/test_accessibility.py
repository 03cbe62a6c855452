"""Each role walked through its pages in a real browser, with an automated accessibility check.

Families at phone width (360 px) in Arabic; staff at desktop width in English and in Arabic. Every
page is screenshotted under artifacts/screenshots/walk-<role>-<language>/ and checked with axe-core
(installed from the npm registry by scripts/setup into .cache/axe): no serious or critical
violation, and no sideways scrolling on a phone.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from athar.archive.models import IngestRun
from athar.identification import claims
from tests.browser.conftest import DESKTOP, PHONE, axe_violations, needs_axe, sign_in
from tests.web.factories import make_candidate, make_case, make_report, person_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def used(make_user: Any) -> Any:
    """A store that has been used: a family with a report and a likely match under review, its
    caseworker, two reviewers (one already approved), an archivist, an administrator."""
    from types import SimpleNamespace

    caseworker = make_user("caseworker", login="caseworker@example.org")
    family = make_user("family", login="+963944000111", caseworker=caseworker)
    case = make_case("C-1041", "215")
    report = make_report(family, caseworker, name="أحمد محمد الخطيب")
    candidate = make_candidate(report, case)
    claims.make_claim(person_for(candidate), case, "is_them", family, report=report)
    IngestRun.objects.create(archive=case.archive, source="/srv/archive", status="done",
                             counts={"files_seen": 3, "photos_added": 2, "duplicates": 1})
    return SimpleNamespace(
        family=family, caseworker=caseworker, report=report, candidate=candidate, case=case,
        reviewer=make_user("reviewer", login="reviewer@example.org"),
        archivist=make_user("archivist", login="archivist@example.org"),
        admin=make_user("admin", login="admin@example.org"),
        identification=person_for(candidate).identifications.first(),
    )


def walk_pages(role: str, world: Any) -> list[str]:
    """The pages a role goes through (unprefixed: Arabic; English prefixes /en)."""
    if role == "family":
        return [reverse("web:family_home"), reverse("web:report", args=[world.report.pk]),
                reverse("web:candidates", args=[world.report.pk]), reverse("web:candidate", args=[world.candidate.pk]),
                reverse("web:report_new"), reverse("web:about"), reverse("web:method"), reverse("web:privacy")]
    if role == "caseworker":
        return [reverse("web:caseworker_home"), reverse("web:report", args=[world.report.pk]),
                reverse("web:staff_candidates", args=[world.report.pk]), reverse("web:invite"), reverse("web:import")]
    if role == "reviewer":
        return [reverse("web:review_queue"), reverse("web:compare", args=[world.identification.pk]),
                reverse("web:conflicts"), reverse("web:link_review")]
    if role == "archivist":
        return [reverse("web:archives"), reverse("web:facilities"), reverse("web:facility", args=[world.case.facility_id]),
                reverse("web:case", args=[world.case.pk]),
                reverse("web:case_edit", args=[world.case.pk]), reverse("web:ingest_runs")]
    return [reverse("web:admin_users"), reverse("web:admin_user_new"), reverse("web:audit_log"),
            reverse("web:stats"), reverse("web:identified")]


WALKS = [("family", "ar", PHONE), ("caseworker", "en", DESKTOP), ("caseworker", "ar", DESKTOP),
         ("reviewer", "en", DESKTOP), ("reviewer", "ar", DESKTOP), ("archivist", "en", DESKTOP),
         ("archivist", "ar", DESKTOP), ("admin", "en", DESKTOP), ("admin", "ar", DESKTOP)]


@needs_axe
@pytest.mark.parametrize(("role", "language", "viewport"), WALKS, ids=[f"{r}-{lang}" for r, lang, _ in WALKS])
def test_each_role_walks_its_pages_accessibly(browser: Any, live_server: Any, used: Any, shots: Any,
                                              role: str, language: str, viewport: dict[str, int]) -> None:
    # bypass_csp: only so the test can inject axe-core; the pages keep their strict policy.
    context = browser.new_context(viewport=viewport, locale=language, is_mobile=viewport is PHONE, bypass_csp=True,
                                  has_touch=viewport is PHONE)
    page = context.new_page()
    shot = shots(page, f"walk-{role}-{language}")
    prefix = "" if language == "ar" else "/en"
    sign_in(page, live_server.url + prefix, getattr(used, role).login)
    problems: dict[str, list[str]] = {}
    with translation.override("ar"):
        paths = walk_pages(role, used)
    for path in paths:
        response = page.goto(live_server.url + prefix + path)
        assert response is not None and response.status == 200, (role, path, response and response.status)
        assert page.locator("html").get_attribute("dir") == ("rtl" if language == "ar" else "ltr")
        if viewport is PHONE:
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1, path
        shot(path.strip("/").replace("/", "-") or "home")
        found = axe_violations(page)
        if found:
            problems[path] = found
    context.close()
    assert problems == {}, "\n".join(f"{path}: {found}" for path, found in problems.items())


@needs_axe
def test_the_check_finds_what_it_looks_for(browser: Any) -> None:
    """A nameless button and an image without text are reported; the same page fixed is clean."""
    page = browser.new_page()
    page.set_content('<html lang="en"><head><title>t</title></head><body><main><button></button>'
                     '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>')
    found = " ".join(axe_violations(page))
    assert "button-name" in found and "image-alt" in found
    page.set_content('<html lang="en"><head><title>t</title></head><body><main><button>Send</button>'
                     '<img alt="a dot" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>')
    assert axe_violations(page) == []
    page.close()
