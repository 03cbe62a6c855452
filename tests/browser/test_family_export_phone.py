"""A family reads what it gave on a phone, in Arabic (no sideways scroll, axe clean), and downloads
the PDF; a reviewer reads a conflict side by side at desktop width in English."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from athar.identification import claims
from tests.browser.conftest import PHONE
from tests.web.factories import make_candidate, make_case, make_report, person_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_family_reads_its_data_on_a_phone_and_downloads_the_pdf(walk, make_user):
    caseworker = make_user("caseworker")
    family = make_user("family", caseworker=caseworker)
    report = make_report(family, caseworker, name="محمود أحمد السالم", mother_name="فاطمة الحسن",
                         clothing="سترة جلدية بنية اللون وقميص أبيض مخطط بالأزرق", reporter_relation="أم")
    w = walk("family-export", "ar", PHONE)
    w.sign_in(family.login)
    with translation.override("ar"):
        w.go(reverse("web:report", kwargs={"report_id": report.pk}))
        w.page.click("summary")
        w.page.click(f"a[href$='{reverse('web:report_data', kwargs={'report_id': report.pk})}']")
    w.step("page")
    assert "فاطمة الحسن" in w.page.inner_text("main")
    assert w.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    with w.page.expect_download() as download:
        w.page.click("a[href$='your-data.pdf']")
    assert download.value.suggested_filename.endswith(".pdf")
    w.close()


def test_a_reviewer_reads_a_conflict_side_by_side(walk, make_user):
    reviewer = make_user("reviewer")
    case = make_case("C-2001", "227")
    for name in ("خالد يوسف الحمصي", "مازن عبد الله الرفاعي"):
        family = make_user("family", caseworker=make_user("caseworker"))
        report = make_report(family, family.caseworker, name=name, reporter_relation="أخ")
        claims.make_claim(person_for(make_candidate(report, case)), case, "is_them", family, report=report)
    w = walk("conflict-sides", "en")
    w.sign_in(reviewer.login)
    w.go(reverse("web:conflicts"))
    w.step("open")
    assert w.page.locator("section.conflict-side").count() == 2
    assert "Name as reported" in w.page.inner_text("main")
    w.close()
