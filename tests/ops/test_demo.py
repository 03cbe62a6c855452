"""``athar demo`` shows the whole journey: two reviewers, reports filed by a family, by a caseworker
on paper and from an imported list (two linked to one person), a claim waiting for review and a
conflict between two families, all made through the domain functions (so audited); it says at
start whether its archive has faces and how to add them."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from athar.ops.demo import FACES_HELP, faces_statement
from tests.cli_helpers import last_json, run_athar

pytestmark = pytest.mark.nodb


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    home = tmp_path_factory.mktemp("demo") / "home"
    proc = run_athar(home, "demo", "--no-serve", "--json")
    return {"home": home, "result": last_json(proc), "stderr": proc.stderr}


def query(home: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(home / "athar.sqlite3") as db:
        return list(db.execute(sql, args).fetchall())


def actions(home: Path) -> dict[str, int]:
    return dict(query(home, "select action, count(*) from audit_auditevent group by action"))  # type: ignore[arg-type]


def test_the_demo_has_two_reviewers_filed_reports_a_waiting_claim_and_a_conflict(demo: dict[str, Any]) -> None:
    numbers = demo["result"]["journey"]
    assert numbers["reviewers"] == 2 and len(demo["result"]["reviewers"]) == 2
    assert numbers["reports_by_families"] == 3 and numbers["reports_imported"] == 4
    assert numbers["claims"] == 3 and numbers["conflicts_open"] == 1
    assert numbers["identifications_waiting"] >= 1


def test_every_step_went_through_the_domain_and_is_audited(demo: dict[str, Any]) -> None:
    done = actions(demo["home"])
    assert done.get("report.filed") == 3  # the self-registered family, the caseworker on paper, an invited family
    assert done.get("account.registered") == 1 and done.get("family.taken_on") == 1
    assert done.get("invitation.redeemed") == 1 and done.get("consent.recorded") == 1
    assert done.get("identification.claim") == 3 and done.get("identification.conflict_opened") == 1
    sources = dict(query(demo["home"], "select source, count(*) from registry_report group by source"))
    assert sources == {"web": 3, "demo-list": 4}


def test_the_imported_row_and_the_familys_report_are_one_person(demo: dict[str, Any]) -> None:
    rows = query(demo["home"], "select l.person_id, r.source from registry_reportlink l join registry_report r "
                               "on r.id = l.report_id join registry_linkagerun run on run.id = l.run_id "
                               "where run.is_current and (r.report_id = 'L-001' or r.source = 'web')")
    persons: dict[int, set[str]] = {}
    for person, source in rows:
        persons.setdefault(person, set()).add(source)
    assert {"web", "demo-list"} in persons.values()


def test_the_conflict_is_two_families_claiming_one_case(demo: dict[str, Any]) -> None:
    rows = query(demo["home"], "select c.kind, count(distinct cl.by_id), count(distinct cl.person_id), "
                               "count(distinct cl.case_id) from identification_conflict c "
                               "join identification_conflict_claims cc on cc.conflict_id = c.id "
                               "join identification_claim cl on cl.id = cc.claim_id group by c.id")
    assert rows == [("case_two_persons", 2, 2, 1)]


def test_the_summary_lists_each_role_and_what_waits_for_it(demo: dict[str, Any]) -> None:
    result = demo["result"]
    roles = [a["role"] for a in result["accounts"]]
    assert roles.count("family") == 3 and roles.count("reviewer") == 2
    assert all(result["waiting"][a["login"]] for a in result["accounts"])
    text = "\n".join(result["instructions"])
    assert "/review/conflicts/" in text and "waits for two reviewers" in text
    assert all(a["login"] in text for a in result["accounts"])


def test_the_demo_says_at_start_that_its_archive_has_no_faces_and_how_to_add_them(demo: dict[str, Any]) -> None:
    faces = demo["result"]["faces"]
    assert faces["present"] is False and "--faces DIR" in faces["how"]
    first = [line for line in demo["stderr"].splitlines() if not line.startswith("athar: preparing")][0]
    assert first.startswith("Faces: none") and "--faces DIR" in first
    assert any(line.startswith("Faces: none") for line in demo["result"]["instructions"])


def test_with_a_faces_folder_the_demo_says_so(tmp_path: Path) -> None:
    statement = faces_statement(tmp_path)
    assert statement["present"] is True and str(tmp_path) in statement["text"]
    assert FACES_HELP not in statement["text"]


def test_a_second_run_keeps_the_journey_and_gives_fresh_passwords(demo: dict[str, Any]) -> None:
    again = last_json(run_athar(demo["home"], "demo", "--no-serve", "--json"))
    assert again["journey"]["claims"] == 3 and again["journey"]["reports_by_families"] == 3
    before = {a["login"]: a["password"] for a in demo["result"]["accounts"]}
    after = {a["login"]: a["password"] for a in again["accounts"]}
    assert before.keys() == after.keys() and all(before[k] != after[k] for k in before)
