"""Journeys that used to stop (issue 30), walked in a real browser with screenshots and axe-core.

* A family that registers itself, at 360 px in Arabic: a short password answers in Arabic; recovery
  codes shown once, in both digit scripts; the support page shows the organisation's contact; the
  code for a caseworker is eight digits in both scripts; the report wizard's "Back" keeps what was
  typed and starting over asks first; a forgotten password is chosen again with a recovery code,
  without a caseworker, and that code works once.
* The same family's caseworker, at desktop width in English, takes the family on with the code read
  to it on the phone (typed in Arabic-Indic digits, as a family may read it).

Screenshots go to artifacts/screenshots/journey-*/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import PHONE, needs_axe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), needs_axe]

CONTACT = "جمعية أثر — هاتف ‎+963 11 222 3344‎، من الأحد إلى الخميس"
PHONE_NUMBER = "+963 944 555 123"
FIRST_PASSWORD = "jasmine-of-homs-2012"
NEW_PASSWORD = "olive-tree-of-daraa-88"
ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def _submit(walk: Any) -> None:
    walk.page.click("main form button[type=submit]")
    walk.page.wait_for_load_state()


def _register(walk: Any) -> list[str]:
    """Short password first (the error a family meets first, in Arabic), then a good one: the codes."""
    walk.go("/accounts/register/")
    walk.page.fill("input[name=phone]", PHONE_NUMBER)
    walk.page.fill("input[name=password]", "short1")
    _submit(walk)
    text = walk.page.inner_text("main")
    assert "too short" not in text and "characters" not in text, text
    assert "قصيرة" in text, text  # "كلمة المرور قصيرة جدًا …" in Arabic, with the plural of the number
    walk.step("register-short-password")
    walk.page.fill("input[name=phone]", PHONE_NUMBER)
    walk.page.fill("input[name=password]", FIRST_PASSWORD)
    _submit(walk)
    walk.step("recovery-codes")
    codes = [c.strip() for c in walk.page.locator(".recovery-codes .spoken-code").all_inner_texts()]
    assert len(codes) >= 5 and all(re.fullmatch(r"[\d -]+", c) for c in codes), codes
    shown_in_arabic = walk.page.locator(".recovery-codes .arabic-digits").first.inner_text()
    assert codes[0].translate(ARABIC_INDIC) in shown_in_arabic, (codes[0], shown_in_arabic)
    assert walk.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    return codes


def _sign_in(walk: Any, password: str) -> None:
    walk.go("/accounts/login/")
    walk.page.fill("input[name=identifier]", PHONE_NUMBER)
    walk.page.fill("input[name=password]", password)
    _submit(walk)
    assert "/accounts/login/" not in walk.page.url, walk.page.inner_text("main")


def _wizard_keeps_what_was_typed(walk: Any) -> None:
    walk.go("/reports/new/")
    walk.page.check("input[name=face_processing]")
    walk.page.click("button[name=next]")
    walk.page.wait_for_load_state()
    walk.page.fill("input[name=full_name_ar]", "سامر خالد العلي")
    walk.page.fill("input[name=father_name]", "خالد")
    walk.page.check("input[name=sex][value=M]")
    walk.page.click("button[name=next]")
    walk.page.wait_for_load_state()
    walk.page.fill("input[name=city]", "حمص")
    walk.page.fill("input[name=birth_year]", "1887")  # not a possible year: the step is not complete
    walk.page.click("button[name=back]")  # Back: the name step, still filled; the city kept too
    walk.page.wait_for_load_state()
    assert walk.page.input_value("input[name=full_name_ar]") == "سامر خالد العلي"
    assert walk.page.input_value("input[name=father_name]") == "خالد"
    walk.step("wizard-back-keeps-the-name")
    walk.page.click("button[name=next]")
    walk.page.wait_for_load_state()
    assert walk.page.input_value("input[name=city]") == "حمص"
    assert walk.page.input_value("input[name=birth_year]") == "1887"  # kept as typed, to be corrected
    walk.page.fill("input[name=birth_year]", "1987")
    walk.page.click("button[name=next]")
    walk.page.wait_for_load_state()
    walk.page.click("button[name=fresh]")  # "Start a new report from the beginning": asked first
    walk.page.wait_for_load_state()
    walk.step("start-over-asks-first")
    walk.page.click("main .actions a.button")  # keep my report
    walk.page.wait_for_load_state()
    walk.page.click("button[name=back]")
    walk.page.wait_for_load_state()
    assert walk.page.input_value("input[name=city]") == "حمص"


def _caseworker_code(walk: Any) -> str:
    walk.go("/accounts/caseworker-code/")
    _submit(walk)
    code = walk.page.inner_text("#agreement-code").strip()
    assert re.fullmatch(r"\d{4}[ -]?\d{4}", code), code
    assert code.translate(ARABIC_INDIC) in walk.page.inner_text("main")
    walk.step("code-for-a-caseworker")
    return code


def _recover(walk: Any, code: str) -> None:
    walk.go("/accounts/recover/")
    walk.page.fill("input[name=phone]", PHONE_NUMBER)
    walk.page.fill("input[name=code]", code.translate(ARABIC_INDIC))  # as written down, either digits
    walk.page.fill("input[name=password]", NEW_PASSWORD)
    _submit(walk)
    walk.step("recovered")


def test_a_self_registered_family_finds_a_way_in_and_a_way_back(walk, settings, make_user):
    settings.ATHAR_ORGANISATION_CONTACT = CONTACT
    family = walk("journey-family-self-registered", "ar", PHONE)
    codes = _register(family)
    _sign_in(family, FIRST_PASSWORD)
    family.go("/family/")
    family.step("family-home-waiting")
    family.go("/support/")
    assert "+963 11 222 3344" in family.page.inner_text("main")
    family.step("support-contact")
    _wizard_keeps_what_was_typed(family)
    code = _caseworker_code(family)

    family.context.clear_cookies()  # signed out; the password is forgotten
    _recover(family, codes[0])
    _sign_in(family, NEW_PASSWORD)
    family.context.clear_cookies()
    _recover(family, codes[0])  # a code works once
    assert "/accounts/recover/" in family.page.url
    family.close()

    caseworker = make_user("caseworker")
    staff = walk("journey-caseworker-takes-on", "en")
    staff.sign_in(caseworker.login)
    staff.go("/caseworker/")
    assert "123" in staff.page.inner_text("main")  # "Phone ending …123"
    staff.step("waiting-family")
    account = get_user_model().objects.get(role="family")
    staff.page.fill(f"#code-{account.pk}", code.translate(ARABIC_INDIC))  # read aloud, typed as heard
    staff.page.click(f"#code-{account.pk} ~ button")
    staff.page.wait_for_load_state()
    account.refresh_from_db()
    assert account.caseworker_id == caseworker.pk
    staff.go("/caseworker/")
    staff.step("family-taken-on")
    staff.close()
