"""``athar claims``, ``athar conflicts`` and ``athar export identification`` from the command line."""

from __future__ import annotations

import hashlib
import io
import json
import sys
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from django.core.management import call_command

from athar.audit.chain import chain_head

PASSWORD = "a long test password\n"


def run(capsys: Any, *args: str, stdin: str = PASSWORD) -> dict[str, Any]:
    """The command as its operator runs it: the acting account's password on standard input."""
    capsys.readouterr()
    with patch.object(sys, "stdin", io.StringIO(stdin)):
        call_command(*args, "--json")
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


@pytest.fixture
def setup(world: Any) -> dict[str, Any]:
    caseworker = world.make_user("caseworker", login="cw@example.org")
    mother = world.make_user("family", login="mother@example.org", caseworker=caseworker)
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
    assert done["identifications"][0]["status"] == "verified"
    assert {b["rule"] for b in done["identifications"][0]["publication_blockers"]} == {
        "family_not_informed", "no_consent"}
    with pytest.raises(SystemExit):
        run(capsys, "claims", "publish", str(ident), "--by", "cw@example.org")  # not informed, no consent
    report = setup["person"].links.get().report
    report.consent = {"publication": True}
    report.save(update_fields=["consent"])
    run(capsys, "claims", "inform", str(ident), "--report", str(report.pk), "--method", "phone",
        "--by", "cw@example.org")
    published = run(capsys, "claims", "publish", str(ident), "--by", "cw@example.org")
    assert published["identification"]["status"] == "published"
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
    kept = conflict["claims"][0]
    resolved = run(capsys, "conflicts", "resolve", str(conflict["id"]), "--by", "r1@example.org", "--keep", str(kept),
                   "--reason", "the family confirmed the tattoo")
    assert not resolved["conflict"]["open"] and resolved["conflict"]["resolved_by"].startswith("user:")
    assert resolved["conflict"]["kept_claim"] == kept and resolved["conflict"]["set_aside_claims"] == conflict["claims"][1:]
    assert run(capsys, "conflicts")["conflicts"] == []
    assert len(run(capsys, "conflicts", "--all")["conflicts"]) == 1


def test_bad_input_is_a_clear_failure(world: Any, setup: dict[str, Any], capsys: Any) -> None:
    with pytest.raises(SystemExit), patch.object(sys, "stdin", io.StringIO(PASSWORD)):
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
    _check_offline(out)


def _check_offline(out: Path) -> None:
    """The dossier's verify_evidence.py under Debian's python3 without athar: passes untouched, fails
    once one byte of the dossier changes (its hash is in the export's audit event)."""
    import subprocess
    python = Path("/usr/bin/python3")
    if not python.exists() or subprocess.run([str(python), "-I", "-c", "import cryptography"]).returncode:
        pytest.skip("/usr/bin/python3 with python3-cryptography is not installed")
    proofs = json.loads((out / "proofs" / "log.json").read_text())
    actions = {e["event"]["action"] for e in proofs["events"]}
    assert {"identification.claim", "identification.review", "identification.exported"} <= actions
    check = subprocess.run([str(python), "-I", str(out / "verify_evidence.py")], capture_output=True, text=True)
    assert check.returncode == 0 and "RESULT: every check holds." in check.stdout, check.stdout
    body = bytearray((out / "dossier.json").read_bytes())
    body[10] ^= 0x20
    (out / "dossier.json").write_bytes(bytes(body))
    check = subprocess.run([str(python), "-I", str(out / "verify_evidence.py")], capture_output=True, text=True)
    assert check.returncode == 1 and "dossier.json" in check.stdout and "NOT verify" in check.stdout


def test_a_decision_needs_the_acting_accounts_own_password(world: Any, setup: dict[str, Any], capsys: Any) -> None:
    """Whoever runs the command cannot record a review as another reviewer."""
    from athar.audit.models import AuditEvent
    from athar.identification.models import Review

    p, c = str(setup["person"].pk), str(setup["case"].pk)
    ident = run(capsys, "claims", "add", "--person", p, "--case", c, "--verdict", "is_them",
                "--by", "mother@example.org")["identifications"][0]["id"]
    for stdin in ("", "wrong password\n"):
        with pytest.raises(SystemExit):
            run(capsys, "claims", "review", str(ident), "--decision", "approve", "--by", "r1@example.org", stdin=stdin)
    assert not Review.objects.exists()
    assert AuditEvent.objects.filter(action="cli.actor_refused").count() == 2
    run(capsys, "claims", "review", str(ident), "--decision", "approve", "--by", "r1@example.org")
    assert Review.objects.count() == 1 and AuditEvent.objects.filter(action="cli.actor_authenticated").exists()
