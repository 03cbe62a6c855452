"""Data keys: one per owner (a report's lineage), wrapped by the master key (``athar.core.crypto``).

Encrypting with a per-owner key makes erasure real: ``shred(owner)`` deletes the key row and every
ciphertext of that owner becomes unreadable, backups included. The primitives (sealing, the master
key) live in core; the key table is the registry's, so this module is too.
"""

from __future__ import annotations

import secrets
from typing import Any

from athar.core.crypto import (
    KEY_BYTES,
    DecryptionError,
    key_id,
    master_key,
    seal,
    unseal,
)
from athar.registry.models import DataKey


def _data_key(owner_ref: str, create: bool, model: Any = None) -> bytes | None:
    """The owner's data key, unwrapped (``model``: the DataKey model of a migration's state)."""
    model = model or DataKey
    master = master_key()
    row = model.objects.filter(owner_ref=owner_ref).first()
    if row is None:
        if not create:
            return None
        key = secrets.token_bytes(KEY_BYTES)
        wrapped = seal(master, key, b"data-key:" + owner_ref.encode())
        row, made = model.objects.get_or_create(
            owner_ref=owner_ref, defaults={"wrapped_key": wrapped, "master_key_id": key_id(master)})
        if made:
            return key
    return unseal(master, bytes(row.wrapped_key), b"data-key:" + owner_ref.encode())


def encrypt_for(owner_ref: str, plaintext: str) -> bytes:
    """Encrypt text with the owner's data key (created on first use)."""
    key = _data_key(owner_ref, create=True)
    assert key is not None
    return seal(key, plaintext.encode("utf-8"), owner_ref.encode())


def decrypt_for(owner_ref: str, ciphertext: bytes) -> str:
    """Decrypt a value of this owner; DecryptionError once the owner's key is shredded."""
    key = _data_key(owner_ref, create=False)
    if key is None:
        raise DecryptionError(f"no data key for {owner_ref}: it was shredded (erased) or never made")
    return unseal(key, ciphertext, owner_ref.encode()).decode("utf-8")


def seal_bytes_for(owner_ref: str, data: bytes, context: str, model: Any = None) -> bytes:
    """Encrypt bytes (a family's photo) with the owner's data key (created on first use); ``context``
    (the file's name in its store) is bound in too, so a sealed file moved elsewhere does not open."""
    key = _data_key(owner_ref, create=True, model=model)
    assert key is not None
    return seal(key, data, _file_context(owner_ref, context))


def open_bytes_for(owner_ref: str, sealed: bytes, context: str, model: Any = None) -> bytes:
    """The bytes ``seal_bytes_for`` sealed; DecryptionError once the owner's key is shredded, or
    when the file was altered or moved."""
    key = _data_key(owner_ref, create=False, model=model)
    if key is None:
        raise DecryptionError(f"no data key for {owner_ref}: it was shredded (erased) or never made")
    return unseal(key, sealed, _file_context(owner_ref, context))


def _file_context(owner_ref: str, context: str) -> bytes:
    return b"file:" + owner_ref.encode() + b"\x00" + context.encode()


def shred(owner_ref: str) -> bool:
    """Delete the owner's data key: its ciphertexts become unreadable. True when a key existed."""
    deleted, _ = DataKey.objects.filter(owner_ref=owner_ref).delete()
    return bool(deleted)
