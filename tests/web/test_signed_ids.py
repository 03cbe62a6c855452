"""Family-facing URLs carry signed ids, one salt per kind: they cannot be guessed or counted, and a
signature of one kind (a report's) never opens a row of another kind (the photo with the same number)."""

from __future__ import annotations

import pytest
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve, reverse

from athar.core.signed_ids import KINDS, sign_id, unsign_id
from athar.web.converters import SignedIdConverter
from tests.api.test_api import _client as api_client
from tests.web.factories import make_candidate


def test_report_urls_are_signed_and_round_trip():
    url = reverse("web:report", kwargs={"report_id": 12})
    assert "/reports/12/" not in url and "/reports/12." in url
    assert resolve(url).kwargs["report_id"] == 12


@pytest.mark.parametrize("path", ["/reports/12/", "/reports/12.AAAAAAAAAAAAAAAAAAAAAAAA/",
                                  "/candidates/3/", "/candidates/3.forgedforgedforgedforged/"])
def test_plain_or_forged_ids_do_not_resolve(path):
    with pytest.raises(Resolver404):
        resolve(path)


def test_a_signature_of_one_id_does_not_open_another():
    signed = sign_id("report", 12)
    tampered = "13." + signed.split(".", 1)[1]
    assert unsign_id("report", tampered) is None


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_has_its_own_signature(kind):
    """The same number signs differently for every kind, and only its own kind reads it back."""
    signed = sign_id(kind, 7)
    assert unsign_id(kind, signed) == 7
    for other in KINDS:
        if other != kind:
            assert sign_id(other, 7) != signed
            assert unsign_id(other, signed) is None, (kind, other)


def test_an_unknown_kind_is_an_error_not_a_fallback():
    with pytest.raises(LookupError):
        sign_id("case", 1)
    with pytest.raises(LookupError):
        unsign_id("case", sign_id("report", 1))


def _signed_patterns() -> list[tuple[str, dict[str, str]]]:
    """(name, {keyword: kind}) of every web page that carries a signed id."""
    out: list[tuple[str, dict[str, str]]] = []

    def walk(patterns, namespace):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern) and p.name:
                signed = {k: c.kind for k, c in p.pattern.converters.items() if isinstance(c, SignedIdConverter)}
                if signed:
                    out.append((f"{namespace}:{p.name}", signed))

    walk(get_resolver().url_patterns, "")
    return out


def test_every_signed_page_refuses_every_other_kind():
    """Walks the URL configuration: for each signed keyword of each page, the same number signed as
    any other kind does not resolve (a new page with a signed id is covered without a new test)."""
    patterns = _signed_patterns()
    assert {"web:report", "web:report_photo", "web:candidate", "web:take_family", "web:pick_face"} <= {
        n for n, _ in patterns}
    for name, signed in patterns:
        kwargs = {k: 5 for k in signed} | ({"kind": "view"} if name == "web:report_photo" else {}) | (
            {"step": "person"} if name == "web:report_edit_step" else {})
        url = reverse(name, kwargs=kwargs)
        assert resolve(url).kwargs[next(iter(signed))] == 5
        for kind in signed.values():
            good = sign_id(kind, 5)
            for other in KINDS:
                if other != kind:
                    with pytest.raises(Resolver404):
                        resolve(url.replace(good, sign_id(other, 5)))


def _swap(url: str, kind: str, pk: int, other: str) -> str:
    good = sign_id(kind, pk)
    assert good in url
    return url.replace(good, sign_id(other, pk))


@pytest.mark.django_db
def test_the_owner_gets_404_for_another_kinds_signature(world, client_for):
    """The family that owns the report, photo and candidate opens each with its own kind's id and
    gets 404 with another kind's valid signature of the same number."""
    candidate = make_candidate(world.report, world.case)
    family = client_for(world.family)
    pages = [
        (reverse("web:report", kwargs={"report_id": world.report.pk}), "report", world.report.pk),
        (reverse("web:report_photos", kwargs={"report_id": world.report.pk}), "report", world.report.pk),
        (reverse("web:report_photo", kwargs={"photo_id": world.photo.pk, "kind": "thumb"}), "report_photo",
         world.photo.pk),
        (reverse("web:candidate", kwargs={"candidate_id": candidate.pk}), "candidate", candidate.pk),
    ]
    for url, kind, pk in pages:
        assert family.get(url).status_code == 200, url
        for other in KINDS:
            if other != kind:
                assert family.get(_swap(url, kind, pk, other)).status_code == 404, (url, other)


@pytest.mark.django_db
def test_a_caseworker_cannot_take_on_a_family_with_another_kinds_id(world, client_for, make_user):
    family = make_user("family")
    url = reverse("web:take_family", kwargs={"user_id": family.pk})
    caseworker = client_for(world.caseworker)
    for other in KINDS:
        if other != "user":
            assert caseworker.post(_swap(url, "user", family.pk, other)).status_code == 404, other
    family.refresh_from_db()
    assert family.caseworker is None
    from athar.accounts.caseworkers import agreement_code

    caseworker.post(url, {"code": agreement_code(family)})  # with the family's agreement
    family.refresh_from_db()
    assert family.caseworker == world.caseworker


@pytest.mark.django_db
def test_the_api_refuses_another_kinds_signature(world):
    candidate = make_candidate(world.report, world.case)
    mine = api_client(world.family)
    endpoints = [(f"/api/reports/{sign_id('report', world.report.pk)}", "report", world.report.pk),
                 (f"/api/reports/{sign_id('report', world.report.pk)}/candidates", "report", world.report.pk),
                 (f"/api/candidates/{sign_id('candidate', candidate.pk)}", "candidate", candidate.pk)]
    for url, kind, pk in endpoints:
        assert mine.get(url).status_code == 200, url
        for other in KINDS:
            if other != kind:
                assert mine.get(_swap(url, kind, pk, other)).status_code == 404, (url, other)
    claim_url = f"/api/candidates/{sign_id('claim', candidate.pk)}/claim"
    assert mine.post(claim_url, {"verdict": "yes"}, content_type="application/json").status_code == 404
    assert mine.get("/api/claims").json()["items"] == []


@pytest.mark.django_db
def test_the_api_signs_each_kind_with_its_own_salt(world):
    candidate = make_candidate(world.report, world.case)
    mine = api_client(world.family)
    listed = mine.get(f"/api/reports/{sign_id('report', world.report.pk)}/candidates").json()["items"][0]
    assert unsign_id("candidate", listed["id"]) == candidate.pk and unsign_id("report", listed["id"]) is None
    assert unsign_id("report", listed["report"]) == world.report.pk
    claim = mine.post(f"/api/candidates/{listed['id']}/claim", {"verdict": "yes"},
                      content_type="application/json").json()
    assert unsign_id("claim", claim["id"]) is not None and unsign_id("candidate", claim["id"]) is None
