"""Data for the load test: a synthetic archive and N family accounts, each with a report and
likely-match candidates. Run inside a scratch ATHAR_HOME (benchmarks/load/run.py does it).

Usage: ATHAR_HOME=... python benchmarks/load/setup_data.py USERS OUT.json
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

PASSWORD = "load test password 2026"


def build(users: int, out: Path) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")
    django.setup()
    from django.core.management import call_command
    from django.urls import reverse
    from django.utils import translation

    from athar.accounts.models import Role, User
    from athar.archive.models import Case
    from athar.identification.models import Candidate, Ranking
    from athar.registry.models import Report

    call_command("migrate", verbosity=0)
    cases = list(Case.objects.order_by("pk"))
    if not cases:
        raise SystemExit("ingest a synthetic archive first")
    accounts = []
    for n in range(users):
        user = User.objects.create_user(f"load{n}@example.org", PASSWORD, role=Role.FAMILY,
                                        email=f"load{n}@example.org")
        report = Report.objects.create(source="load", report_id=f"L{n}", lineage=f"load-{n}", content_hash="-",
                                       reporter_user=user, full_name_ar=f"مفقود {n}", sex="M", birth_year=1980)
        ranking = Ranking.objects.create(report=report, algorithm="load", algorithm_version="1",
                                         likely_match=True, cases=len(cases), shortlist=3)
        candidates = [Candidate.objects.create(ranking=ranking, case=cases[(n + k) % len(cases)], rank=k + 1,
                                               score=3.0 - k, probability=0.6 - 0.1 * k, likely_match=True,
                                               reasons=[]) for k in range(3)]
        with translation.override("en"):  # URLs from the URL configuration, never hard-coded
            accounts.append({
                "login": user.login, "password": PASSWORD, "sign_in": reverse("accounts:login"),
                "candidates": reverse("web:candidates", kwargs={"report_id": report.pk}),
                "candidate": [reverse("web:candidate", kwargs={"candidate_id": c.pk}) for c in candidates],
                "stats": reverse("web:stats")})
    out.write_text(json.dumps(accounts), encoding="utf-8")


if __name__ == "__main__":
    build(int(sys.argv[1]), Path(sys.argv[2]))
