"""Envelope encryption for the most sensitive fields (a reporter's contact details).

- The **master key** (32 bytes) comes from ``ATHAR_DATA_KEY`` (base64 or hex) or the file named
  by ``ATHAR_DATA_KEY_FILE``. Production refuses to start without one (system check
  ``athar.E001``); development and tests generate one and keep it in ``ATHAR_HOME``.
- Each owner (``"report-lineage:<lineage>"``) has its own random **data key**, stored only wrapped
  by the master key (AES-256-GCM) in a ``DataKey`` row.
- Values are encrypted with the owner's data key (AES-256-GCM, the owner reference as
  associated data, so a ciphertext moved to another owner does not decrypt).
- **Crypto-shredding**: ``shred(owner)`` deletes the DataKey row; every ciphertext of that owner
  becomes unreadable, in the database and in every backup taken after the master key rotates.

Format of a ciphertext: ``b"\\x01" + nonce(12) + AES-GCM(ciphertext + tag)``.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import os
import secrets
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.apps import AppConfig
from django.conf import settings
from django.core.checks import CheckMessage, Error
from django.core.exceptions import ImproperlyConfigured

from athar.config import env_str

FORMAT_VERSION = b"\x01"
NONCE_BYTES = 12
KEY_BYTES = 32
DEV_KEY_FILE = "development-data-key"


class DecryptionError(ValueError):
    """A value cannot be decrypted: its key was shredded, or it was altered or moved."""


def parse_master_key(text: str) -> bytes:
    """32 bytes from base64 (standard or URL-safe) or 64 hex digits; anything else is refused."""
    value = text.strip()
    candidates: list[bytes] = []
    if len(value) == 2 * KEY_BYTES:
        with contextlib.suppress(ValueError):  # not hex: the base64 readings below may still fit
            candidates.append(bytes.fromhex(value))
    for decoder in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            candidates.append(decoder(value + "=" * (-len(value) % 4)))
        except (binascii.Error, ValueError):
            continue
    for key in candidates:
        if len(key) == KEY_BYTES:
            return key
    raise ImproperlyConfigured(
        "ATHAR_DATA_KEY must be 32 random bytes in base64 or hex. Generate one with: "
        "python -c 'import secrets,base64; print(base64.b64encode(secrets.token_bytes(32)).decode())'"
    )


def _configured_key_text() -> str:
    path = env_str("ATHAR_DATA_KEY_FILE")
    if path:
        try:
            return Path(path).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ImproperlyConfigured(f"ATHAR_DATA_KEY_FILE cannot be read: {exc.strerror}") from exc
    return env_str("ATHAR_DATA_KEY")


def load_master_key(environment: str, home: Path) -> bytes:
    """The master key: required in production; generated and kept in ``home`` otherwise."""
    text = _configured_key_text()
    if text:
        return parse_master_key(text)
    if environment == "production":
        raise ImproperlyConfigured(
            "ATHAR_DATA_KEY (or ATHAR_DATA_KEY_FILE) is not set: athar refuses to start in production "
            "without the key that protects reporters' contact details."
        )
    return _development_key(home)


def _development_key(home: Path) -> bytes:
    path = home / DEV_KEY_FILE
    if path.exists():
        return parse_master_key(path.read_text(encoding="utf-8"))
    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = secrets.token_bytes(KEY_BYTES)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(base64.b64encode(key).decode())
    return key


def key_id(key: bytes) -> str:
    """A short fingerprint of a key (to tell which master key wrapped a data key)."""
    return hashlib.sha256(b"athar-key-id" + key).hexdigest()[:16]


def master_key() -> bytes:
    """The master key for this process's settings (read once per configuration)."""
    return _cached_master_key(settings.ATHAR_ENV, str(settings.ATHAR_HOME), _configured_key_text())


@lru_cache(maxsize=8)
def _cached_master_key(environment: str, home: str, configured: str) -> bytes:
    return load_master_key(environment, Path(home))


def seal(key: bytes, plaintext: bytes, associated: bytes) -> bytes:
    """AES-256-GCM with a random nonce, in athar's ciphertext format."""
    return sealer(key)(plaintext, associated)


def sealer(key: bytes) -> Callable[[bytes, bytes], bytes]:
    """``seal`` with one key prepared once (the key schedule), for many values (an import's keys)."""
    aead = AESGCM(key)

    def sealed(plaintext: bytes, associated: bytes) -> bytes:
        nonce = secrets.token_bytes(NONCE_BYTES)
        return FORMAT_VERSION + nonce + aead.encrypt(nonce, plaintext, associated)

    return sealed


def unseal(key: bytes, ciphertext: bytes, associated: bytes) -> bytes:
    """The plaintext of ``seal``; DecryptionError for an altered, moved or foreign value."""
    data = bytes(ciphertext)
    if not data.startswith(FORMAT_VERSION) or len(data) < 1 + NONCE_BYTES + 16:
        raise DecryptionError("not an athar ciphertext")
    nonce, body = data[1:1 + NONCE_BYTES], data[1 + NONCE_BYTES:]
    try:
        return AESGCM(key).decrypt(nonce, body, associated)
    except InvalidTag as exc:
        raise DecryptionError("the value was altered, moved to another owner, or its key changed") from exc


def check_master_key(app_configs: Sequence[AppConfig] | None = None, **kwargs: Any) -> list[CheckMessage]:
    """Django system check ``athar.E001``: the data key is present (and valid) in production."""
    if settings.ATHAR_ENV != "production" and not _configured_key_text():
        return []
    try:
        load_master_key(settings.ATHAR_ENV, Path(settings.ATHAR_HOME))
    except ImproperlyConfigured as exc:
        return [Error(str(exc), id="athar.E001")]
    return []
