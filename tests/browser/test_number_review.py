"""Archivists decide on the numbers read in the photos, through the pages (issue 29): one confirms a
suggestion, corrects another (typed in Arabic digits, with a reason), confirms a number that changes
a case, and bulk-confirms the easy ones; a second archivist settles the one that needs two. The
photo is shown only as the number's crop, served through the audited media path. Screenshots under
artifacts/screenshots/flow-numbers-<language>/, axe-core checked, in Arabic and in English."""

from __future__ import annotations

import pytest

from athar.archive.models import Case, NumberReading
from athar.audit.models import AuditEvent
from tests.accounts.otp import enrolled
from tests.archive.numbers_world import case_in, reading_on_new_photo
from tests.browser.conftest import needs_axe, page_path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), needs_axe]




@pytest.mark.parametrize("language", ["ar", "en"])
def test_archivists_confirm_correct_bulk_confirm_and_settle_one_that_needs_two(walk, make_user, two_factor,
                                                                              language):
    first = make_user("archivist", login="archivist1@example.org")
    second = make_user("archivist", login="archivist2@example.org")
    one, easy_case, new_case = case_in(label="1", detainee="2065"), case_in(label="2", detainee="3100"), case_in(label="3")
    confirm = reading_on_new_photo(one, "2065", seed=1, confidence=0.90, kind="detainee")
    correct = reading_on_new_photo(one, "2066", seed=2, confidence=0.85, kind="detainee")
    easy = [reading_on_new_photo(easy_case, "3100", seed=s, confidence=0.98, kind="detainee") for s in (3, 4)]
    needs_two = reading_on_new_photo(new_case, "4100", seed=5, confidence=0.92, kind="detainee")

    w = walk(f"flow-numbers-{language}", language)
    page = w.page
    w.sign_in(first.login, enrolled(first))
    w.go(page_path("web:numbers"))
    page.wait_for_load_state("networkidle")
    w.step("queue")
    crops = page.locator("#suggestions img")
    assert crops.count() == 5
    assert all("/media/n/" in (crops.nth(i).get_attribute("src") or "") for i in range(5))
    assert page.evaluate("Array.from(document.querySelectorAll('#suggestions img')).every(i => i.naturalWidth > 0)")

    page.click(f"#reading-{confirm.pk} form.confirm button[type=submit]")
    w.step("confirmed")
    assert w.t("Recorded: the number %(number)s counts.") % {"number": "2065"} in w.messages()

    page.click(f"#reading-{correct.pk} details.correct summary")
    page.fill(f"#number-{correct.pk}", "٢٠٦٥")
    page.fill(f"#reason-{correct.pk}", "the last digit is a 5 on the card")
    w.step("correcting")
    page.click(f"#reading-{correct.pk} details.correct button[type=submit]")
    w.step("corrected")

    page.click(f"#reading-{needs_two.pk} form.confirm button[type=submit]")
    w.step("needs-a-second")
    assert w.t("Recorded. The number %(number)s counts once a second archivist agrees.") % {"number": "4100"} \
        in w.messages()

    page.click(f"main a[href$='{page_path('web:numbers_bulk')}']")
    w.step("bulk")
    assert page.locator("#bulk input[type=checkbox]:checked").count() == 2
    page.click("#bulk button[type=submit]")
    w.step("bulk-done")
    assert page.locator("#bulk").count() == 0  # nothing easy is left

    rows = {r.pk: r for r in NumberReading.objects.all()}
    assert rows[confirm.pk].status == "confirmed" and rows[confirm.pk].settled
    assert rows[correct.pk].status == "corrected" and rows[correct.pk].corrected_text == "2065"
    assert rows[correct.pk].reason == "the last digit is a 5 on the card"
    assert all(rows[r.pk].status == "confirmed" and rows[r.pk].decided_by_id == first.pk for r in easy)
    assert rows[needs_two.pk].needs_second and not rows[needs_two.pk].settled
    w.go(page_path("web:numbers") + "?status=second")
    assert page.locator(f"#reading-{needs_two.pk}").count() == 0  # never offered to the first archivist
    w.close()

    w2 = walk(f"flow-numbers-second-{language}", language)
    w2.sign_in(second.login, enrolled(second))
    w2.go(page_path("web:numbers") + "?status=second")
    w2.page.wait_for_load_state("networkidle")
    w2.step("second-queue")
    w2.page.click(f"#reading-{needs_two.pk} form.agree button[type=submit]")
    w2.step("agreed")
    assert w2.t("Agreed: the number %(number)s now counts.") % {"number": "4100"} in w2.messages()
    w2.close()
    needs_two.refresh_from_db()
    assert needs_two.settled and needs_two.second_by_id == second.pk
    assert Case.objects.get(pk=new_case.pk).detainee_number == "4100"
    viewed = AuditEvent.objects.filter(action="photo.viewed", data__level="number")
    assert viewed.filter(actor=f"user:{first.pk}").exists() and viewed.filter(actor=f"user:{second.pk}").exists()
