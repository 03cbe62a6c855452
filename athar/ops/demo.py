"""Demo step: the whole journey, already under way, made through the real domain functions (so the
audit chain holds every event): a family that registered itself and was taken on files its own
report; a caseworker files one on paper for an invited family (consent recorded on paper); an
organisation's list is imported; the linkage puts the list's row and the family's report under one
person; a claim waits for two reviewers; two families claim one case (a conflict to resolve).

Everything here is fictional. Running the demo again finds the journey made and only reports it.
"""

from __future__ import annotations

import csv
import secrets
import sys
from pathlib import Path
from typing import Any

from athar.accounts.caseworkers import agreement_code, take_on
from athar.accounts.enrolment import redeem_invitation, register_family
from athar.accounts.models import Invitation, Role, User
from athar.archive.models import Case
from athar.audit.chain import actor_for_user
from athar.audit.models import AuditEvent
from athar.core.demo import DemoContext, demo_step
from athar.identification.claims import make_claim
from athar.identification.models import Claim, Conflict, Identification, Verdict
from athar.identification.ranking import rank_with_reports, subject_for_person
from athar.registry.consent import record_consent
from athar.registry.filing import file_report
from athar.registry.importing import import_reports
from athar.registry.linkage import link_all
from athar.registry.lookup import ensure_person, person_of
from athar.registry.models import ConsentRecord, Report

SOURCE = "demo-list"  # the imported list's source name
SELF_PHONE = "+963944000101"  # the self-registered family's phone (fictional)
SECOND_PHONE = "+963944000102"  # a second invited family's phone (fictional)
FACES_HELP = ("athar demo --faces DIR, where DIR holds one folder per person with two or more face photos "
              "(DIR/<person>/<photo>.jpg, for example the public LFW set): the first photo of each person "
              "plays the family's photo, the others become the archive's case")


def faces_statement(faces_dir: Path | None) -> dict[str, Any]:
    """Whether the demo archive carries faces, and how to add them, said the same way everywhere."""
    if faces_dir is not None:
        return {"present": True, "folder": str(faces_dir),
                "text": f"Faces: yes — the archive's cases are made of the face photos in {faces_dir}."}
    return {"present": False, "folder": "", "how": FACES_HELP,
            "text": "Faces: none — the demo archive's pictures are generated and show no face, so every case "
                    f"says 'no usable face' and ranks on facts alone. To see faces compared, run {FACES_HELP}."}


@demo_step(1, "faces")
def say_faces(context: DemoContext) -> None:
    """Said first (standard error), before the long steps, and again in the summary."""
    statement = faces_statement(context.faces_dir)
    context.made["faces"] = statement
    print(statement["text"], file=sys.stderr)
    context.lines.append(statement["text"])


def _cases() -> tuple[Case, Case]:
    """Two cases of different branches, with their facts (the reports below agree with them)."""
    cases = list(Case.objects.select_related("facility").order_by("facility__code", "label"))
    first = cases[0]
    second = next((c for c in cases if c.facility_id != first.facility_id), cases[-1])
    return first, second


def _facts_for(case: Case) -> dict[str, Any]:
    """A family's facts that agree with the case: branch, number, sex, an arrest before the photograph."""
    facts: dict[str, Any] = {"arresting_agency": case.facility.code, "detainee_number": case.detainee_number,
                             "sex": case.sex if case.sex in ("M", "F") else "M"}
    year = case.photographed.year if case.photographed else 2013  # a case made from faces has no dates
    facts["arrest_date"], facts["arrest_date_precision"] = f"{year - 1}-03-01", "month"
    age = (case.age_min + (case.age_max or case.age_min)) // 2 if case.age_min is not None else 28
    facts["birth_year"], facts["birth_year_approximate"] = year - age, True
    return facts


def _family_account(context: DemoContext, login: str, user: User, password: str, how: str) -> None:
    context.made["accounts"].append({"role": Role.FAMILY.value, "login": login, "password": password, "how": how})
    context.made["users"].setdefault(f"family:{how}", user.pk)


def _self_registered(context: DemoContext, caseworker: User) -> User:
    """A family that registered itself with its phone, read its code to the caseworker, was taken on."""
    password = secrets.token_urlsafe(12)
    family = register_family(SELF_PHONE, password)
    assert family is not None  # a fresh demo: the number is free
    code = agreement_code(family)
    assert code is not None
    take_on(caseworker, family, code)
    _family_account(context, SELF_PHONE, family, password, "self-registered")
    return family


def _invited(context: DemoContext, caseworker: User) -> User:
    """A second family, through an invitation code its caseworker gave it."""
    _, code = Invitation.issue(caseworker)
    password = secrets.token_urlsafe(12)
    family = redeem_invitation(code, password, phone=SECOND_PHONE)
    _family_account(context, family.login, family, password, "invited")
    return family


def _import_list(home: Path, caseworker: User, twin_of: dict[str, Any]) -> dict[str, Any]:
    """An organisation's list (generated CSV), imported as a caseworker does; its first row describes
    the self-registered family's son in other spellings (the linkage joins them)."""
    path = home / "demo" / "organisation-list.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    header = ["report_id", "full_name_ar", "full_name_latin", "mother_name", "sex", "birth_year", "governorate",
              "city", "arrest_date", "arresting_agency", "reporter_relation", "publication_consent"]
    rows = [
        ["L-001", "احمد محمود السالم", "Ahmad Mahmoud al-Salem", "فاطمه الحسن", "ذكر",
         str(twin_of["birth_year"]), "ريف دمشق", "دوما", str(twin_of["arrest_date"])[:7],
         f"فرع {twin_of['arresting_agency']}", "أخ", "نعم"],
        ["L-002", "يوسف عمر الخطيب", "Yousef Omar al-Khatib", "مريم العلي", "ذكر", "1979", "حمص", "تلبيسة",
         "2013-06", "فرع 227", "زوجة", "لا"],
        ["L-003", "سامر علي الأحمد", "Samer Ali al-Ahmad", "هدى يوسف", "ذكر", "1990", "درعا", "نوى", "2012-11",
         "المخابرات الجوية", "أم", "نعم"],
        ["L-004", "رامي خالد النجار", "Rami Khaled al-Najjar", "سعاد محمد", "ذكر", "1987", "حلب", "",
         "2014", "فرع 235", "أب", ""],
    ]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return import_reports(path, source=SOURCE, actor=actor_for_user(caseworker))


def _rank(report: Report) -> None:
    """The ranking the worker would compute, now, so staff pages show evidence from the start."""
    person = person_of(report) or ensure_person(report)
    rank_with_reports(subject_for_person(person))


def _journey(context: DemoContext) -> None:
    users = context.made["users"]
    caseworker = User.objects.get(pk=users["caseworker"])
    invited = User.objects.get(pk=users["family"])
    case_a, case_b = _cases()

    # 1. A family that found athar itself: registered, taken on, filed its own report with its consent.
    own = _self_registered(context, caseworker)
    facts_a = _facts_for(case_a)
    report_own = file_report({"full_name_ar": "أحمد محمود السالم", "full_name_latin": "Ahmad Mahmoud al-Salem",
                              "mother_name": "فاطمة الحسن", "reporter_relation": "أم", "city": "دوما",
                              "face_processing": True, "publication": True, **facts_a},
                             own, own, caseworker)
    photo = context.made.get("family_photos", {})
    if photo:  # with --faces: the photo of the person alive, as a family would give it
        from athar.registry.photos import store_photo

        first = Path(sorted(photo.values())[0])
        store_photo(report_own, first, first.read_bytes())

    # 2. A caseworker files on paper for an invited family; the family's consent recorded as given on paper.
    facts_b = _facts_for(case_b)
    report_paper = file_report({"full_name_ar": "خالد يوسف الحمصي", "full_name_latin": "Khaled Youssef al-Homsi",
                                "father_name": "يوسف", "reporter_relation": "أخ", "city": "حمص",
                                "distinguishing_marks": case_b.marks, "face_processing": True, **facts_b},
                               caseworker, invited, caseworker)
    record_consent(report_paper, caseworker, publication=True, method=ConsentRecord.Method.PAPER)

    # 3. A second invited family reports another man with the same branch and number as case B.
    second = _invited(context, caseworker)
    report_second = file_report({"full_name_ar": "مازن عبد الله الرفاعي", "reporter_relation": "زوجة",
                                 "face_processing": True, **facts_b}, second, second, caseworker)

    # 4. The organisation's list, and the linkage over every report.
    context.made["import"] = {k: v for k, v in _import_list(context.home, caseworker, facts_a).items()
                              if k in ("imported", "rows", "batch")}
    context.made["linkage"] = {k: v for k, v in link_all(actor=actor_for_user(caseworker)).items()
                               if k in ("run", "persons", "reports", "links")}
    for report in (report_own, report_paper, report_second):
        _rank(report)

    # 5. Claims: the self-registered family's waits for two reviewers; two families claim case B.
    make_claim(person_of(report_own) or ensure_person(report_own), case_a, Verdict.IS_THEM, own,
               relation="أم", report=report_own)
    make_claim(person_of(report_paper) or ensure_person(report_paper), case_b, Verdict.IS_THEM, caseworker,
               relation="أخ", on_behalf_of="family", report=report_paper)
    make_claim(person_of(report_second) or ensure_person(report_second), case_b, Verdict.IS_THEM, second,
               relation="زوجة", report=report_second)


def counts() -> dict[str, int]:
    """What the demo holds now (the tests count these; the summary prints them)."""
    return {
        "reports": Report.objects.current().filter(erased_at__isnull=True).count(),
        "reports_by_families": Report.objects.current().filter(reporter_user__isnull=False).exclude(
            source=SOURCE).count(),
        "reports_imported": Report.objects.current().filter(source=SOURCE).count(),
        "claims": Claim.objects.count(),
        "identifications_waiting": Identification.objects.filter(status="under_review").count(),
        "conflicts_open": Conflict.objects.filter(resolved_at__isnull=True).count(),
        "reviewers": User.objects.filter(role=Role.REVIEWER, is_active=True).count(),
        "audit_events": AuditEvent.objects.count(),
    }


def waiting_for(made: dict[str, Any], numbers: dict[str, int]) -> dict[str, str]:
    """For each demo account, what waits for it (the summary's "who does what next")."""
    out: dict[str, str] = {}
    for account in made.get("accounts", []):
        role, how = account["role"], account.get("how", "")
        out[account["login"]] = {
            "family": {"self-registered": "registered itself, taken on by the caseworker; its report is filed "
                                          "and its claim waits for two reviewers (/family/)",
                       "invited": "its report is filed; its claim is in a conflict with another family's "
                                  "(/family/)"}.get(how, "a report filed for it on paper by its caseworker; its "
                                                         "claim is in a conflict (/family/)"),
            "caseworker": f"{numbers['reports']} reports of its families and the imported list; notices; "
                          "families to tell after a decision (/caseworker/)",
            "reviewer": f"{numbers['identifications_waiting']} identification(s) waiting for two approvals "
                        f"(/review/), {numbers['conflicts_open']} conflict(s) to resolve (/review/conflicts/)",
            "archivist": "the demo archive, its ingest run with the faulty files it refused (/archive/)",
            "admin": f"accounts and the audit log: {numbers['audit_events']} events (/admin/)",
        }.get(role, "")
    return out


@demo_step(30, "journey")
def build_journey(context: DemoContext) -> None:
    if "caseworker" not in context.made.get("users", {}):
        return
    if not Report.objects.filter(source=SOURCE).exists():  # a second run finds the journey made
        _journey(context)
    else:  # again: fresh passwords, as the accounts step gives its own accounts
        for login, how in ((SELF_PHONE, "self-registered"), (SECOND_PHONE, "invited")):
            user = User.objects.filter(login=login).first()
            if user is not None:
                password = secrets.token_urlsafe(12)
                user.set_password(password)
                user.save(update_fields=["password"])
                _family_account(context, login, user, password, how)
    numbers = counts()
    context.made["journey"] = numbers
    context.made["waiting"] = waiting_for(context.made, numbers)
    context.lines.append(
        f"Filed: {numbers['reports_by_families']} reports by or for families, {numbers['reports_imported']} from "
        f"an imported list; {numbers['claims']} claims; {numbers['identifications_waiting']} identification(s) "
        f"waiting for review; {numbers['conflicts_open']} conflict(s) to resolve; {numbers['reviewers']} reviewers.")
    context.lines.append("Sign in at /accounts/login/ (demo accounts; two-factor sign-in is skipped in development). "
                         "The accounts, by role, and what waits for each:")
    for role in ROLE_ORDER:
        for account in (a for a in context.made["accounts"] if a["role"] == role):
            context.lines.append(f"  {role:<11} {account['login']}  password: {account['password']}")
            context.lines.append(f"      → {context.made['waiting'].get(account['login'], '')}")


ROLE_ORDER = ("family", "caseworker", "reviewer", "archivist", "admin")
