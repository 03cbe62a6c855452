"""Who may act on the registry, asked of the domain itself (``registry.policy``, and the rules of
``identification.policy`` that replaced one-off checks in views): every role, outsiders and inactive
accounts, so the web, the API and the command line cannot differ."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from athar.identification import policy as ident_policy
from athar.registry import decisions
from athar.registry import policy as registry_policy
from athar.registry.models import LinkDecision
from athar.registry.privacy import contact_for
from tests.web.factories import make_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user: Any) -> SimpleNamespace:
    caseworker, other_caseworker = make_user("caseworker"), make_user("caseworker")
    family, other_family = make_user("family", caseworker=caseworker), make_user("family", caseworker=other_caseworker)
    inactive = {role: make_user(role, is_active=False) for role in ("family", "caseworker", "reviewer", "archivist",
                                                                      "admin")}
    report = make_report(family, caseworker)
    other = make_report(other_family, other_caseworker, name="خالد")
    return SimpleNamespace(family=family, other_family=other_family, caseworker=caseworker,
                           other_caseworker=other_caseworker, reviewer=make_user("reviewer"),
                           archivist=make_user("archivist"), admin=make_user("admin"), inactive=inactive,
                           anonymous=AnonymousUser(), report=report, other=other)


def everyone(p: SimpleNamespace) -> dict[str, Any]:
    out = {name: getattr(p, name) for name in ("family", "other_family", "caseworker", "other_caseworker", "reviewer",
                                                "archivist", "admin", "anonymous")}
    out.update({f"inactive_{role}": user for role, user in p.inactive.items()})
    return out


def allowed(p: SimpleNamespace, predicate: Any) -> set[str]:
    return {name for name, user in everyone(p).items() if predicate(user)}


def test_only_active_reviewers_and_administrators_decide_links(people: SimpleNamespace) -> None:
    p = people
    assert allowed(p, lambda u: registry_policy.may_decide_link(u, p.report, p.other)) == {"reviewer", "admin"}
    assert allowed(p, registry_policy.may_reverse_link_decision) == {"reviewer", "admin"}
    assert allowed(p, registry_policy.may_review_links) == {"reviewer", "admin"}


def test_decide_itself_refuses_everyone_else_and_writes_nothing(people: SimpleNamespace) -> None:
    """The domain function checks, not only the pages: a caller that forgot cannot decide."""
    p = people
    for name, user in everyone(p).items():
        if name in ("reviewer", "admin"):
            continue
        with pytest.raises(registry_policy.NotAllowed):
            decisions.decide(p.report, p.other, "same", user, "looks alike")
    assert not LinkDecision.objects.exists()
    decision = decisions.decide(p.report, p.other, "different", p.reviewer, "different mothers")
    for user in (p.caseworker, p.inactive["reviewer"], p.inactive["admin"]):
        with pytest.raises(registry_policy.NotAllowed):
            decisions.reverse(decision, user, "no")
    with pytest.raises(ValueError, match="reason"):
        decisions.reverse(decision, p.admin, "  ")
    decisions.reverse(decision, p.admin, "mistake")
    assert LinkDecision.objects.count() == 2


def test_only_the_reports_own_active_caseworker_sees_the_contact(people: SimpleNamespace) -> None:
    p = people
    assert allowed(p, lambda u: registry_policy.may_see_contact(u, p.report)) == {"caseworker"}
    p.caseworker.is_active = False
    p.caseworker.save(update_fields=["is_active"])
    with pytest.raises(PermissionError):
        contact_for(p.report, p.caseworker)


def test_who_records_a_familys_consent(people: SimpleNamespace) -> None:
    p = people
    assert allowed(p, lambda u: registry_policy.may_record_consent(u, p.report)) == {"caseworker", "admin"}
    assert allowed(p, lambda u: registry_policy.may_record_consent(u, p.other)) == {"other_caseworker", "admin"}


def test_data_rights_and_the_contact_in_an_export(people: SimpleNamespace) -> None:
    """Export and erasure (the family's pages): the family, its caseworker, an administrator; never a
    reviewer, another family or caseworker, an archivist, or an inactive account."""
    p = people
    assert allowed(p, lambda u: ident_policy.may_exercise_data_rights(u, p.report)) == {"family", "caseworker",
                                                                                         "admin"}
    assert allowed(p, lambda u: ident_policy.export_includes_contact(u, p.report)) == {"family", "caseworker"}


def test_originals_go_to_active_archivists_only(people: SimpleNamespace) -> None:
    assert allowed(people, ident_policy.may_download_original) == {"archivist"}
