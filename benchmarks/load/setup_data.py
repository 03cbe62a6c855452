"""Data for the load test, made the way people make it: through athar's own domain functions.

In a scratch ATHAR_HOME (benchmarks/load/run.py makes one, with a synthetic archive ingested by
``athar ingest``):

- caseworkers and reviewers are created by an administrator (``accounts.users.create_account``);
- each family registers with a phone number (``accounts.enrolment.register_family``), shows its
  agreement code and is taken on by a caseworker with it (``accounts.caseworkers.take_on``);
- each family files a report (``registry.filing.file_report``) describing one archive case as a
  family would know it (sex, birth year, arrest month, arresting branch, a mark, the number);
- once ranked, a third of the families answer "this is him" on their first candidate
  (``identification.services.make_claim``), so the reviewers' queue has work;
- a caseworker, a family and a reviewer get API tokens (``api.models.ApiToken.issue``).

Rankings are computed by the worker (``athar worker --once``, run by run.py after ``accounts`` and
again after ``claims``), and ``urls`` writes every account's pages — candidate pages exist only then.

Usage: ATHAR_HOME=... python benchmarks/load/setup_data.py accounts USERS OUT.json
       ATHAR_HOME=... python benchmarks/load/setup_data.py claims OUT.json   (then athar worker --once)
       ATHAR_HOME=... python benchmarks/load/setup_data.py urls OUT.json
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
from pathlib import Path
from typing import Any

PASSWORD = "load test password 2026"
FAMILIES_PER_CASEWORKER = 25
REVIEWERS = 3
NAMES = ("محمد", "أحمد", "خالد", "عمر", "يوسف", "حسن", "علي", "إبراهيم", "مصطفى", "سامر")
FAMILY_NAMES = ("الخطيب", "الحلبي", "الشامي", "العلي", "الأحمد", "المصري", "الحسن", "درويش")


def _setup() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")
    django.setup()


def build_accounts(users: int, out: Path) -> None:
    """Accounts, reports and API tokens for ``users`` simulated people (one family account each,
    plus caseworkers and reviewers); writes their logins (the pages come later, from ``urls``)."""
    _setup()
    from athar.accounts.caseworkers import agreement_code, take_on
    from athar.accounts.enrolment import register_family
    from athar.accounts.models import Role, User
    from athar.accounts.users import create_account
    from athar.archive.models import Case
    from athar.registry.filing import file_report

    cases = list(Case.objects.select_related("facility").exclude(detainee_number="").order_by("pk"))
    if not cases:
        raise SystemExit("ingest a synthetic archive first (benchmarks/load/run.py does)")
    admin = User.objects.create_user("load-admin@example.org", PASSWORD, role=Role.ADMIN, email="load-admin@example.org",
                                     is_staff=True, is_superuser=True)
    caseworkers = [create_account(admin, role=Role.CASEWORKER, email=f"caseworker{n}@example.org", password=PASSWORD,
                                  via="load")["user"] for n in range(max(2, -(-users // FAMILIES_PER_CASEWORKER)))]
    reviewers = [create_account(admin, role=Role.REVIEWER, email=f"reviewer{n}@example.org", password=PASSWORD,
                                via="load")["user"] for n in range(REVIEWERS)]
    families = []
    for n in range(users):
        phone = f"+9639{n:08d}"
        family = register_family(phone, PASSWORD)
        if family is None:
            raise SystemExit(f"{phone} is registered already: use a fresh ATHAR_HOME")
        caseworker = caseworkers[n % len(caseworkers)]
        code = agreement_code(family)
        assert code is not None
        take_on(caseworker, family, code)
        file_report(_draft(cases[n % len(cases)], n), family, family, caseworker)
        families.append({"login": phone, "password": PASSWORD})
    accounts = {"family": families,
                "caseworker": [{"login": u.login, "password": PASSWORD} for u in caseworkers],
                "reviewer": [{"login": u.login, "password": PASSWORD} for u in reviewers]}
    out.write_text(json.dumps(accounts), encoding="utf-8")
    print(json.dumps({"families": len(families), "caseworkers": len(caseworkers), "reviewers": len(reviewers),
                      "cases": len(cases)}))


def _draft(case: Any, n: int) -> dict[str, Any]:
    """What a family knows of the person the case shows (not always all of it)."""
    photographed = case.photographed or dt.date(2012, 6, 1)
    age = ((case.age_min or 25) + (case.age_max or 35)) // 2
    arrest = photographed - dt.timedelta(days=180)
    return {
        "full_name_ar": f"{NAMES[n % len(NAMES)]} {NAMES[(n // 3) % len(NAMES)]} {FAMILY_NAMES[n % len(FAMILY_NAMES)]}",
        "sex": case.sex or "M", "birth_year": photographed.year - age, "birth_year_approximate": True,
        "arrest_date": arrest.replace(day=1).isoformat(), "arrest_date_precision": "month",
        "arresting_agency": (case.facility.name_ar or case.facility.name_en) if n % 2 == 0 else "",
        "distinguishing_marks": case.marks if n % 3 else "",
        "detainee_number": case.detainee_number if n % 4 != 3 else "",  # 1 in 4 has no likely match
        "reporter_relation": "mother", "face_processing": True, "publication": False,
    }


def make_claims(out: Path) -> None:
    """After the worker ranked the reports: every third family with a likely match answers "this is
    him" on its first candidate (the reviewers' queue); the worker then ranks those reports again
    (a claimed case is ranked differently), so run.py runs it once more before ``urls``."""
    _setup()
    from athar.accounts.models import User
    from athar.identification import policy, services
    from athar.identification.models import Identification

    accounts = json.loads(out.read_text(encoding="utf-8"))
    claimed = 0
    for account in accounts["family"][::3]:
        user = User.objects.get(login=account["login"])
        first = policy.candidates_visible_to(user).first()
        if first is not None and not Identification.objects.filter(case=first.case).exists():
            services.make_claim(first, user, "yes", relation="mother")
            claimed += 1
    print(json.dumps({"claims": claimed}))


def build_urls(out: Path) -> None:
    """Each account's pages, once the worker is done. Fails when most families have no candidate
    or no identification waits for review: the figures would be of empty pages."""
    _setup()
    from django.urls import reverse
    from django.utils import translation

    from athar.accounts.models import User
    from athar.identification import policy
    from athar.identification.models import Identification

    accounts = json.loads(out.read_text(encoding="utf-8"))
    without: list[str] = []
    with translation.override("en"):  # URLs from the URL configuration, never hard-coded
        for account in accounts["family"]:
            user = User.objects.get(login=account["login"])
            report = policy.reports_visible_to(user).get()
            candidates = list(policy.candidates_visible_to(user)[:3])
            account.update(home=reverse("web:family_home"), report=reverse("web:report", args=[report.pk]),
                           candidates=reverse("web:candidates", args=[report.pk]),
                           candidate=[reverse("web:candidate", args=[c.pk]) for c in candidates])
            if not candidates:
                without.append(account["login"])
        for account in accounts["caseworker"]:
            user = User.objects.get(login=account["login"])
            reports = list(policy.reports_visible_to(user).order_by("pk")[:20])
            account.update(home=reverse("web:caseworker_home"),
                           reports=[reverse("web:report", args=[r.pk]) for r in reports],
                           ranked=[reverse("web:staff_candidates", args=[r.pk]) for r in reports[:5]])
        idents = list(Identification.objects.filter(status="under_review").values_list("pk", flat=True)[:20])
        for account in accounts["reviewer"]:
            account.update(queue=reverse("web:review_queue"),
                           compare=[reverse("web:compare", args=[pk]) for pk in idents])
        accounts["sign_in"] = reverse("accounts:login")
    accounts["api"] = _api(accounts)
    if len(without) > len(accounts["family"]) // 2 or not idents:
        raise SystemExit(f"{len(without)} of {len(accounts['family'])} families have no candidate and "
                         f"{len(idents)} identifications wait for review: the load test would measure empty pages")
    out.write_text(json.dumps(accounts), encoding="utf-8")
    print(json.dumps({"families": len(accounts["family"]), "families_without_likely_match": len(without),
                      "identifications_under_review": len(idents)}))


def _api(accounts: dict[str, Any]) -> list[dict[str, Any]]:
    """One token per kind of caller, and the list endpoints it reads."""
    from athar.accounts.models import User
    from athar.api.models import ApiToken
    from athar.core.signed_ids import sign_id
    from athar.identification import policy

    callers = []
    for role in ("family", "caseworker", "reviewer"):
        user = User.objects.get(login=accounts[role][0]["login"])
        _, token = ApiToken.issue(user, "load test")
        reports = list(policy.reports_visible_to(user).order_by("pk").values_list("pk", flat=True)[:5])
        callers.append({"role": role, "token": token,
                        "paths": ["/api/reports?limit=50", "/api/claims?limit=50",
                                  *[f"/api/reports/{sign_id('report', pk)}/candidates" for pk in reports]]})
    return callers


if __name__ == "__main__":
    if sys.argv[1] == "accounts":
        build_accounts(int(sys.argv[2]), Path(sys.argv[3]))
    elif sys.argv[1] == "claims":
        make_claims(Path(sys.argv[2]))
    else:
        build_urls(Path(sys.argv[2]))
