"""The key that signs the audit log's checkpoints, read from ``ATHAR_LOG_KEY_FILE`` — never from
the database, so whoever holds (or restores) the database cannot sign a checkpoint of a rewritten log.

Production refuses to start without it (system check ``athar.E116``); development, test and the
demo create ``ATHAR_HOME/log-signing-key`` on first use, named ``athar.local/<8 random hex>`` so two
data directories on one machine are two logs.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, register

from athar.core.errors import UserError
from athar.core.signed_note import ED25519, NoteError, Signer, Verifier, parse_signer

DEV_KEY_FILE = "log-signing-key"


def log_key_path() -> Path:
    """The configured key file, or the development one in ATHAR_HOME."""
    configured = str(getattr(settings, "ATHAR_LOG_KEY_FILE", "") or "")
    return Path(configured) if configured else Path(settings.ATHAR_HOME) / DEV_KEY_FILE


def write_private_key(path: Path, signer: Signer) -> None:
    """Write a private key file readable by its owner only; never overwrite one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError as exc:
        raise UserError(f"{path} already exists: athar never overwrites a key") from exc
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(signer.encode() + "\n")


def read_private_key(path: Path, what: str = "ATHAR_LOG_KEY_FILE") -> Signer:
    try:
        return parse_signer(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"{what} {path} cannot be read: {exc.strerror}") from exc
    except NoteError as exc:
        raise UserError(f"{what} {path} is not a signing key: {exc}") from exc


def log_signer() -> Signer:
    """The checkpoint signer; created in ATHAR_HOME outside production when none is configured."""
    inline = str(getattr(settings, "ATHAR_LOG_KEY", "") or "")
    if inline and not getattr(settings, "ATHAR_LOG_KEY_FILE", ""):
        try:
            return parse_signer(inline)
        except NoteError as exc:
            raise UserError(f"ATHAR_LOG_KEY is not a signing key: {exc}") from exc
    path = log_key_path()
    if settings.ATHAR_ENV == "production" and not getattr(settings, "ATHAR_LOG_KEY_FILE", ""):
        raise UserError("ATHAR_LOG_KEY_FILE is not set: in production athar signs the audit log's checkpoints "
                        "only with a key kept outside the database (docs/evidence.md)")
    if not path.exists() and not getattr(settings, "ATHAR_LOG_KEY_FILE", "") and settings.ATHAR_ENV != "production":
        signer = Signer.generate(f"athar.local/{secrets.token_hex(4)}", ED25519)
        with contextlib.suppress(UserError):  # another process created it first: read theirs
            write_private_key(path, signer)
    return read_private_key(path)


def log_verifier() -> Verifier:
    return log_signer().verifier


@register(Tags.security)
def check_log_key(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """``athar.E116``: production has a readable checkpoint key, outside the data directory's database."""
    configured = str(getattr(settings, "ATHAR_LOG_KEY_FILE", "") or "")
    if getattr(settings, "ATHAR_LOG_KEY", "") and not configured:
        try:
            log_signer()
        except UserError as exc:
            return [Error(str(exc), id="athar.E116")]
        return []
    if settings.ATHAR_ENV != "production" and not configured:
        return []
    if not configured:
        return [Error("ATHAR_LOG_KEY_FILE is not set: athar refuses to start in production without the key that "
                      "signs the audit log's checkpoints.",
                      hint="Create one with `athar log keygen --name example.org/athar --out FILE` on another "
                           "machine or as another user, and keep copies off this machine (docs/evidence.md).",
                      id="athar.E116")]
    try:
        read_private_key(Path(configured))
    except UserError as exc:
        return [Error(str(exc), id="athar.E116")]
    return []
