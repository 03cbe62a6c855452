"""Every page as an outsider: a signed-out visitor and another family see nothing of this family.

The matrix covers every URL name of the web app; a new page without a row here fails
``test_every_page_is_in_the_matrix``.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import get_resolver, reverse

from athar.archive.models import Derivative
from athar.identification import policy
from athar.registry.models import ReportDraft

PUBLIC = {"home", "about", "method", "support", "identified", "stats", "privacy"}


def _kwargs(world: Any) -> dict[str, dict[str, Any]]:
    derivative = Derivative.objects.filter(photo__case=world.case, kind="blur_thumb").first()
    return {
        "report": {"report_id": world.report.pk}, "consent": {"report_id": world.report.pk},
        "report_photos": {"report_id": world.report.pk},
        "pick_face": {"report_id": world.report.pk, "photo_id": world.photo.pk},
        "candidates": {"report_id": world.report.pk},
        "candidate": {"candidate_id": 1}, "photo_reveal": {"candidate_id": 1}, "claim": {"candidate_id": 1},
        "derivative": {"derivative_id": derivative.pk},
        "report_photo": {"photo_id": world.photo.pk, "kind": "thumb"},
        "report_step": {"step": "person"},
        "report_edit": {"report_id": world.report.pk},
        "report_edit_step": {"report_id": world.report.pk, "step": "person"},
        "report_photo_remove": {"report_id": world.report.pk, "photo_id": world.photo.pk},
        "compare": {"identification_id": 1}, "decide": {"identification_id": 1},
        "archive": {"archive_id": world.case.archive_id}, "case": {"case_id": world.case.pk},
        "case_edit": {"case_id": world.case.pk}, "case_reveal": {"case_id": world.case.pk},
        "ingest_run": {"run_id": 1}, "conflict_resolve": {"conflict_id": 1},
        "import_template": {"lang": "ar", "fmt": "xlsx"},
        "link_decide": {"pair_id": 1}, "link_reverse": {"decision_id": 1},
        "conflict_reopen": {"conflict_id": 1}, "review_reverse": {"identification_id": 1, "review_id": 1},
        "take_family": {"user_id": world.family.pk}, "reset_code": {"user_id": world.family.pk},
        "report_export": {"report_id": world.report.pk}, "report_erase": {"report_id": world.report.pk},
        "report_data": {"report_id": world.report.pk}, "report_data_pdf": {"report_id": world.report.pk},
        "publication": {"identification_id": 1},
        "admin_user": {"user_id": world.reviewer.pk}, "admin_user_active": {"user_id": world.reviewer.pk},
        "admin_user_2fa": {"user_id": world.reviewer.pk},
        "staff_candidates": {"report_id": world.report.pk}, "invite_revoke": {"invitation_id": 1},
        "facility": {"facility_id": world.case.facility_id}, "facility_evidence": {"facility_id": world.case.facility_id},
        "case_evidence": {"case_id": world.case.pk},
        "number_decide": {"reading_id": 1}, "number_move_case": {"case_id": world.case.pk},
        "record_consent": {"report_id": world.report.pk}, "task_told": {"notice_id": 1},
        "claim_challenge": {"claim_id": 1}, "challenge_decide": {"challenge_id": 1}, "challenge": {"challenge_id": 1}, "import_progress": {"batch_id": 1},
        "draft_discard": {"draft_id": ReportDraft.objects.get_or_create(owner=world.family, amends=None)[0].pk},
    }


def web_url_names() -> list[str]:
    resolver = get_resolver()
    names = set()
    namespace = resolver.namespace_dict["web"][1] if "web" in resolver.namespace_dict else None
    if namespace is None:  # under i18n_patterns
        for pattern in resolver.url_patterns:
            inner = getattr(pattern, "url_patterns", [])
            for sub in inner:
                if getattr(sub, "namespace", None) == "web":
                    names |= {p.name for p in sub.url_patterns if p.name}
    else:
        names = {n for n in namespace.reverse_dict if isinstance(n, str)}
    return sorted(names)


def _url(world: Any, name: str) -> str:
    return reverse(f"web:{name}", kwargs=_kwargs(world).get(name, {}))


def test_every_page_is_in_the_matrix():
    assert set(web_url_names()) - PUBLIC, "no private page found"
    assert "candidate" in web_url_names()


@pytest.mark.django_db
def test_signed_out_visitor_sees_no_private_page(world, client_for):
    client = client_for(None)
    for name in web_url_names():
        if name in PUBLIC:
            continue
        url = _url(world, name)
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            assert response.status_code in (302, 403, 404, 405), (name, method, response.status_code)
            if response.status_code == 302:
                assert "/accounts/login/" in response["Location"], (name, response["Location"])


@pytest.mark.django_db
def test_another_family_sees_nothing_of_this_family(world, client_for):
    client = client_for(world.other_family)
    allowed = PUBLIC | {"dashboard", "family_home", "report_new", "report_step"}
    for name in web_url_names():
        if name in allowed:
            continue
        url = _url(world, name)
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            assert response.status_code in (403, 404, 405), (name, method, response.status_code)
    home = client.get(reverse("web:family_home")).content.decode()
    assert world.report.full_name_ar not in home


@pytest.mark.django_db
def test_another_caseworker_sees_nothing_of_this_family(world, client_for):
    client = client_for(world.other_caseworker)
    for name in ("report", "consent", "report_photos", "candidates", "report_photo", "pick_face", "staff_candidates"):
        response = client.get(_url(world, name))
        assert response.status_code in (403, 404), name
    html = client.get(reverse("web:caseworker_home")).content.decode()
    assert world.report.full_name_ar not in html


@pytest.mark.django_db
def test_family_never_browses_the_archive(world, client_for):
    client = client_for(world.family)
    for name in ("archives", "archive", "facilities", "case", "case_edit", "ingest_runs", "verify", "derivative",
                 "review_queue", "conflicts", "caseworker_home", "invite", "import", "import_template",
                 "link_review"):
        assert client.get(_url(world, name)).status_code in (403, 404), name


@pytest.mark.django_db
def test_access_rules_matrix(world):
    report = world.report
    assert policy.can_view_report(world.family, report)
    assert policy.can_view_report(world.caseworker, report)
    assert policy.can_view_report(world.reviewer, report)
    assert policy.can_view_report(world.admin, report)
    assert not policy.can_view_report(world.other_family, report)
    assert not policy.can_view_report(world.other_caseworker, report)
    assert not policy.can_view_report(world.archivist, report)
    assert policy.can_view_case(world.archivist, world.case) and policy.can_view_case(world.reviewer, world.case)
    assert not policy.can_view_case(world.family, world.case)
    assert not policy.can_view_case(world.caseworker, world.case)


@pytest.mark.django_db
def test_inactive_user_sees_nothing(world):
    world.family.is_active = False
    world.family.save()
    assert not policy.can_view_report(world.family, world.report)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ar", "en"])
def test_every_page_renders_for_the_role_it_is_for(world, client_for, language):
    """No page errors for its own audience, in either language (objects that exist render 200)."""
    from django.utils.translation import override

    from athar.archive.models import IngestRun, RejectedFile
    from athar.identification import claims
    from tests.web.factories import make_candidate

    candidate = make_candidate(world.report, world.case)
    person = world.report.links.get().person
    claims.make_claim(person, world.case, "is_them", world.family, report=world.report)
    run = IngestRun.objects.create(archive=world.case.archive, source="/x", counts={"photos": 1})
    RejectedFile.objects.create(run=run, path="a/b.jpg", reason="corrupt or truncated image")
    kwargs = _kwargs(world)
    kwargs.update({"candidate": {"candidate_id": candidate.pk}, "ingest_run": {"run_id": run.pk},
                   "compare": {"identification_id": claims.Identification.objects.get().pk},
                   "publication": {"identification_id": claims.Identification.objects.get().pk}})
    audiences = {"family": world.family, "caseworker": world.caseworker, "reviewer": world.reviewer,
                 "archivist": world.archivist, "admin": world.admin}
    seen_ok = set()
    for user in audiences.values():
        client = client_for(user)
        for name in web_url_names():
            with override(language):
                url = reverse(f"web:{name}", kwargs=kwargs.get(name, {}))
            response = client.get(url)
            assert response.status_code < 500, (name, user.role)
            if response.status_code == 200:
                seen_ok.add(name)
    assert {"candidate", "compare", "ingest_run", "case", "report", "candidates", "review_queue",
            "caseworker_home", "family_home", "import", "invite", "verify", "link_review", "report_export",
            "report_erase", "report_data", "report_data_pdf", "publication", "admin_users", "admin_user", "admin_user_new", "audit_log",
            "staff_candidates", "facility", "numbers", "numbers_bulk", "number_groups", "number_joins",
            "number_facilities", "number_search"} <= seen_ok
