"""Data keys: one per owner (a report's lineage), wrapped by the master key (``athar.core.crypto``).

Encrypting with a per-owner key makes erasure real: ``shred(owner)`` deletes the key row and every
ciphertext of that owner becomes unreadable, backups included. The primitives (sealing, the master
key) live in core; the key table is the registry's, so this module is too.
"""

from __future__ import annotations

import secrets

from athar.core.crypto import (
    KEY_BYTES,
    DecryptionError,
    key_id,
    master_key,
    seal,
    unseal,
)
from athar.registry.models import DataKey


def _data_key(owner_ref: str, create: bool) -> bytes | None:
    master = master_key()
    row = DataKey.objects.filter(owner_ref=owner_ref).first()
    if row is None:
        if not create:
            return None
        key = secrets.token_bytes(KEY_BYTES)
        wrapped = seal(master, key, b"data-key:" + owner_ref.encode())
        row, made = DataKey.objects.get_or_create(
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


def shred(owner_ref: str) -> bool:
    """Delete the owner's data key: its ciphertexts become unreadable. True when a key existed."""
    deleted, _ = DataKey.objects.filter(owner_ref=owner_ref).delete()
    return bool(deleted)
