"""Search by a number a family quotes (issue 29): either digit script, confirmed cases first, then
the archive's own record, then unconfirmed readings; rejected readings never; families and
outsiders may not search. Domain, command line and API."""

from __future__ import annotations

import io
import json
import sys
from unittest.mock import patch

import pytest
from django.core.management import call_command
from django.test import Client

from athar.api.models import ApiToken
from athar.archive import number_review
from athar.identification.claims import NotAllowed
from athar.identification.number_search import search_by_number
from tests.archive.test_number_readings import _case, _reading

pytestmark = pytest.mark.django_db


def test_cases_carrying_a_number_confirmed_first(make_user):
    first, second = make_user("archivist"), make_user("archivist")
    caseworker = make_user("caseworker", login="cw@example.org")
    _case(detainee="2065", label="1")  # recorded by the archive itself
    confirmed_case, suggested_case, rejected_case = _case(label="2"), _case(label="3"), _case(label="4")
    confirmed = _reading(confirmed_case, "2065", "detainee", 1)
    number_review.confirm(first, confirmed.pk)
    number_review.confirm(second, confirmed.pk)
    _reading(suggested_case, "2065", "", 2)
    number_review.decide(first, _reading(rejected_case, "2065", "", 3).pk, "reject")
    _reading(_case(label="5"), "2066", "", 4)

    found = search_by_number(caseworker, "٢٠٦٥")
    assert found["number"] == "2065"
    assert [(c["label"], c["evidence"]) for c in found["cases"]] == [
        ("2", "confirmed"), ("1", "recorded"), ("3", "suggested")]

    half = _reading(_case(label="6"), "2065", "detainee", 5)
    number_review.confirm(first, half.pk)  # one archivist of the two needed: not confirmed yet
    assert ("6", "confirmed") not in [(c["label"], c["evidence"]) for c in search_by_number(caseworker, "2065")["cases"]]

    for outsider in (make_user("family"), make_user("caseworker", is_active=False), None):
        with pytest.raises(NotAllowed):
            search_by_number(outsider, "2065")

    capsys_out = io.StringIO()
    with patch.object(sys, "stdin", io.StringIO("a long test password\n")), patch.object(sys, "stdout", capsys_out):
        call_command("numbers", "search", "2065", "--by", "cw@example.org", "--json")
    assert json.loads(capsys_out.getvalue().strip().splitlines()[-1])["cases"][0]["evidence"] == "confirmed"

    _, token = ApiToken.issue(caseworker, "t")
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    answer = api.get("/api/numbers/search", {"number": "٢٠٦٥"}).json()
    assert answer["cases"][0] == {"case": str(confirmed_case.public_id), "archive": "A", "facility": "215",
                                  "label": "2", "detainee_number": "2065", "evidence": "confirmed"}
    assert api.get("/api/numbers/search", {"number": "20x5"}).status_code == 400
    _, family_token = ApiToken.issue(make_user("family"), "t")
    assert Client(HTTP_AUTHORIZATION=f"Bearer {family_token}").get(
        "/api/numbers/search", {"number": "2065"}).status_code == 404
