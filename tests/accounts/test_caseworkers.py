"""A caseworker takes a family on only with the family's code; an administrator reassigns with a reason."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse

from athar.accounts.caseworkers import TakeOnRefused, agreement_code, reassign, take_on
from athar.accounts.models import Assignment
from athar.accounts.subcommands import user_reassign, user_take_on
from athar.audit.models import AuditEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting_family(make_user):
    return make_user("family", login="+963944555666", phone="+963944555666")


def test_taking_on_without_the_family_code_is_refused(client, make_user, waiting_family):
    caseworker = make_user("caseworker")
    client.force_login(caseworker)
    response = client.post(reverse("web:take_family", kwargs={"user_id": waiting_family.pk}))
    assert response.status_code == 302
    waiting_family.refresh_from_db()
    assert waiting_family.caseworker is None
    assert AuditEvent.objects.filter(action="family.take_on_refused", object_id=str(waiting_family.pk)).exists()


def test_the_family_shows_a_code_and_the_caseworker_takes_it_on_with_it(client, make_user, waiting_family):
    family_client = client.__class__()
    family_client.force_login(waiting_family)
    assert reverse("accounts:agreement") in family_client.get(reverse("web:family_home")).content.decode()
    page = family_client.post(reverse("accounts:agreement"))
    code = page.context["code"]
    assert re.fullmatch(r"\d{4} \d{4}", code) and code in page.content.decode()
    assert code.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")) in page.content.decode()  # both scripts
    caseworker = make_user("caseworker")
    client.force_login(caseworker)
    client.post(reverse("web:take_family", kwargs={"user_id": waiting_family.pk}), {"code": code.lower()})
    waiting_family.refresh_from_db()
    assert waiting_family.caseworker == caseworker
    event = AuditEvent.objects.get(action="family.taken_on", object_id=str(waiting_family.pk))
    assert event.data["agreement"] is True and event.actor == f"user:{caseworker.pk}"
    with pytest.raises(TakeOnRefused):  # used once; the family now has a caseworker
        take_on(make_user("caseworker"), waiting_family, code)


def test_a_code_dies_after_five_wrong_tries(make_user, waiting_family):
    code = agreement_code(waiting_family)
    caseworker = make_user("caseworker")
    wrong = ("1" if code[0] != "1" else "2") + code[1:]
    for _ in range(5):
        with pytest.raises(TakeOnRefused):
            take_on(caseworker, waiting_family, wrong)
    with pytest.raises(TakeOnRefused):
        take_on(caseworker, waiting_family, code)


def test_only_caseworkers_take_on(make_user, waiting_family):
    code = agreement_code(waiting_family)
    with pytest.raises(TakeOnRefused):
        take_on(make_user("family"), waiting_family, code)


def test_an_admin_reassigns_with_a_reason(make_user, waiting_family):
    admin, first, second = make_user("admin"), make_user("caseworker"), make_user("caseworker")
    take_on(first, waiting_family, agreement_code(waiting_family))
    with pytest.raises(PermissionError):
        reassign(second, waiting_family, second, "I want it")
    with pytest.raises(ValueError):
        reassign(admin, waiting_family, second, "  ")
    row = reassign(admin, waiting_family, second, "first caseworker left the organisation")
    waiting_family.refresh_from_db()
    assert waiting_family.caseworker == second and row.previous == first and row.reason.startswith("first")
    event = AuditEvent.objects.get(action="family.reassigned")
    assert event.data == {"from": first.pk, "to": second.pk, "assignment": row.pk}
    assert "left" not in str(event.data)  # free text stays out of the audit chain


def test_cli_take_on_and_reassign_need_the_actors_password(monkeypatch, make_user, waiting_family):
    caseworker, admin = make_user("caseworker"), make_user("admin")
    code = agreement_code(waiting_family)
    monkeypatch.setattr("sys.stdin", io.StringIO("wrong password\n"))
    with pytest.raises(ValueError, match="credentials"):
        user_take_on({"by": caseworker.login, "family": "0944 555 666", "code": code})
    monkeypatch.setattr("sys.stdin", io.StringIO("a long test password\n"))
    assert user_take_on({"by": caseworker.login, "family": "0944 555 666", "code": code})["caseworker_id"] == caseworker.pk
    monkeypatch.setattr("sys.stdin", io.StringIO("a long test password\n\n"))
    result = user_reassign({"by": admin.login, "family": waiting_family.login, "caseworker": None, "reason": "moved"})
    assert Assignment.objects.get(pk=result["assignment"]).caseworker is None


def test_the_code_read_aloud_may_be_typed_in_arabic_indic_digits_and_with_any_spacing(make_user, waiting_family):
    code = agreement_code(waiting_family)
    caseworker = make_user("caseworker")
    spoken = code.replace(" ", "").translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    take_on(caseworker, waiting_family, f"{spoken[:2]}-{spoken[2:]}")
    waiting_family.refresh_from_db()
    assert waiting_family.caseworker_id == caseworker.pk
