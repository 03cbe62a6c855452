"""A sweep over every page and photo URL: a signed-out visitor and an outsider get nothing.

The web engineer's tests/web/test_access.py is the detailed role × object × action matrix; this
sweep walks the URL configuration itself, so a new page that forgets its permission check fails
here even before it has tests of its own.
"""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from athar.audit.models import AuditEvent
from tests.security.helpers import stored_case

pytestmark = pytest.mark.django_db

PUBLIC = {"web:home", "web:about", "web:method", "web:support", "web:identified", "web:stats", "web:privacy",
          "accounts:login", "accounts:logout", "accounts:quick_exit", "accounts:redeem", "accounts:register", "accounts:reset_password", "accounts:recover", "set_language",
          "web:dashboard"}
STAFF_AREAS = ("web:review", "web:conflicts", "web:compare", "web:decide", "web:archive", "web:facilities",
               "web:case", "web:ingest", "web:verify", "web:caseworker", "web:invite", "web:import")
OWN_AREAS = {"caseworker": ("web:caseworker", "web:invite", "web:import"), "family": ()}
DENIED = (302, 400, 403, 404, 405)


def _web_patterns() -> list[tuple[str, list[str]]]:
    """(name, keyword names) of every named page in the web and accounts namespaces."""
    out: list[tuple[str, list[str]]] = []

    def walk(patterns, namespace):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern) and p.name and namespace in ("web", "accounts"):
                out.append((f"{namespace}:{p.name}", list(p.pattern.converters)))

    walk(get_resolver().url_patterns, "")
    return out


@pytest.fixture
def world(tmp_path, make_user):
    """Family A's report with a likely-match candidate (a case with photos); B is an outsider."""
    from athar.identification.models import Candidate, Ranking
    from athar.registry.models import Report, ReportPhoto

    stored = stored_case(tmp_path)
    family_a = make_user("family", caseworker=make_user("caseworker"))  # taken on by a caseworker
    report = Report.objects.create(source="t", report_id="A1", lineage="lineage-a1", content_hash="-",
                                   reporter_user=family_a, full_name_ar="اسم", sex="M")
    ranking = Ranking.objects.create(report=report, algorithm="t", algorithm_version="1", likely_match=True)
    candidate = Candidate.objects.create(ranking=ranking, case=stored.case, rank=1, score=1, probability=0.5,
                                         likely_match=True, reasons=[])
    photo = ReportPhoto.objects.create(report=report, **_report_photo_fields()) if _report_photo_fields() else None
    ids = {"report_id": report.pk, "candidate_id": candidate.pk, "case_id": stored.case.pk,
           "archive_id": stored.case.archive_id, "derivative_id": stored.derivatives["view"].pk,
           "photo_id": photo.pk if photo else 1, "claim_id": 1, "run_id": 1, "identification_id": 1, "step": "person", "kind": "view"}
    return {"ids": ids, "a": family_a, "stored": stored}


def _report_photo_fields() -> dict:
    from athar.registry.models import ReportPhoto

    names = {f.name for f in ReportPhoto._meta.get_fields()}
    fields = {"sha256": "0" * 64} if "sha256" in names else {}
    return fields if "sha256" in names else {}


def _url(name: str, kwargs: list[str], ids: dict) -> str:
    return reverse(name, kwargs={k: ids.get(k, 1) for k in kwargs})


def test_the_sweep_sees_the_pages():
    names = {n for n, _ in _web_patterns()}
    assert {"web:candidates", "web:candidate", "web:photo_reveal"} <= names


def test_a_signed_out_visitor_gets_only_public_pages(client, world):
    for name, kwargs in _web_patterns():
        if name in PUBLIC:
            continue
        for method in ("get", "post"):
            response = getattr(client, method)(_url(name, kwargs, world["ids"]))
            assert response.status_code in DENIED, (method, name, response.status_code)
            if response.status_code == 302:
                assert "sign-in" in response["Location"] or "login" in response["Location"], (name, response["Location"])


@pytest.mark.parametrize("role", ["family", "caseworker"])
def test_an_outsider_cannot_reach_another_familys_objects(client, make_user, world, role):
    outsider = make_user(role)
    client.force_login(outsider)
    before = AuditEvent.objects.filter(actor=f"user:{outsider.pk}", action="photo.viewed").count()
    for name, kwargs in _web_patterns():
        if not kwargs and (not name.startswith(STAFF_AREAS) or name.startswith(OWN_AREAS[role])):
            continue
        if name in ("web:report_step",):
            continue  # the outsider's own new report: no object of A's
        for method in ("get", "post"):
            response = getattr(client, method)(_url(name, kwargs, world["ids"]))
            assert response.status_code in DENIED, (role, method, name, response.status_code)
            if response.status_code == 302:
                location = response["Location"]
                assert str(world["ids"]["report_id"]) not in location or "sign-in" in location, (name, location)
    assert AuditEvent.objects.filter(actor=f"user:{outsider.pk}", action="photo.viewed").count() == before


def test_an_owner_no_caseworker_took_on_sees_no_candidate_yet(client, world):
    world["a"].caseworker = None
    world["a"].save(update_fields=["caseworker"])
    client.force_login(world["a"])
    assert client.get(reverse("web:candidate", kwargs={"candidate_id": world["ids"]["candidate_id"]})).status_code == 404
    page = client.get(reverse("web:candidates", kwargs={"report_id": world["ids"]["report_id"]})).content.decode()
    assert reverse("web:candidate", kwargs={"candidate_id": world["ids"]["candidate_id"]}) not in page


def test_the_owner_can_reach_her_candidates(client, world):
    client.force_login(world["a"])
    assert client.get(reverse("web:candidates", kwargs={"report_id": world["ids"]["report_id"]})).status_code == 200
    assert client.get(reverse("web:candidate", kwargs={"candidate_id": world["ids"]["candidate_id"]})).status_code == 200
