"""The ``athar`` command contracts, exercised as a user would: a subprocess and a fresh store."""

import hashlib
import json
import os
import signal
import subprocess
import time
from pathlib import Path

from athar.archive.synthetic import make_archive
from tests.cli_helpers import ATHAR, athar_env, last_json, run_athar


def test_help_lists_commands_with_help_text(tmp_path):
    out = run_athar(tmp_path / "home", "--help").stdout
    for command in ("ingest", "archive stats", "verify", "export evidence", "demo", "serve", "user add"):
        assert command in out


def test_a_command_help_page_writes_nothing(tmp_path):
    """``athar demo --help`` only reads: no data directory, key, database or media appear."""
    home = tmp_path / "home"
    for args in (("demo", "--help"), ("claims", "review", "--help"), ("ingest", "-h")):
        proc = run_athar(home, *args)
        assert "usage: athar" in proc.stdout
        assert not home.exists(), f"athar {' '.join(args)} wrote {sorted(p.name for p in home.iterdir())}"


def test_ingest_on_a_missing_home_creates_the_store_and_prints_json(tmp_path):
    make_archive(tmp_path / "arc", cases_per_facility=2, photos_per_case=2, faulty=True)
    home = tmp_path / "missing" / "home"
    proc = run_athar(home, "ingest", str(tmp_path / "arc"), "--archive", "Test", "--no-faces", "--json")
    result = last_json(proc)
    assert set(result) >= {"archive", "files_seen", "photos_added", "duplicates", "near_duplicates", "cases",
                           "facilities", "rejected"}
    assert result["photos_added"] == 26 and result["cases"] == 11 and result["facilities"] == 5
    assert all(set(r) == {"path", "reason", "code", "params"} for r in result["rejected"])
    by_name = {r["path"].rsplit("/", 1)[-1]: r for r in result["rejected"]}  # the English text and its code
    assert by_name["truncated.jpg"]["code"] == "corrupt_image" and "truncated" in by_name["truncated.jpg"]["reason"]
    assert by_name["not-an-image.jpg"]["code"] == "not_an_image" and "not an image" in by_name["not-an-image.jpg"]["reason"]
    assert (home / "athar.sqlite3").exists()
    stats = last_json(run_athar(home, "archive", "stats", "--json"))
    assert stats["cases"] == 11 and len(stats["facilities"]) == 5


def test_failure_exits_non_zero_with_a_json_error(tmp_path):
    proc = run_athar(tmp_path / "home", "ingest", str(tmp_path / "nope"), "--archive", "X", "--no-faces",
                     "--json", check=False)
    assert proc.returncode != 0
    assert "not found" in last_json(proc)["error"]


def test_bad_pattern_is_refused_clearly(tmp_path):
    (tmp_path / "arc").mkdir()
    proc = run_athar(tmp_path / "home", "ingest", str(tmp_path / "arc"), "--archive", "X", "--no-faces",
                     "--pattern", r"(?P<case>\d+)", "--json", check=False)
    assert proc.returncode != 0 and "facility" in last_json(proc)["error"]


def test_verify_detects_an_altered_original_and_names_it(tmp_path):
    make_archive(tmp_path / "arc", facilities=("215",), cases_per_facility=1, photos_per_case=2)
    home = tmp_path / "home"
    run_athar(home, "ingest", str(tmp_path / "arc"), "--archive", "T", "--no-faces")
    assert last_json(run_athar(home, "verify", "--json"))["ok"] is True
    original = next((home / "media" / "originals").rglob("*"))
    while original.is_dir():
        original = next(original.iterdir())
    original.chmod(0o644)
    original.write_bytes(original.read_bytes() + b"x")
    proc = run_athar(home, "verify", "--json", check=False)
    result = last_json(proc)
    assert proc.returncode != 0 and not result["ok"]
    assert any("altered" in p and original.name in p for p in result["problems"])


def test_export_evidence_is_verifiable_with_sha256sum(tmp_path):
    make_archive(tmp_path / "arc", facilities=("215", "251"), cases_per_facility=2, photos_per_case=2)
    home = tmp_path / "home"
    run_athar(home, "ingest", str(tmp_path / "arc"), "--archive", "T", "--no-faces")
    out = tmp_path / "export"
    result = last_json(run_athar(home, "export", "evidence", "--facility", "251", str(out), "--json"))
    assert result["files"] == 4
    check = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=out, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    manifest = (out / "manifest.json").read_text()
    assert "audit_chain_head" in manifest and "photo.ingested" in manifest
    one = last_json(run_athar(home, "export", "evidence", "--case", "1", str(tmp_path / "one"), "--json"))
    assert one["files"] == 2


def _media_fingerprint(home: Path) -> dict[str, str]:
    return {str(p.relative_to(home)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in (home / "media" / "originals").rglob("*") if p.is_file()}


def test_kill_minus_nine_midway_then_resume_loses_and_doubles_nothing(tmp_path):
    archive = make_archive(tmp_path / "arc", cases_per_facility=60, photos_per_case=4, size=200, faulty=True)
    home = tmp_path / "home"
    run_athar(home, "archive", "stats")  # create the store first, so the kill lands in the ingest itself
    # Faces and numbers are read after every file is recorded: the kill lands in the files, which is the point.
    args = [*ATHAR, "ingest", str(archive.root), "--archive", "K", "--no-faces", "--no-numbers", "--workers", "1"]
    proc = subprocess.Popen(args, env=athar_env(home), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline and len(list((home / "media").rglob("*_thumb.jpg"))) < 300:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = len(list((home / "media").rglob("*_thumb.jpg")))
    assert 0 < partial < archive.photos, "the kill should land midway"
    result = last_json(run_athar(home, "ingest", str(archive.root), "--archive", "K", "--no-faces", "--no-numbers",
                                 "--json"))
    total = archive.photos + len(archive.faulty) - 1
    stats = last_json(run_athar(home, "archive", "stats", "--json"))
    assert stats["photos"] == total and stats["cases"] == 301
    assert result["photos_added"] + result["already_ingested"] == total
    assert len(_media_fingerprint(home)) == total
    assert last_json(run_athar(home, "verify", "--json"))["ok"] is True


def test_demo_builds_without_serving_and_prints_sign_in(tmp_path):
    proc = run_athar(tmp_path / "home", "demo", "--no-serve", "--json")
    result = last_json(proc)
    assert {a["role"] for a in result["accounts"]} == {"family", "caseworker", "reviewer", "archivist", "admin"}
    assert len(result["reviewers"]) == 2  # an identification needs two different reviewers
    assert result["archive"]["cases"] > 0
    contact = (tmp_path / "home" / "organisation-contact.txt").read_text(encoding="utf-8")
    assert "+963" in contact and oct((tmp_path / "home" / "organisation-contact.txt").stat().st_mode & 0o777) == "0o600"


def test_user_add_reads_password_from_stdin_and_enrols_totp(tmp_path):
    proc = run_athar(tmp_path / "home", "user", "add", "--phone", "+963 944 000 111", "--role", "reviewer",
                     "--password-stdin", "--totp", "--json", stdin="a long enough passphrase\n")
    result = last_json(proc)
    assert result["login"] == "+963944000111" and result["totp_uri"].startswith("otpauth://totp/")
    again = run_athar(tmp_path / "home", "user", "add", "--phone", "+963944000111", "--role", "family",
                      "--password-stdin", "--json", stdin="another long passphrase\n", check=False)
    assert again.returncode != 0 and "already exists" in last_json(again)["error"]


def test_api_token_lifecycle_from_the_command_line(tmp_path):
    home = tmp_path / "home"
    run_athar(home, "user", "add", "--phone", "+963 944 000 222", "--role", "family", "--password-stdin", "--json",
              stdin="a long enough passphrase\n")
    issued = last_json(run_athar(home, "api", "token", "--login", "+963944000222", "--name", "phone", "--days", "10",
                                 "--json"))
    assert issued["token"].startswith("athar_") and issued["expires_at"]
    listed = last_json(run_athar(home, "api", "tokens", "--login", "+963944000222", "--json"))
    assert [t["status"] for t in listed["tokens"]] == ["active"] and issued["token"] not in json.dumps(listed)
    revoked = last_json(run_athar(home, "api", "revoke", "--token-id", str(issued["token_id"]), "--json"))
    assert revoked["revoked"] == [issued["token_id"]]
    bad = run_athar(home, "api", "token", "--login", "+963944000222", "--name", "x", "--days", "9999", "--json",
                    check=False)
    assert bad.returncode != 0 and "valid for 1 to" in last_json(bad)["error"]


def test_production_refuses_to_start_without_secret_key(tmp_path):
    proc = run_athar(tmp_path / "home", "archive", "stats", check=False, ATHAR_ENV="production")
    assert proc.returncode != 0 and "ATHAR_SECRET_KEY" in proc.stderr
