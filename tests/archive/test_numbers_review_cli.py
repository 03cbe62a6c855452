"""``athar numbers review|confirm|correct|reject --by LOGIN`` as an archivist runs them: the
account's password on standard input; the JSON contract on the last line; the two-person rule
for a number that changes a case; outsiders and wrong passwords refused with exit 1."""

from __future__ import annotations

import io
import json
import sys
from typing import Any
from unittest.mock import patch

import pytest
from django.core.management import call_command

from athar.archive.models import NumberReading
from tests.archive.test_number_readings import _case, _reading

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a long test password\n"


def run(capsys: Any, *args: str, stdin: str = PASSWORD) -> dict[str, Any]:
    capsys.readouterr()
    with patch.object(sys, "stdin", io.StringIO(stdin)):
        call_command(*args, "--json")
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def refused(capsys: Any, *args: str, stdin: str = PASSWORD) -> str:
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_, patch.object(sys, "stdin", io.StringIO(stdin)):
        call_command(*args, "--json")
    assert exit_.value.code == 1
    return str(json.loads(capsys.readouterr().out.strip().splitlines()[-1])["error"])


def test_review_confirm_correct_reject_from_the_command_line(make_user, capsys):
    make_user("archivist", login="a1@example.org")
    make_user("archivist", login="a2@example.org")
    make_user("caseworker", login="cw@example.org")
    case = _case(detainee="1111")
    changes, same, wrong, empty = (_reading(case, "2719", "detainee", 1), _reading(case, "1111", "detainee", 2),
                                   _reading(case, "5555", "", 3), _reading(case, "42", "", 4))

    listed = run(capsys, "numbers", "review", "--by", "a1@example.org")
    assert listed["count"] == 4 and {r["id"] for r in listed["readings"]} == {changes.pk, same.pk, wrong.pk, empty.pk}
    assert "photo" in listed["readings"][0] and "path" not in listed["readings"][0]

    assert "only an active archivist" in refused(capsys, "numbers", "review", "--by", "cw@example.org")
    assert "not accepted" in refused(capsys, "numbers", "confirm", str(same.pk), "--by", "a1@example.org",
                                     stdin="wrong password\n")

    one = run(capsys, "numbers", "confirm", str(same.pk), "--by", "a1@example.org")["reading"]
    assert one["status"] == "confirmed" and one["settled"] and not one["needs_second"]

    first = run(capsys, "numbers", "confirm", str(changes.pk), "--by", "a1@example.org")["reading"]
    assert first["needs_second"] and not first["settled"]
    assert "someone other" in refused(capsys, "numbers", "confirm", str(changes.pk), "--by", "a1@example.org")
    awaiting = run(capsys, "numbers", "review", "--by", "a2@example.org", "--status", "second")
    assert [r["id"] for r in awaiting["readings"]] == [changes.pk]
    second = run(capsys, "numbers", "confirm", str(changes.pk), "--by", "a2@example.org")["reading"]
    assert second["settled"] and second["second_by"] != second["decided_by"]

    assert "reason" in refused(capsys, "numbers", "correct", str(wrong.pk), "5556", "--by", "a1@example.org")
    corrected = run(capsys, "numbers", "correct", str(wrong.pk), "٥٥٥٦", "--reason", "last digit is a 6",
                    "--by", "a1@example.org")["reading"]
    assert corrected["number"] == "5556" and corrected["status"] == "corrected"

    rejected = run(capsys, "numbers", "reject", str(empty.pk), "--by", "a2@example.org")["reading"]
    assert rejected["status"] == "rejected"
    assert "already decided" in refused(capsys, "numbers", "reject", str(empty.pk), "--by", "a1@example.org")
    assert "not a suggestion id" in refused(capsys, "numbers", "reject", "x", "--by", "a1@example.org")
    assert not NumberReading.objects.filter(status="suggested").exists()


def test_plain_output_for_people(make_user, capsys):
    make_user("archivist", login="a1@example.org")
    with patch.object(sys, "stdin", io.StringIO(PASSWORD)):
        call_command("numbers", "review", "--by", "a1@example.org")
    assert "no suggestions" in capsys.readouterr().out
    reading = _reading(_case(detainee="2719"), "2719", "detainee")
    with patch.object(sys, "stdin", io.StringIO(PASSWORD)):
        call_command("numbers", "confirm", str(reading.pk), "--by", "a1@example.org")
    assert f"#{reading.pk}" in capsys.readouterr().out
