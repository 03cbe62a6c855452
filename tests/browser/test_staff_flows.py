"""Each staff role does its work through the pages, at desktop width, in English and in Arabic.

Caseworkers, archivists and administrators act as their users would — they make and revoke
invitations, file a report for a family, import a list, edit a case, export evidence, create and
deactivate accounts, verify the audit chain — and each test asserts on what happened (the rows in
the database, the page's message in the page's language), not only that pages load. Every step is
screenshotted under artifacts/screenshots/flow-<role>-<language>/ and checked with axe-core (no
serious or critical violation). Reviewers, archivists and administrators sign in with their
two-factor code, as in production. The reviewer's flow is in test_flows.py.
"""

from __future__ import annotations

import hashlib
import re
import zipfile
from base64 import b32decode
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.utils import translation
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from athar.accounts.models import Invitation, ResetCode, User
from athar.archive.models import Case, IngestRun, PhotoSighting
from athar.audit.models import AuditEvent
from athar.identification.models import Candidate, Ranking
from athar.registry.models import Report
from tests.accounts.otp import enrolled
from tests.browser.conftest import PASSWORD, Shots, axe_violations, needs_axe, page_path
from tests.web.factories import jpeg_bytes, make_case, make_report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), needs_axe]
LANGUAGES = ["en", "ar"]



def _audited(action: str, **where: Any) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(action=action, **where).order_by("seq"))



# ---------------------------------------------------------------- caseworker

def _ranked(report: Any) -> list[Candidate]:
    """The report's own ranking: three cases, the first a likely match in facility 215, two in 227."""
    ranking = Ranking.objects.create(report=report, algorithm="athar-ident", algorithm_version="1.2", cases=40,
                                     likely_match=True, shortlist=3)
    first = make_case("C-1041", "215")
    second, third = make_case("C-2207", "227"), make_case("C-2210", "227")
    Case.objects.filter(pk=second.pk).update(photographed=date(2013, 5, 1), photographed_precision="day", sex="F")
    reasons = [{"feature": "sex", "level": "same", "weight": 1.0, "detail": "sex matches"}]
    return [Candidate.objects.create(ranking=ranking, case=case, rank=n, score=9.0 - n, probability=p,
                                     likely_match=n == 1, reasons=reasons)
            for n, (case, p) in enumerate([(first, 0.81), (second, 0.07), (third, 0.02)], start=1)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_caseworker_invites_files_imports_and_helps_its_families(walk, make_user, photo_watch, tmp_path, language):
    caseworker = make_user("caseworker", login="caseworker@example.org")
    family = make_user("family", login="+963944000111", caseworker=caseworker, display_name="Umm Samer")
    report = make_report(family, caseworker, name="سامر علي الحسن")
    rows = _ranked(report)
    _, _code = Invitation.issue(caseworker, "Abu Khaled")
    older = Invitation.objects.get(label="Abu Khaled")
    w = walk(f"flow-caseworker-{language}", language)
    page = w.page
    watch = photo_watch(page)
    w.sign_in(caseworker.login)
    assert page.url.endswith("/caseworker/")
    w.step("home")

    # an invitation labelled for a family, and another taken back
    page.click(f"main a[href$='{page_path('web:invite')}']")
    w.step("invitations")
    page.fill("#invite-label", "Umm Khaled (Daraya)")
    page.click("main form:has(#invite-label) button[type=submit]")
    w.step("invitation-made")
    made = Invitation.objects.get(caseworker=caseworker, label="Umm Khaled (Daraya)")
    shown = page.locator("#invitation-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z0-9-]{6,}", shown) and made.used_at is None
    assert "Umm Khaled (Daraya)" in page.locator("main [role=status]").inner_text()
    page.click(f"tr[data-invitation='{older.pk}'] button[type=submit]")
    w.step("invitation-revoked")
    older.refresh_from_db()
    assert older.revoked_at is not None
    assert w.t("The invitation was revoked: its code no longer works.") in w.messages()
    assert page.locator(f"tr[data-invitation='{older.pk}'] button").count() == 0  # nothing left to revoke
    made.refresh_from_db()
    assert made.revoked_at is None

    # a report filed on behalf of a family, step by step
    w.go(page_path("web:caseworker_home"))
    page.click(f"main a[href$='{page_path('web:report_new')}']")
    page.select_option("select[name=family]", str(family.pk))
    w.step("file-family")
    page.click("main button[name=next]")
    page.check("input[name=face_processing]")
    w.step("file-consent")
    page.click("main button[name=next]")
    page.fill("input[name=full_name_ar]", "خالد محمود العلي")
    page.fill("input[name=full_name_latin]", "Khaled Mahmoud al-Ali")
    page.check("input[name=sex][value=M]")
    w.step("file-name", axe=False)  # the same step page as the others
    page.click("main button[name=next]")
    page.fill("input[name=birth_year]", "١٩٩٠")
    page.fill("input[name=city]", "داريا")
    w.step("file-birth")
    page.click("main button[name=next]")
    page.fill("input[name=arrest_year]", "2013")
    page.fill("input[name=arresting_agency]", "فرع 215")
    w.step("file-arrest", axe=False)
    page.click("main button[name=next]")
    page.fill("textarea[name=distinguishing_marks]", "وشم على الساعد الأيسر")
    w.step("file-marks", axe=False)
    page.click("main button[name=next]")
    page.fill("input[name=height_cm]", "180")
    w.step("file-details", axe=False)
    page.click("main button[name=next]")
    assert "1990" in page.locator("main .card").inner_text()  # the summary before filing
    w.step("file-check")
    page.click("main button[name=next]")
    w.step("file-photos", axe=False)
    page.click("main button[name=next]")
    w.step("file-filed")
    filed = Report.objects.get(full_name_ar="خالد محمود العلي")
    assert filed.reporter_user == family and filed.caseworker == caseworker
    assert _audited("report.filed", object_id=str(filed.pk))[0].actor == f"user:{caseworker.pk}"
    assert (filed.birth_year, filed.height_cm, filed.sex) == (1990, 180, "M")
    assert filed.consent["face_processing"] is True
    assert w.t("The report was filed. Thank you.") in w.messages()

    # the staff candidate list of a report, filtered
    w.go(page_path("web:caseworker_home"))
    page.click(f"main a[href$='{page_path('web:staff_candidates', report.pk)}']")
    w.step("ranked-cases")
    listed = page.locator("section.candidate-row")
    assert [int(x) for x in listed.evaluate_all("els => els.map(e => e.dataset.candidate)")] == [c.pk for c in rows]
    page.select_option("select[name=facility]", "227")
    page.click("main form[method=get] button[type=submit]")
    w.step("ranked-filtered")
    shown_ids = page.locator("section.candidate-row").evaluate_all("els => els.map(e => Number(e.dataset.candidate))")
    assert shown_ids == [rows[1].pk, rows[2].pk]
    assert "facility=227" in page.url

    # a candidate: the warning first, blurred, the face on a tap
    page.click(f"section[data-candidate='{rows[2].pk}'] a[href$='{page_path('web:candidate', rows[2].pk)}']")
    w.step("candidate-warning")
    assert page.locator("main img").count() == 0 and watch.kinds() == set()
    page.click("main a[href='?ready=1']")
    page.wait_for_load_state("networkidle")
    w.step("candidate-blurred")
    assert watch.kinds() == {"face_blur"}
    page.click("main form:has(input[name=level][value=face]) button[type=submit]")
    page.wait_for_load_state("networkidle")
    w.step("candidate-face")
    assert watch.kinds() == {"face_blur", "face"}
    assert _audited("photo.revealed", object_id=str(rows[2].case_id))

    # a small list imported
    w.go(page_path("web:import"))
    w.step("import")
    listing = tmp_path / "list.csv"
    listing.write_text("report_id,full_name_ar,birth_year\nR-77,نادر سليم,1979\nR-78,,1980\n", encoding="utf-8")
    page.set_input_files("input[name=file]", str(listing))
    page.fill("input[name=source]", "Daraya council")
    page.click("main form[enctype] button[type=submit]")
    w.step("imported")
    result = page.locator("main section[role=status]").inner_text()
    assert w.t("Result") in result
    with translation.override(language):
        assert translation.ngettext("%(counter)s row refused", "%(counter)s rows refused", 1) % {"counter": 1} in result
    imported = Report.objects.get(source="Daraya council")
    assert imported.full_name_ar == "نادر سليم" and imported.caseworker == caseworker

    # a code for a new password, for one of its families
    w.go(page_path("web:caseworker_home"))
    page.click(f"main form[action$='{page_path('web:reset_code', family.pk)}'] button")
    w.step("reset-code")
    code = page.locator("main bdi.code").inner_text().strip()
    issued = ResetCode.objects.get(user=family)
    assert code and issued.issued_by == caseworker and issued.used_at is None
    assert _audited("account.reset_code_issued", object_id=str(family.pk))
    w.close()


# ---------------------------------------------------------------- archivist

def _sighted(case: Case, colour: tuple[int, int, int]) -> str:
    """The case's photo seen in the archive (as ingest records it), its original in the store."""
    from athar.archive.storage import MediaStore

    photo = case.photos.get()
    data = jpeg_bytes(colour)
    photo.sha256 = hashlib.sha256(data).hexdigest()
    photo.save(update_fields=["sha256"])
    target = MediaStore(django_settings.MEDIA_ROOT).original_path(photo.sha256)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    PhotoSighting.objects.create(photo=photo, archive=case.archive, case=case, path=photo.original_path)
    return photo.sha256


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_archivist_reviews_edits_exports_and_verifies(walk, make_user, photo_watch, two_factor, language):
    archivist = make_user("archivist", login="archivist@example.org")
    device = enrolled(archivist)
    case = make_case("C-1041", "215")
    digest = _sighted(case, (10, 20, 30))
    _sighted(make_case("C-1042", "215"), (30, 20, 10))
    run = IngestRun.objects.create(archive=case.archive, source="/srv/archive", status="done",
                                   counts={"files_seen": 3, "photos_added": 2, "duplicates": 1})
    w = walk(f"flow-archivist-{language}", language)
    page = w.page
    watch = photo_watch(page)
    w.sign_in(archivist.login, device)

    # a facility's page, then a case: blurred until the archivist chooses
    w.go(page_path("web:facilities"))
    w.step("facilities")
    page.click(f"main a[href$='{page_path('web:facility', case.facility_id)}']")
    w.step("facility")
    assert page.locator("#facility-overview dd.n-cases").inner_text().strip() == "2"
    assert page.locator("#facility-overview dd.n-photos").inner_text().strip() == "2"
    page.click(f"#facility-cases a[href$='{page_path('web:case', case.pk)}']")
    page.wait_for_load_state("networkidle")
    w.step("case")
    assert watch.kinds() == {"face_blur"}
    before = len(_audited("photo.revealed", object_id=str(case.pk)))
    page.click("#photos form:has(input[name=level][value=face]) button[type=submit]")
    page.wait_for_load_state("networkidle")
    w.step("case-face")
    assert "face" in watch.kinds() and "view" not in watch.kinds()
    revealed = _audited("photo.revealed", object_id=str(case.pk))
    assert len(revealed) == before + 1 and revealed[-1].actor == f"user:{archivist.pk}"
    assert revealed[-1].data["level"] == "face"

    # edit the facts: an inverted age range is refused with a message, a valid one saved (audited)
    page.click(f"main a[href$='{page_path('web:case_edit', case.pk)}']")
    w.step("edit")
    page.fill("input[name=age_min]", "60")
    page.fill("input[name=age_max]", "20")
    page.click("main form button[type=submit]")
    w.step("edit-refused")
    with translation.override(language):
        refusal = translation.gettext("The estimated age “to” (%(high)s) is below “from” (%(low)s): give the "
                                      "lower age first.") % {"low": 60, "high": 20}
    assert refusal in page.locator("main .errorlist").inner_text()
    case.refresh_from_db()
    assert (case.age_min, case.age_max) == (None, None)
    page.fill("input[name=age_min]", "٢٠")  # as Arabic keyboards type it
    page.fill("input[name=age_max]", "30")
    page.click("main form button[type=submit]")
    w.step("edit-saved")
    case.refresh_from_db()
    assert (case.age_min, case.age_max) == (20, 30)
    assert w.t("The case was saved.") in w.messages()
    assert page.locator("main dd.age-range").inner_text().strip() == "20–30"
    edited = _audited("case.edited", object_id=str(case.pk))
    assert edited and edited[-1].data["fields"] == ["age_max", "age_min"]

    # the evidence of the case, as a zip a court expert can check
    with page.expect_download() as download:
        page.click(f"main form[action$='{page_path('web:case_evidence', case.pk)}'] button")
    path = download.value.path()
    assert download.value.suggested_filename == f"athar-evidence-case-{case.pk}.zip"
    assert zipfile.is_zipfile(path)
    with zipfile.ZipFile(path) as zipped:
        root = zipped.namelist()[0].split("/")[0]
        sums = zipped.read(f"{root}/SHA256SUMS").decode()
        assert sums.split()[0] == digest == hashlib.sha256(zipped.read(f"{root}/{sums.split()[1]}")).hexdigest()
    assert _audited("export.evidence", object_type="case", actor=f"user:{archivist.pk}")

    # an ingest run, then the check of the whole store
    w.go(page_path("web:ingest_runs"))
    w.step("ingest-runs")
    page.click(f"main a[href$='{page_path('web:ingest_run', run.pk)}']")
    w.step("ingest-run")
    assert "/srv/archive" in page.locator("main").inner_text()
    page.click(f"main nav a[href$='{page_path('web:verify')}']")
    w.step("verify", axe=False)
    page.click("main form button[type=submit]")
    w.step("verified")
    assert w.t("Everything checked out.") in page.locator("main section[role=status]").inner_text()
    checked = _audited("verify.run", actor=f"user:{archivist.pk}")
    assert checked and checked[-1].data == {"ok": True, "problems": 0}
    w.close()


# ---------------------------------------------------------------- administrator

@pytest.mark.parametrize("language", LANGUAGES)
def test_an_administrator_manages_accounts_and_verifies_the_audit_log(walk, make_user, two_factor, language):
    admin = make_user("admin", login="admin@example.org")
    device = enrolled(admin)
    reviewer = make_user("reviewer", login="reviewer@example.org")
    old_device = enrolled(reviewer)
    caseworker = make_user("caseworker", login="caseworker@example.org")
    w = walk(f"flow-admin-{language}", language)
    page = w.page
    w.sign_in(admin.login, device)
    w.go(page_path("web:admin_users"))
    w.step("accounts")

    # a new archivist: the two-factor key shown once, which the archivist then enrols with
    page.click(f"main a[href$='{page_path('web:admin_user_new')}']")
    page.select_option("select[name=role]", "archivist")
    page.fill("input[name=email]", "New.Archivist@example.org")
    page.fill("input[name=name]", "Rana")
    page.fill("input[name=password]", PASSWORD)
    w.step("new-account")
    page.click("main form button[type=submit]")
    w.step("key-shown")
    made = User.objects.get(login="new.archivist@example.org")
    assert made.role == "archivist" and made.display_name == "Rana" and made.check_password(PASSWORD)
    assert w.t("The account was created.") in w.messages()
    secret = page.locator("#totp-secret").inner_text().strip()
    pending = TOTPDevice.objects.get(user=made)
    assert not pending.confirmed and b32decode(secret) == pending.bin_key
    assert page.locator("main .qr svg").count() == 1
    w.go(page_path("web:admin_user", made.pk))
    assert secret not in page.content()  # once only
    _enrols(w, made, secret)
    assert TOTPDevice.objects.get(user=made).confirmed

    # deactivate an account, then reactivate it
    w.go(page_path("web:admin_user", caseworker.pk))
    w.step("account")
    page.click(f"main form[action$='{page_path('web:admin_user_active', caseworker.pk)}'] button")
    w.step("deactivated")
    caseworker.refresh_from_db()
    assert not caseworker.is_active
    assert w.t("The account is deactivated: it can no longer sign in. Nothing was deleted.") in w.messages()
    assert page.locator("#account-active").inner_text().strip() == w.t("deactivated")
    page.click(f"main form[action$='{page_path('web:admin_user_active', caseworker.pk)}'] button")
    w.step("reactivated", axe=False)
    caseworker.refresh_from_db()
    assert caseworker.is_active and w.t("The account is active again.") in w.messages()

    # reset a reviewer's two-factor: refused without a reason, done with one (a new key, once)
    w.go(page_path("web:admin_user", reviewer.pk))
    reset = f"main form[action$='{page_path('web:admin_user_2fa', reviewer.pk)}']"
    page.click(f"{reset} button[type=submit]")
    w.step("reset-refused", axe=False)
    assert w.t("A reason is required to reset two-step sign-in.") in w.messages()
    assert TOTPDevice.objects.filter(pk=old_device.pk).exists()
    page.fill(f"{reset} textarea[name=reason]", "Phone lost on 3 March; identity checked in person.")
    page.click(f"{reset} button[type=submit]")
    w.step("reset-done")
    assert not TOTPDevice.objects.filter(pk=old_device.pk).exists()
    fresh = TOTPDevice.objects.get(user=reviewer)
    assert not fresh.confirmed and b32decode(page.locator("#totp-secret").inner_text().strip()) == fresh.bin_key
    assert _audited("user.two_factor_reset", object_id=str(reviewer.pk), actor=f"user:{admin.pk}")

    # the audit log filtered by action, and the chain verified from the page
    w.go(page_path("web:audit_log"))
    page.fill("input[name=action]", "user.")
    page.click("main form[method=get] button[type=submit]")
    w.step("audit-filtered")
    actions = page.locator("tr.event td:nth-child(4)").all_inner_texts()
    assert actions and all(a.strip().startswith("user.") for a in actions)
    assert {"user.created", "user.deactivated", "user.reactivated", "user.two_factor_reset"} <= {
        a.strip() for a in actions}
    page.click(f"main form[action$='{page_path('web:audit_verify')}'] button")
    w.step("chain-verified")
    count = AuditEvent.objects.count() - 1  # all but this verification's own event
    with translation.override(language):
        intact = translation.ngettext("The chain is intact: %(counter)s event checked, none altered or missing.",
                                      "The chain is intact: %(counter)s events checked, none altered or missing.",
                                      count) % {"counter": count}
    assert intact in page.locator("#chain-result").inner_text()
    assert _audited("audit.verified", actor=f"user:{admin.pk}")[-1].data["ok"] is True
    w.close()


def _enrols(w: Any, account: Any, secret: str) -> None:
    """The new staff member signs in in their own browser and completes the enrolment with a code
    from the key the administrator was shown; their recovery codes are shown once."""
    other = w.context.browser.new_context(viewport=w.page.viewport_size, locale=w.language, bypass_csp=True)
    page = other.new_page()
    page.goto(w.base + "/accounts/login/")
    page.fill("input[name=identifier]", account.login)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert "/accounts/two-factor/enrol/" in page.url
    device = TOTPDevice.objects.get(user=account)
    totp = TOTP(b32decode(secret), device.step, device.t0, device.digits, device.drift)
    page.fill("input[name=code]", f"{totp.token():06d}")
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("ul.recovery-codes li").count() == 10  # the recovery codes, shown once
    Shots(page, Path(w.shot.folder).name + "-enrolment")("recovery-codes")
    found = axe_violations(page)
    if found:
        w.problems["recovery codes"] = found
    other.close()

