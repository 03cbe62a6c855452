"""Encrypted backups: AES-256-GCM in 1 MiB frames (the STREAM construction), so a backup of any
size is encrypted while it is written and never held in memory.

The key is 32 bytes from ``ATHAR_BACKUP_KEY`` (base64 or hex) or the file named by
``ATHAR_BACKUP_KEY_FILE``; it is never in a backup and must be kept apart from them.

Format: ``MAGIC`` + a 7-byte random prefix, then frames ``flag(1) + length(4) + AES-GCM(chunk)``.
Each frame's nonce is prefix + frame number (4 bytes) + flag, with ``MAGIC`` as associated data:
a frame moved, dropped, altered or a stream cut short (no frame flagged last) does not decrypt.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.core.exceptions import ImproperlyConfigured

from athar.config import env_str
from athar.core.crypto import parse_master_key

MAGIC = b"athar-backup-encrypted/1\n"
FRAME = 1 << 20
PREFIX_BYTES = 7


class BackupKeyMissing(ValueError):
    """No backup key is configured (a clear message for ``athar backup``)."""


class BackupDecryptionError(ValueError):
    """Wrong key, or the encrypted backup was altered or cut short."""


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


def _nonce(prefix: bytes, index: int, last: bool) -> bytes:
    return prefix + index.to_bytes(4, "big") + (b"\x01" if last else b"\x00")


class EncryptingWriter:
    """A write-only file object (for ``tarfile.open(fileobj=..., mode="w|")``) that encrypts."""

    def __init__(self, raw: IO[bytes], key: bytes) -> None:
        self.raw, self.aead = raw, AESGCM(key)
        self.prefix = os.urandom(PREFIX_BYTES)
        self.buffer, self.index, self.closed = bytearray(), 0, False
        raw.write(MAGIC + self.prefix)

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
        return handle.read(len(MAGIC)) == MAGIC


def decrypt_file(source: Path, target: Path, key: bytes) -> None:
    """Decrypt an encrypted backup into ``target``; BackupDecryptionError (target removed) otherwise."""
    aead = AESGCM(key)
    try:
        with open(source, "rb") as src, open(target, "wb") as out:
            if src.read(len(MAGIC)) != MAGIC:
                raise BackupDecryptionError("not an encrypted athar backup")
            prefix, index, last = src.read(PREFIX_BYTES), 0, False
            while not last:
                header = src.read(5)
                if len(header) < 5:
                    raise BackupDecryptionError("the encrypted backup is cut short (incomplete copy?)")
                last, length = header[0] == 1, int.from_bytes(header[1:], "big")
                sealed = src.read(length)
                if len(sealed) < length:
                    raise BackupDecryptionError("the encrypted backup is cut short (incomplete copy?)")
                try:
                    out.write(aead.decrypt(_nonce(prefix, index, last), sealed, MAGIC))
                except InvalidTag:
                    raise BackupDecryptionError("the backup does not decrypt: wrong ATHAR_BACKUP_KEY, or the file "
                                                "was altered or damaged") from None
                index += 1
            if src.read(1):
                raise BackupDecryptionError("unexpected data after the end of the encrypted backup")
    except BaseException:
        target.unlink(missing_ok=True)
        raise
