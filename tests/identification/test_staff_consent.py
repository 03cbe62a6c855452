"""The publication check asks the one consent answer (``registry.consent``): a family's consent given
on paper to its caseworker lets a verified identification be published, a withdrawal recorded by
phone blocks it again — from the command line, as a caseworker works."""

from __future__ import annotations

import io
import json
import sys
from typing import Any
from unittest.mock import patch

import pytest
from django.core.management import call_command

from athar.identification import claims as rules
from athar.identification.services import public_identifications
from athar.registry.consent import record_consent
from athar.registry.filing import consent_record

PASSWORD = "a long test password\n"


def run(capsys: Any, *args: str) -> dict[str, Any]:
    capsys.readouterr()
    with patch.object(sys, "stdin", io.StringIO(PASSWORD)):
        call_command(*args, "--json")
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


@pytest.fixture
def verified(world: Any, capsys: Any) -> dict[str, Any]:
    caseworker = world.make_user("caseworker", login="cw@example.org")
    mother = world.make_user("family", login="mother@example.org", caseworker=caseworker)
    world.make_user("reviewer", login="r1@example.org")
    world.make_user("reviewer", login="r2@example.org")
    person = world.person(reporter=mother)
    added = run(capsys, "claims", "add", "--person", str(person.pk), "--case", str(world.cases["palestine"].pk),
                "--verdict", "is_them", "--by", "mother@example.org")
    ident = added["identifications"][0]["id"]
    for reviewer in ("r1@example.org", "r2@example.org"):
        run(capsys, "claims", "review", str(ident), "--decision", "approve", "--by", reviewer)
    report = person.links.get().report
    run(capsys, "claims", "inform", str(ident), "--report", str(report.pk), "--method", "phone",
        "--by", "cw@example.org")
    return {"ident": rules.Identification.objects.get(pk=ident), "report": report, "caseworker": caseworker}


def _rules(ident: Any) -> set[str]:
    return {b["rule"] for b in rules.publication_blockers(ident)}


def test_consent_given_on_paper_lets_the_identification_be_published(verified: dict[str, Any], capsys: Any) -> None:
    ident, report = verified["ident"], verified["report"]
    assert _rules(ident) == {"no_consent"}
    run(capsys, "registry", "consent", "--report", f"#{report.pk}", "--given", "--method", "paper",
        "--by", "cw@example.org")
    assert _rules(ident) == set()
    assert run(capsys, "claims", "publish", str(ident.pk), "--by", "cw@example.org")["identification"]["status"] \
        == "published"
    assert len(public_identifications()) == 1


def test_a_withdrawal_by_phone_outvotes_the_web_consent(verified: dict[str, Any]) -> None:
    ident, report = verified["ident"], verified["report"]
    report.consent = consent_record(False, True)
    report.save(update_fields=["consent"])
    assert _rules(ident) == set()
    record_consent(report, verified["caseworker"], publication=False, method="phone")
    assert _rules(ident) == {"no_consent"}
