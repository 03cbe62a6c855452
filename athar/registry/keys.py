"""Data keys: one per owner (a report's lineage), wrapped by the master key (``athar.core.crypto``).

Encrypting with a per-owner key makes erasure real: ``shred(owner)`` deletes the key row and every
ciphertext of that owner becomes unreadable, backups included. The primitives (sealing, the master
key) live in core; the key table is the registry's, so this module is too.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db.models import Count

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


def data_key_summary() -> dict[str, Any]:
    """How many data keys the store holds and which master keys wrapped them (fingerprints only):
    written into a backup's manifest so a restore can tell, before touching anything, whether the
    configured ``ATHAR_DATA_KEY`` will open the personal data."""
    ids = dict(DataKey.objects.values("master_key_id").annotate(n=Count("id")).values_list("master_key_id", "n"))
    return {"count": sum(ids.values()), "by_master_key": dict(sorted(ids.items()))}


def unreadable_count(summary: dict[str, Any] | None = None) -> int:
    """Data keys the configured master key cannot open — the owners whose contact details, notes and
    uploads would read as nothing. From a manifest's ``summary``, or from the store itself, where
    one key of each master-key fingerprint is actually unwrapped (a fingerprint alone can lie)."""
    current = key_id(master_key())
    if summary is not None:
        return sum(int(n) for fingerprint, n in summary.get("by_master_key", {}).items() if fingerprint != current)
    unreadable = 0
    for fingerprint, n in DataKey.objects.values("master_key_id").annotate(n=Count("id")).values_list(
            "master_key_id", "n"):
        row = DataKey.objects.filter(master_key_id=fingerprint).first()
        try:
            ok = fingerprint == current and row is not None and bool(
                unseal(master_key(), bytes(row.wrapped_key), b"data-key:" + row.owner_ref.encode()))
        except DecryptionError:
            ok = False
        unreadable += 0 if ok else n
    return unreadable
