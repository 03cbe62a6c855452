"""``athar claims``, ``athar conflicts`` and ``athar export identification`` from the command line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from athar.audit.chain import chain_head


def run(capsys: Any, *args: str) -> dict[str, Any]:
    capsys.readouterr()
    call_command(*args, "--json")
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


@pytest.fixture
def setup(world: Any) -> dict[str, Any]:
    mother = world.make_user("family", login="mother@example.org")
    world.make_user("reviewer", login="r1@example.org")
    world.make_user("reviewer", login="r2@example.org")
    return {"person": world.person(reporter=mother), "case": world.cases["palestine"]}


def test_claim_review_publish_and_list(world: Any, setup: dict[str, Any], capsys: Any) -> None:
    p, c = str(setup["person"].pk), str(setup["case"].pk)
    added = run(capsys, "claims", "add", "--person", p, "--case", c, "--verdict", "is_them", "--relation", "mother",
                "--certainty", "certain", "--by", "mother@example.org")
    assert added["claim"]["verdict"] == "is_them" and added["claim"]["role"] == "family"
    ident = added["identifications"][0]["id"]
    run(capsys, "claims", "review", str(ident), "--decision", "approve", "--by", "r1@example.org")
    done = run(capsys, "claims", "review", str(ident), "--decision", "approve", "--by", "r2@example.org")
    assert done["identifications"][0]["status"] == "published"
    listed = run(capsys, "claims")
    assert [x["id"] for x in listed["claims"]] == [added["claim"]["id"]]
    assert listed["identifications"][0]["approvals"] == 2


def test_conflicts_list_and_resolve(world: Any, setup: dict[str, Any], capsys: Any) -> None:
    p = str(setup["person"].pk)
    for case in ("palestine", "scar"):
        run(capsys, "claims", "add", "--person", p, "--case", str(world.cases[case].pk), "--verdict", "is_them",
            "--by", "mother@example.org")
    (conflict,) = run(capsys, "conflicts")["conflicts"]
    assert conflict["kind"] == "person_two_cases" and conflict["open"]
    resolved = run(capsys, "conflicts", "resolve", str(conflict["id"]), "--by", "r1@example.org",
                   "--reason", "the family confirmed the tattoo")
    assert not resolved["conflict"]["open"] and resolved["conflict"]["resolved_by"].startswith("user:")
    assert run(capsys, "conflicts")["conflicts"] == []
    assert len(run(capsys, "conflicts", "--all")["conflicts"]) == 1


def test_bad_input_is_a_clear_failure(world: Any, setup: dict[str, Any], capsys: Any) -> None:
    with pytest.raises(SystemExit):
        call_command("claims", "add", "--person", "999", "--case", "1", "--verdict", "is_them",
                     "--by", "mother@example.org", "--json")
    assert "no missing person" in capsys.readouterr().out


def test_export_dossier(world: Any, setup: dict[str, Any], capsys: Any, tmp_path: Path) -> None:
    p, c = str(setup["person"].pk), str(setup["case"].pk)
    ident = run(capsys, "claims", "add", "--person", p, "--case", c, "--verdict", "is_them",
                "--by", "mother@example.org")["identifications"][0]["id"]
    run(capsys, "claims", "review", str(ident), "--decision", "approve", "--by", "r1@example.org")
    out = tmp_path / "dossier"
    result = run(capsys, "export", "identification", str(ident), str(out))
    body = (out / "dossier.json").read_bytes()
    assert (out / "SHA256SUMS").read_text().split()[0] == hashlib.sha256(body).hexdigest() == result["dossier_sha256"]
    dossier = json.loads(body)
    assert dossier["identification"]["status"] == "under_review"
    assert dossier["case"]["facts"]["detainee_number"] == "3412"
    assert dossier["evidence"]["ranking"]["reasons"] and dossier["evidence"]["ranking"]["algorithm"] == "athar-ident"
    assert len(dossier["identification"]["reviews"]) == 1
    assert dossier["audit_chain_head"]["seq"] >= 3
    assert {"identification.claim", "identification.review"} <= {e["action"] for e in dossier["audit_events"]}
    assert chain_head()["seq"] == dossier["audit_chain_head"]["seq"] + 1  # the export itself is audited
    with pytest.raises(SystemExit):
        call_command("export", "identification", str(ident), str(out), "--json")  # not empty
