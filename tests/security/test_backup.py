"""`athar backup` / `athar restore`: a round trip that `athar verify` accepts, on SQLite and PostgreSQL."""

from __future__ import annotations

import base64
import json
import secrets
import tarfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from athar.archive.synthetic import make_archive
from athar.core.backup_crypto import decrypt_file
from athar.ops.backup import backup_name, prune_backups
from tests.cli_helpers import last_json, run_athar
from tests.security.pg import pg_available, scratch_database

DATA_KEY = base64.b64encode(secrets.token_bytes(32)).decode()
BACKUP_KEY = base64.b64encode(secrets.token_bytes(32)).decode()
ENGINES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(not pg_available(),
                                                                       reason="PostgreSQL not reachable"))]


class Site:
    """One athar installation (home + database) driven through the real command."""

    def __init__(self, home: Path, database_url: str | None) -> None:
        self.home = home
        self.extra = {"ATHAR_DATA_KEY": DATA_KEY, "ATHAR_BACKUP_KEY": BACKUP_KEY} | (
            {"DATABASE_URL": database_url} if database_url else {})

    def run(self, *args: str, check: bool = True, stdin: str | None = None):
        return run_athar(self.home, *args, check=check, stdin=stdin, **self.extra)


@pytest.fixture
def sites(request, tmp_path):
    """Two empty sites on the engine under test: a source and a restore target."""
    if request.param == "sqlite":
        yield Site(tmp_path / "source", None), Site(tmp_path / "target", None)
        return
    with scratch_database("athar_bk_src") as source, scratch_database("athar_bk_dst") as target:
        yield Site(tmp_path / "source", source), Site(tmp_path / "target", target)


def _populate(site: Site, tmp_path: Path) -> dict:
    archive = make_archive(tmp_path / "archive", cases_per_facility=2, faulty=True)
    ingest = last_json(site.run("ingest", str(archive.root), "--archive", "Backup test", "--json"))
    site.run("user", "add", "--email", "reviewer@example.org", "--role", "reviewer", "--password-stdin",
             stdin="a long test password\n")
    # a family's report whose photo is the very bytes of an archive original: two stores, two files
    photo = next(p for p in sorted(archive.root.rglob("*.jpg")) if p.stat().st_size > 1000)
    (tmp_path / "alive.jpg").write_bytes(photo.read_bytes())
    (tmp_path / "reports.csv").write_text("report_id,full_name_ar,photos\nB1,محمود السالم,alive.jpg\n", encoding="utf-8")
    site.run("registry", "import", str(tmp_path / "reports.csv"), "--source", "org", "--json")
    return ingest


@pytest.mark.slow
@pytest.mark.parametrize("sites", ENGINES, indirect=True)
def test_round_trip_is_accepted_by_verify(sites, tmp_path):
    source, target = sites
    _populate(source, tmp_path)
    before = last_json(source.run("verify", "--json"))
    made = last_json(source.run("backup", str(tmp_path / "backup.tar"), "--json"))
    assert made["photos"] == before["originals"] and made["audit_events"] == before["audit_events"]
    restored = last_json(target.run("restore", str(tmp_path / "backup.tar"), "--json"))
    assert restored["verify"]["ok"], restored["verify"]["problems"]
    after = last_json(target.run("verify", "--json"))
    for key in ("originals", "derivatives", "audit_events", "audit_head"):
        assert after[key] == before[key], key
    assert before["stores"]["family_uploads"]["files"] == 3  # both stores travel with the backup
    assert after["stores"] == {name: {**store, "root": after["stores"][name]["root"]}
                               for name, store in before["stores"].items()}
    stats = [last_json(s.run("archive", "stats", "--json")) for s in (source, target)]
    assert stats[0] == stats[1]


@pytest.mark.slow
@pytest.mark.parametrize("sites", ["sqlite"], indirect=True)
def test_restore_refuses_a_home_with_data_unless_forced(sites, tmp_path):
    source, _ = sites
    _populate(source, tmp_path)
    source.run("backup", str(tmp_path / "b.tar"))
    refused = source.run("restore", str(tmp_path / "b.tar"), "--json", check=False)
    assert refused.returncode != 0 and "--force" in last_json(refused)["error"]
    forced = last_json(source.run("restore", str(tmp_path / "b.tar"), "--force", "--json"))
    assert forced["verify"]["ok"]


@pytest.mark.slow
@pytest.mark.parametrize("sites", ["sqlite"], indirect=True)
def test_an_altered_backup_is_refused_and_nothing_is_written(sites, tmp_path):
    source, target = sites
    _populate(source, tmp_path)
    source.run("backup", str(tmp_path / "b.tar"))
    plain = _decrypted(tmp_path / "b.tar", tmp_path / "plain.tar")  # an old, unencrypted backup restores too
    altered = tmp_path / "altered.tar"
    with tarfile.open(plain) as src, tarfile.open(altered, "w") as dst:
        for member in src:
            data = src.extractfile(member).read()
            if member.name.startswith("media/originals/") and b"altered" not in data:
                data = data[:-1] + bytes([data[-1] ^ 1]) if data else b"x"
                member.size = len(data)
            import io

            dst.addfile(member, io.BytesIO(data))
    proc = target.run("restore", str(altered), "--json", check=False)
    assert proc.returncode != 0 and "does not match its manifest" in last_json(proc)["error"]
    assert not any((target.home / "media").rglob("*.jpg")) if (target.home / "media").exists() else True


def _decrypted(source: Path, target: Path) -> Path:
    decrypt_file(source, target, base64.b64decode(BACKUP_KEY))
    return target


def test_a_backup_is_encrypted_and_needs_its_key(tmp_path):
    site = Site(tmp_path / "s", None)
    site.run("user", "add", "--email", "reviewer@example.org", "--role", "reviewer", "--password-stdin",
             stdin="a long test password\n")
    made = last_json(site.run("backup", str(tmp_path / "b.tar.enc"), "--json"))
    data = (tmp_path / "b.tar.enc").read_bytes()
    assert made["encrypted"] is True and data.startswith(b"athar-backup-encrypted/2")
    for clear in (b"SQLite format 3", b"manifest.json", b"reviewer@example.org", b"ustar"):
        assert clear not in data
    target = Site(tmp_path / "t", None)
    target.extra["ATHAR_BACKUP_KEY"] = base64.b64encode(secrets.token_bytes(32)).decode()
    wrong = target.run("restore", str(tmp_path / "b.tar.enc"), "--json", check=False)
    assert wrong.returncode == 1 and last_json(wrong)["error"].startswith("wrong backup key")
    assert "Traceback" not in wrong.stderr
    (tmp_path / "cut.tar.enc").write_bytes(data[: len(data) // 2])
    cut = Site(tmp_path / "u", None).run("restore", str(tmp_path / "cut.tar.enc"), "--json", check=False)
    assert cut.returncode != 0 and "cut short" in last_json(cut)["error"]
    restored = last_json(Site(tmp_path / "v", None).run("restore", str(tmp_path / "b.tar.enc"), "--json"))
    assert restored["encrypted"] and restored["verify"]["ok"]


def test_no_backup_without_a_key(tmp_path):
    site = Site(tmp_path / "s", None)
    site.extra.pop("ATHAR_BACKUP_KEY")
    proc = site.run("backup", str(tmp_path / "b.tar.enc"), "--json", check=False)
    assert proc.returncode != 0 and "ATHAR_BACKUP_KEY" in last_json(proc)["error"]
    assert not list(tmp_path.glob("b.tar*"))


def test_pg_dump_errors_are_reported(tmp_path, monkeypatch):
    from athar.ops import backup

    tool = tmp_path / "pg_dump"
    tool.write_text("#!/bin/sh\necho 'pg_dump: error: connection to server failed: FATAL: no such role' >&2\nexit 1\n")
    tool.chmod(0o700)
    monkeypatch.setattr(backup, "engine", lambda: "postgresql")
    monkeypatch.setattr(backup, "_pg_tool", lambda name: str(tool))
    monkeypatch.setattr(backup, "_pg_env", lambda: {})
    with pytest.raises(backup.BackupError, match="pg_dump failed .*no such role"):
        backup.dump_database(tmp_path)


def test_a_foreign_or_truncated_file_is_refused(tmp_path):
    site = Site(tmp_path / "t", None)
    (tmp_path / "junk.tar").write_bytes(b"not a tar file at all" * 100)
    proc = site.run("restore", str(tmp_path / "junk.tar"), "--json", check=False)
    assert proc.returncode != 0 and last_json(proc)["ok"] is False


def test_a_backup_never_overwrites_a_file(tmp_path):
    site = Site(tmp_path / "s", None)
    (tmp_path / "exists.tar").write_bytes(b"keep me")
    proc = site.run("backup", str(tmp_path / "exists.tar"), "--json", check=False)
    assert proc.returncode != 0 and (tmp_path / "exists.tar").read_bytes() == b"keep me"


def test_backup_into_a_folder_names_it_by_date_and_prunes_by_retention(tmp_path):
    site = Site(tmp_path / "s", None)
    folder = tmp_path / "backups"
    folder.mkdir()
    old = folder / backup_name(datetime.now(UTC) - timedelta(days=40))
    old.write_bytes(b"old")
    result = last_json(site.run("backup", str(folder), "--retention-days", "30", "--json"))
    assert Path(result["backup"]).parent == folder and result["pruned"] == [old.name]
    assert not old.exists() and Path(result["backup"]).exists()
    assert oct(Path(result["backup"]).stat().st_mode & 0o777) == "0o600"


def test_the_manifest_lists_every_member_with_its_hash(tmp_path):
    site = Site(tmp_path / "s", None)
    _populate(site, tmp_path)
    site.run("backup", str(tmp_path / "b.tar"))
    with tarfile.open(_decrypted(tmp_path / "b.tar", tmp_path / "plain.tar")) as tar:
        names = tar.getnames()
        manifest = json.loads(tar.extractfile("manifest.json").read())
    assert names[-1] == "manifest.json" and names[0] == "database/athar.sqlite3"
    assert {m["name"] for m in manifest["members"]} == set(names[:-1])
    assert all(len(m["sha256"]) == 64 for m in manifest["members"])
    assert not any("data-key" in n or "secret-key" in n for n in names)  # keys never travel with backups


def test_prune_ignores_other_files(tmp_path):
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "athar-backup-garbage.tar").write_text("x")
    assert prune_backups(tmp_path, 0) == []
