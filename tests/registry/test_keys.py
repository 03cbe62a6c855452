"""Envelope encryption of contact details: round trip, shredding, tampering, configuration."""

from __future__ import annotations

import base64
import secrets
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from athar.core import crypto
from athar.core.crypto import DecryptionError
from athar.registry import keys
from athar.registry.models import DataKey

pytestmark = pytest.mark.django_db


def test_round_trip_with_arabic_text() -> None:
    secret = "هاتف أم محمد: +963 944 123 456"
    sealed = keys.encrypt_for("report-lineage:abc", secret)
    assert secret.encode() not in sealed
    assert keys.decrypt_for("report-lineage:abc", sealed) == secret


def test_one_wrapped_data_key_per_owner() -> None:
    keys.encrypt_for("report-lineage:one", "a")
    keys.encrypt_for("report-lineage:one", "b")
    keys.encrypt_for("report-lineage:two", "c")
    assert DataKey.objects.count() == 2
    row = DataKey.objects.get(owner_ref="report-lineage:one")
    assert len(bytes(row.wrapped_key)) == 1 + 12 + 32 + 16  # format, nonce, key, tag


def test_shred_makes_ciphertext_unreadable() -> None:
    sealed = keys.encrypt_for("report-lineage:gone", "0933 000 000")
    assert keys.shred("report-lineage:gone") is True
    with pytest.raises(DecryptionError, match="shredded"):
        keys.decrypt_for("report-lineage:gone", sealed)
    assert keys.shred("report-lineage:gone") is False


def test_ciphertext_moved_to_another_owner_does_not_decrypt() -> None:
    sealed = keys.encrypt_for("report-lineage:a", "secret")
    keys.encrypt_for("report-lineage:b", "other")
    with pytest.raises(DecryptionError):
        keys.decrypt_for("report-lineage:b", sealed)


def test_altered_ciphertext_is_refused() -> None:
    sealed = bytearray(keys.encrypt_for("report-lineage:x", "secret"))
    sealed[-1] ^= 1
    with pytest.raises(DecryptionError, match="altered"):
        keys.decrypt_for("report-lineage:x", bytes(sealed))


def test_parse_master_key_accepts_base64_and_hex_only() -> None:
    key = secrets.token_bytes(32)
    assert crypto.parse_master_key(base64.b64encode(key).decode()) == key
    assert crypto.parse_master_key(base64.urlsafe_b64encode(key).decode().rstrip("=")) == key
    assert crypto.parse_master_key(key.hex()) == key
    with pytest.raises(ImproperlyConfigured):
        crypto.parse_master_key("too-short")


def test_production_refuses_to_start_without_a_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("ATHAR_DATA_KEY", raising=False)
    monkeypatch.delenv("ATHAR_DATA_KEY_FILE", raising=False)
    with pytest.raises(ImproperlyConfigured, match="refuses to start in production"):
        crypto.load_master_key("production", tmp_path)


def test_system_check_reports_missing_key_in_production(monkeypatch: pytest.MonkeyPatch, settings) -> None:
    monkeypatch.delenv("ATHAR_DATA_KEY", raising=False)
    monkeypatch.delenv("ATHAR_DATA_KEY_FILE", raising=False)
    settings.ATHAR_ENV = "production"
    errors = crypto.check_master_key()
    assert [e.id for e in errors] == ["athar.E001"]  # type: ignore[attr-defined]
    monkeypatch.setenv("ATHAR_DATA_KEY", base64.b64encode(secrets.token_bytes(32)).decode())
    assert crypto.check_master_key() == []


def test_key_file_and_development_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    key = secrets.token_bytes(32)
    path = tmp_path / "data-key"
    path.write_text(key.hex())
    monkeypatch.setenv("ATHAR_DATA_KEY_FILE", str(path))
    assert crypto.load_master_key("production", tmp_path) == key
    monkeypatch.delenv("ATHAR_DATA_KEY_FILE")
    monkeypatch.delenv("ATHAR_DATA_KEY", raising=False)
    home = tmp_path / "home"
    first = crypto.load_master_key("development", home)
    assert crypto.load_master_key("development", home) == first  # kept in ATHAR_HOME
    assert (home / crypto.DEV_KEY_FILE).stat().st_mode & 0o077 == 0


def test_wrong_master_key_cannot_unwrap(monkeypatch: pytest.MonkeyPatch) -> None:
    sealed = keys.encrypt_for("report-lineage:k", "secret")
    monkeypatch.setenv("ATHAR_DATA_KEY", base64.b64encode(secrets.token_bytes(32)).decode())
    with pytest.raises(DecryptionError):
        keys.decrypt_for("report-lineage:k", sealed)
