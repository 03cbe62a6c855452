"""A restore whose data key cannot open the store's personal data is refused (or, with
``--accept-unreadable``, says what stays unreadable); a wrong backup key is not a damaged backup.
SQLite and PostgreSQL, through the real command."""

from __future__ import annotations

import base64
import secrets
from pathlib import Path

import pytest

from tests.cli_helpers import last_json
from tests.security.test_backup import ENGINES, Site, sites  # noqa: F401 - fixture

OTHER_KEY = base64.b64encode(secrets.token_bytes(32)).decode()


def _with_contacts(site: Site, tmp_path: Path) -> None:
    csv = tmp_path / "reports.csv"
    csv.write_text("report_id,full_name_ar,reporter_contact\nK1,محمود السالم,+963 944 123 456\n"
                   "K2,سامر الحلبي,+963 955 000 111\n", encoding="utf-8")
    site.run("registry", "import", str(csv), "--source", "keys-test", "--json")


@pytest.mark.parametrize("sites", ENGINES, indirect=True)
def test_a_restore_with_another_data_key_is_refused_before_anything_is_written(sites, tmp_path):
    source, target = sites
    _with_contacts(source, tmp_path)
    source.run("backup", str(tmp_path / "b.tar.enc"))
    target.extra["ATHAR_DATA_KEY"] = OTHER_KEY
    refused = target.run("restore", str(tmp_path / "b.tar.enc"), "--json", check=False)
    error = last_json(refused)["error"]
    assert refused.returncode == 1 and "ATHAR_DATA_KEY" in error and "2 owners" in error, refused.stderr
    assert "--accept-unreadable" in error and "Traceback" not in refused.stderr
    target.extra["ATHAR_DATA_KEY"] = source.extra["ATHAR_DATA_KEY"]  # nothing was written: the right key restores
    assert last_json(target.run("restore", str(tmp_path / "b.tar.enc"), "--json"))["unreadable_data_keys"] == 0


@pytest.mark.parametrize("sites", ENGINES, indirect=True)
def test_accept_unreadable_restores_and_names_what_does_not_open(sites, tmp_path):
    source, target = sites
    _with_contacts(source, tmp_path)
    source.run("backup", str(tmp_path / "b.tar.enc"))
    target.extra["ATHAR_DATA_KEY"] = OTHER_KEY
    accepted = last_json(target.run("restore", str(tmp_path / "b.tar.enc"), "--accept-unreadable", "--json"))
    assert accepted["unreadable_data_keys"] == 2 and accepted["verify"]["ok"]
    plain = target.run("restore", str(tmp_path / "b.tar.enc"), "--accept-unreadable", "--force")
    assert "UNREADABLE" in plain.stdout and "2 owners" in plain.stdout


@pytest.mark.parametrize("sites", ["sqlite"], indirect=True)
def test_the_right_data_key_restores_without_a_flag(sites, tmp_path):
    source, target = sites
    _with_contacts(source, tmp_path)
    source.run("backup", str(tmp_path / "b.tar.enc"))
    restored = last_json(target.run("restore", str(tmp_path / "b.tar.enc"), "--json"))
    assert restored["unreadable_data_keys"] == 0 and restored["verify"]["ok"]


def test_a_wrong_backup_key_and_an_altered_backup_are_told_apart(tmp_path):
    site = Site(tmp_path / "s", None)
    site.run("user", "add", "--email", "reviewer@example.org", "--role", "reviewer", "--password-stdin",
             stdin="a long test password\n")
    site.run("backup", str(tmp_path / "b.tar.enc"))
    data = bytearray((tmp_path / "b.tar.enc").read_bytes())
    data[len(data) // 2] ^= 0x01
    (tmp_path / "altered.tar.enc").write_bytes(bytes(data))
    altered = Site(tmp_path / "t", None).run("restore", str(tmp_path / "altered.tar.enc"), "--json", check=False)
    assert altered.returncode == 1 and "altered or damaged" in last_json(altered)["error"]
    assert "wrong" not in last_json(altered)["error"] and "Traceback" not in altered.stderr
    wrong_site = Site(tmp_path / "u", None)
    wrong_site.extra["ATHAR_BACKUP_KEY"] = OTHER_KEY
    wrong = wrong_site.run("restore", str(tmp_path / "b.tar.enc"), "--json", check=False)
    assert wrong.returncode == 1 and last_json(wrong)["error"].startswith("wrong backup key")
    missing_site = Site(tmp_path / "v", None)
    missing_site.extra.pop("ATHAR_BACKUP_KEY")
    missing = missing_site.run("restore", str(tmp_path / "b.tar.enc"), "--json", check=False)
    assert missing.returncode == 1 and "ATHAR_BACKUP_KEY" in last_json(missing)["error"]
    assert "Traceback" not in missing.stderr and len(missing.stderr.strip().splitlines()) == 1
