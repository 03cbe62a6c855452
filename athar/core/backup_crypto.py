"""Encrypted backups: AES-256-GCM in 1 MiB frames (the STREAM construction), so a backup of any
size is encrypted while it is written and never held in memory.

The key is 32 bytes from ``ATHAR_BACKUP_KEY`` (base64 or hex) or the file named by
``ATHAR_BACKUP_KEY_FILE``; it is never in a backup and must be kept apart from them.

Format 2: ``MAGIC`` + a 7-byte random prefix + a 16-byte key check (HMAC-SHA256 of the prefix
under the key), then frames ``flag(1) + length(4) + AES-GCM(chunk)``. Each frame's nonce is prefix
+ frame number (4 bytes) + flag, with ``MAGIC`` as associated data: a frame moved, dropped, altered
or a stream cut short (no frame flagged last) does not decrypt. The key check tells a wrong key
(refused before anything is decrypted) from an altered or damaged file (a frame that does not
authenticate under the right key) — AES-GCM alone cannot tell them apart. Format 1 (no key check)
is still read.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from pathlib import Path
from typing import IO

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.core.exceptions import ImproperlyConfigured

from athar.config import env_str
from athar.core.crypto import parse_master_key
from athar.core.errors import UserError

MAGIC = b"athar-backup-encrypted/2\n"
MAGIC_V1 = b"athar-backup-encrypted/1\n"  # before the key check: read, never written
FRAME = 1 << 20
PREFIX_BYTES = 7
CHECK_BYTES = 16


class BackupKeyMissing(UserError):
    """No backup key is configured (a clear message for ``athar backup``)."""


class BackupDecryptionError(UserError):
    """The encrypted backup was altered, damaged or cut short (or, format 1, the key may be wrong)."""


class WrongBackupKey(BackupDecryptionError):
    """The backup was encrypted with another key: the file may be intact."""


def backup_key() -> bytes | None:
    """The configured backup key, or None; a malformed or unreadable key is an error."""
    path = env_str("ATHAR_BACKUP_KEY_FILE")
    if path:
        try:
            text = Path(path).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ImproperlyConfigured(f"ATHAR_BACKUP_KEY_FILE cannot be read: {exc.strerror}") from exc
    else:
        text = env_str("ATHAR_BACKUP_KEY")
    if not text:
        return None
    try:
        return parse_master_key(text)
    except ImproperlyConfigured:
        raise ImproperlyConfigured("ATHAR_BACKUP_KEY must be 32 random bytes in base64 or hex. Generate one with: "
                                   "python -c 'import secrets,base64; print(base64.b64encode(secrets.token_bytes(32))"
                                   ".decode())'") from None


def require_backup_key() -> bytes:
    key = backup_key()
    if key is None:
        raise BackupKeyMissing("set ATHAR_BACKUP_KEY or ATHAR_BACKUP_KEY_FILE (32 random bytes, base64): backups "
                               "hold photos and personal data and are always encrypted (docs/deployment.md)")
    return key


def key_check(key: bytes, prefix: bytes) -> bytes:
    """What a backup stores to recognise its key without revealing it (HMAC of its random prefix)."""
    return hmac.new(key, b"athar-backup-key-check:" + prefix, hashlib.sha256).digest()[:CHECK_BYTES]


def _nonce(prefix: bytes, index: int, last: bool) -> bytes:
    return prefix + index.to_bytes(4, "big") + (b"\x01" if last else b"\x00")


class EncryptingWriter:
    """A write-only file object (for ``tarfile.open(fileobj=..., mode="w|")``) that encrypts."""

    def __init__(self, raw: IO[bytes], key: bytes) -> None:
        self.raw, self.aead = raw, AESGCM(key)
        self.prefix = os.urandom(PREFIX_BYTES)
        self.buffer, self.index, self.closed = bytearray(), 0, False
        raw.write(MAGIC + self.prefix + key_check(key, self.prefix))

    def write(self, data: bytes) -> int:
        self.buffer += data
        while len(self.buffer) > FRAME:
            self._frame(bytes(self.buffer[:FRAME]), last=False)
            del self.buffer[:FRAME]
        return len(data)

    def _frame(self, chunk: bytes, last: bool) -> None:
        sealed = self.aead.encrypt(_nonce(self.prefix, self.index, last), chunk, MAGIC)
        self.raw.write((b"\x01" if last else b"\x00") + len(sealed).to_bytes(4, "big") + sealed)
        self.index += 1

    def close(self) -> None:
        if not self.closed:
            self._frame(bytes(self.buffer), last=True)
            self.closed = True


def is_encrypted(path: Path) -> bool:
    with open(path, "rb") as handle:
        return handle.read(len(MAGIC)) in (MAGIC, MAGIC_V1)


def decrypt_file(source: Path, target: Path, key: bytes) -> None:
    """Decrypt an encrypted backup into ``target``; WrongBackupKey or BackupDecryptionError (target
    removed) otherwise."""
    try:
        with open(source, "rb") as src, open(target, "wb") as out:
            magic = src.read(len(MAGIC))
            if magic not in (MAGIC, MAGIC_V1):
                raise BackupDecryptionError("not an encrypted athar backup")
            prefix = src.read(PREFIX_BYTES)
            if magic == MAGIC and not hmac.compare_digest(src.read(CHECK_BYTES), key_check(key, prefix)):
                raise WrongBackupKey("wrong backup key: this backup was encrypted with another ATHAR_BACKUP_KEY "
                                     "(the file itself may be intact); set the key it was made with")
            _decrypt_frames(src, out, AESGCM(key), prefix, magic)
    except BaseException:
        target.unlink(missing_ok=True)
        raise


def _decrypt_frames(src: IO[bytes], out: IO[bytes], aead: AESGCM, prefix: bytes, magic: bytes) -> None:
    index, last = 0, False
    while not last:
        header = src.read(5)
        if len(header) < 5:
            raise BackupDecryptionError("the encrypted backup is cut short (incomplete copy?)")
        last, length = header[0] == 1, int.from_bytes(header[1:], "big")
        sealed = src.read(length)
        if len(sealed) < length:
            raise BackupDecryptionError("the encrypted backup is cut short (incomplete copy?)")
        try:
            out.write(aead.decrypt(_nonce(prefix, index, last), sealed, magic))
        except InvalidTag:
            if magic == MAGIC_V1:
                raise BackupDecryptionError("the backup does not decrypt: wrong ATHAR_BACKUP_KEY, or the file "
                                            "was altered or damaged") from None
            raise BackupDecryptionError(f"the backup was altered or damaged: part {index + 1} does not "
                                        "authenticate under its key (the key is right)") from None
        index += 1
    if src.read(1):
        raise BackupDecryptionError("unexpected data after the end of the encrypted backup")
