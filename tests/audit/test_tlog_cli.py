"""The transparency log from the command line, as operators, witnesses and a court's expert use it:
real ``athar`` processes, two data directories (a log and a partner's witness) on one machine, and
the export's ``verify_evidence.py`` under Debian's ``/usr/bin/python3 -I`` without athar."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from athar.archive.synthetic import make_archive
from tests.cli_helpers import last_json, run_athar

DEBIAN_PYTHON = Path("/usr/bin/python3")


def _debian_python_with_cryptography() -> bool:
    if not DEBIAN_PYTHON.exists():
        return False
    return subprocess.run([str(DEBIAN_PYTHON), "-I", "-c", "import cryptography"], capture_output=True).returncode == 0


needs_debian_python = pytest.mark.skipif(not _debian_python_with_cryptography(),
                                         reason="/usr/bin/python3 with python3-cryptography is not installed")


@pytest.fixture(scope="module")
def ingested_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One real ``athar ingest`` per module (a subprocess costs seconds); tests get a copy of it."""
    root = tmp_path_factory.mktemp("tlog")
    make_archive(root / "arc", facilities=("215",), cases_per_facility=2, photos_per_case=2)
    home = root / "log"
    run_athar(home, "ingest", str(root / "arc"), "--archive", "T", "--no-faces")
    return home


@pytest.fixture
def log_home(ingested_home: Path, tmp_path: Path) -> Path:
    """A data directory of its own for each test (its database, keys and evidence store copied)."""
    home = tmp_path / "log"
    shutil.copytree(ingested_home, home, symlinks=True)
    return home


def _sql(home: Path, statement: str, *args: object) -> None:
    with sqlite3.connect(home / "athar.sqlite3") as db:
        db.execute(statement, args)


def test_verify_checkpoint_passes_on_growth_and_fails_on_rollback(log_home, tmp_path):
    off_machine = tmp_path / "usb" / "checkpoint.txt"
    made = last_json(run_athar(log_home, "log", "checkpoint", "--out", str(off_machine), "--json"))
    assert made["size"] > 0 and off_machine.read_text().startswith(made["origin"] + "\n")
    backup = tmp_path / "old.sqlite3"
    shutil.copyfile(log_home / "athar.sqlite3", backup)
    run_athar(log_home, "archive", "stats")  # nothing new; then something new:
    run_athar(log_home, "export", "evidence", "--case", "1", str(tmp_path / "e1"))
    later = last_json(run_athar(log_home, "log", "checkpoint", "--out", str(tmp_path / "later.txt"), "--json"))
    assert later["size"] > made["size"]
    ok = last_json(run_athar(log_home, "verify", "--checkpoint", str(off_machine), "--json"))
    assert ok["ok"] and ok["checkpoints"][0]["ok"]
    shutil.copyfile(backup, log_home / "athar.sqlite3")  # the database restored to the older copy
    for suffix in ("-wal", "-shm"):
        (log_home / f"athar.sqlite3{suffix}").unlink(missing_ok=True)
    rolled = run_athar(log_home, "verify", "--checkpoint", str(tmp_path / "later.txt"), "--json", check=False)
    result = last_json(rolled)
    assert rolled.returncode != 0 and not result["ok"]
    assert any("rolled back" in p for p in result["problems"])


def test_verify_checkpoint_fails_on_a_fork(log_home, tmp_path):
    checkpoint = tmp_path / "cp.txt"
    run_athar(log_home, "log", "checkpoint", "--out", str(checkpoint))
    # Same size, another history: the last event rewritten (so no later link breaks) and the head moved
    # along by someone holding the database.
    forged = hashlib.sha256(b"another history").hexdigest()
    with sqlite3.connect(log_home / "athar.sqlite3") as db:
        (seq,) = db.execute("SELECT max(seq) FROM audit_auditevent").fetchone()
        db.execute("UPDATE audit_auditevent SET data=?, hash=? WHERE seq=?", ('{"forged": true}', forged, seq))
        db.execute("UPDATE audit_audithead SET hash=? WHERE id=1", (forged,))
    proc = run_athar(log_home, "verify", "--checkpoint", str(checkpoint), "--json", check=False)
    result = last_json(proc)
    assert proc.returncode != 0
    assert any("fork" in p for p in result["checkpoints"][0]["problems"])


def test_a_partners_witness_cosigns_growth_and_refuses_a_fork(log_home, tmp_path):
    partner = tmp_path / "partner"  # the witness's own athar, with its own key and state
    key = tmp_path / "partner-witness.key"
    made = last_json(run_athar(partner, "log", "keygen", "--witness", "--name", "partner.example.org/witness",
                               "--out", str(key), "--json"))
    log_vkey = last_json(run_athar(log_home, "log", "key", "--json"))["vkey"]
    first = tmp_path / "cp1.txt"
    run_athar(log_home, "log", "checkpoint", "--out", str(first))
    cosigned1 = last_json(run_athar(partner, "log", "witness", "--checkpoint", str(first), "--log-key", log_vkey,
                                    "--key", str(key), "--out", str(tmp_path / "cosigned1.txt"), "--json"))
    assert cosigned1["first_seen"] is True

    run_athar(log_home, "export", "evidence", "--case", "1", str(tmp_path / "e1"))
    second = tmp_path / "cp2.txt"
    run_athar(log_home, "log", "checkpoint", "--out", str(second))
    without = run_athar(partner, "log", "witness", "--checkpoint", str(second), "--log-key", log_vkey,
                        "--key", str(key), "--json", check=False)
    assert without.returncode != 0 and "consistency proof from" in last_json(without)["error"]
    proof = tmp_path / "proof.json"
    run_athar(log_home, "log", "proof", "--old-size", str(cosigned1["size"]), "--checkpoint", str(second),
              "--out", str(proof))
    cosigned2 = last_json(run_athar(partner, "log", "witness", "--checkpoint", str(second), "--log-key", log_vkey,
                                    "--key", str(key), "--proof", str(proof), "--out",
                                    str(tmp_path / "cosigned2.txt"), "--json"))
    assert cosigned2["previous_size"] == cosigned1["size"]

    verified = last_json(run_athar(log_home, "verify", "--checkpoint", str(tmp_path / "cosigned2.txt"),
                                   "--witness-key", made["vkey"], "--json"))
    assert verified["ok"] and verified["checkpoints"][0]["witnesses"][0]["cosigned"] is True
    kept = last_json(run_athar(log_home, "log", "cosigned", str(tmp_path / "cosigned2.txt"), "--json"))
    assert Path(kept["kept"]).exists()
    if _debian_python_with_cryptography():  # the next export carries the cosigned checkpoint and its proof
        export = tmp_path / "e2"
        run_athar(log_home, "export", "evidence", "--case", "1", str(export), ATHAR_LOG_WITNESSES=made["vkey"])
        check = _export_checked(export)
        assert check.returncode == 0 and "Witness partner.example.org/witness cosigned" in check.stdout, check.stdout

    unsigned = last_json(run_athar(log_home, "verify", "--checkpoint", str(second), "--witness-key", made["vkey"],
                                   "--json"))
    assert unsigned["checkpoints"][0]["witnesses"][0]["cosigned"] is False

    # An older checkpoint (a rollback), then a rewritten history with a proof that cannot hold: both
    # refused, and the witness's state is unchanged.
    state = (partner / "witness" / "state.json").read_text()
    rolled = run_athar(partner, "log", "witness", "--checkpoint", str(first), "--log-key", log_vkey, "--key", str(key),
                       "--json", check=False)
    assert rolled.returncode != 0 and "rollback" in last_json(rolled)["error"]
    _sql(log_home, "UPDATE audit_auditevent SET hash = ? WHERE seq = 1", "f" * 64)
    forked = tmp_path / "forked.txt"
    run_athar(log_home, "log", "checkpoint", "--out", str(forked))
    forked_proof = tmp_path / "forked-proof.json"
    run_athar(log_home, "log", "proof", "--old-size", str(cosigned2["size"]), "--checkpoint", str(forked),
              "--out", str(forked_proof))
    refused = run_athar(partner, "log", "witness", "--checkpoint", str(forked), "--log-key", log_vkey,
                        "--key", str(key), "--proof", str(forked_proof), "--json", check=False)
    assert refused.returncode != 0 and "not an append-only extension" in last_json(refused)["error"]
    assert (partner / "witness" / "state.json").read_text() == state


def test_production_refuses_to_sign_without_a_log_key_file(tmp_path):
    strong = "k" * 20 + "Q9x" * 20
    proc = run_athar(tmp_path / "home", "log", "key", "--json", check=False, ATHAR_ENV="production",
                     ATHAR_SECRET_KEY=strong, ATHAR_DATA_KEY="A" * 43 + "=")
    assert proc.returncode != 0 and "ATHAR_LOG_KEY_FILE" in proc.stdout + proc.stderr


def _export_checked(out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(DEBIAN_PYTHON), "-I", str(out / "verify_evidence.py")], cwd="/", capture_output=True,
                          text=True, timeout=120)


@needs_debian_python
def test_evidence_export_verifies_offline_and_fails_after_one_byte_changes(log_home, tmp_path):
    out = tmp_path / "export"
    result = last_json(run_athar(log_home, "export", "evidence", "--facility", "215", str(out), "--json"))
    assert result["files"] == 4 and result["events_proven"] >= 5
    check = _export_checked(out)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "4 of 4 files" in check.stdout and "signed by the key" in check.stdout
    assert "Compare this key" in check.stdout
    assert "RESULT: every check holds." in check.stdout
    # The checkpoint in the export is one athar verify accepts too.
    assert last_json(run_athar(log_home, "verify", "--checkpoint", str(out / "proofs" / "checkpoint.txt"),
                               "--json"))["ok"]

    photo = next(p for p in (out / "files").rglob("*") if p.is_file())
    data = bytearray(photo.read_bytes())
    data[len(data) // 2] ^= 0x01
    photo.write_bytes(bytes(data))
    check = _export_checked(out)
    assert check.returncode == 1
    assert "was changed" in check.stdout and "RESULT: the export does NOT verify" in check.stdout


@needs_debian_python
def test_a_forged_event_in_an_export_fails_offline(log_home, tmp_path):
    out = tmp_path / "export"
    run_athar(log_home, "export", "evidence", "--case", "1", str(out))
    log = json.loads((out / "proofs" / "log.json").read_text())
    log["events"][0]["event"]["data"]["case"] = 999
    (out / "proofs" / "log.json").write_text(json.dumps(log))
    check = _export_checked(out)
    assert check.returncode == 1 and "altered" in check.stdout


@needs_debian_python
def test_a_forged_event_with_its_hash_recomputed_fails_the_inclusion_proof(log_home, tmp_path):
    out = tmp_path / "export"
    run_athar(log_home, "export", "evidence", "--case", "1", str(out))
    from athar.audit.verify_evidence import event_chain_hash
    log = json.loads((out / "proofs" / "log.json").read_text())
    event = log["events"][0]["event"]
    event["data"]["case"] = 999
    event["hash"] = event_chain_hash(event)
    (out / "proofs" / "log.json").write_text(json.dumps(log))
    check = _export_checked(out)
    assert check.returncode == 1 and "inclusion proof does not lead" in check.stdout, check.stdout
