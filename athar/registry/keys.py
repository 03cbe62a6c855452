"""Data keys: one per owner (a report's lineage), wrapped by the master key (``athar.core.crypto``).

Encrypting with a per-owner key makes erasure real: ``shred(owner)`` deletes the key row and every
ciphertext of that owner becomes unreadable, backups included. The primitives (sealing, the master
key) live in core; the key table is the registry's, so this module is too.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.db.models import Count
from django.utils import timezone

from athar.core.crypto import (
    KEY_BYTES,
    DecryptionError,
    key_id,
    master_key,
    seal,
    sealer,
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


def data_keys(owner_refs: Iterable[str]) -> dict[str, bytes]:
    """The data keys of many owners at once, created where missing (an import's chunk).

    One query reads the keys that exist, one INSERT … ON CONFLICT DO NOTHING (``executemany``, not
    the ORM: a model instance per key was a sixth of an import's time) adds the missing ones; a key
    another writer created in between wins and is read back, exactly as ``_data_key``'s
    ``get_or_create`` does for one owner. Keys stay one per owner: shredding an owner still makes
    its values unreadable.
    """
    wanted = sorted(set(owner_refs))
    if not wanted:
        return {}
    master = master_key()
    found = _unwrap(master, _stored(wanted))
    missing = [o for o in wanted if o not in found]
    if missing:
        fresh = {o: secrets.token_bytes(KEY_BYTES) for o in missing}
        wrap = sealer(master)
        wrapped = {o: wrap(k, b"data-key:" + o.encode()) for o, k in fresh.items()}
        if _insert_new(wrapped, key_id(master)) == len(missing):
            found.update(fresh)
            return found
        for owner, stored in _stored(missing):
            found[owner] = fresh[owner] if bytes(stored) == wrapped[owner] else unseal(
                master, bytes(stored), b"data-key:" + owner.encode())
    return found


def _stored(owners: list[str]) -> list[tuple[str, bytes]]:
    """(owner, wrapped key) of the owners that have a key: plain SQL, since the ORM's ``__in``
    prepares each of a chunk's thousands of values on its own."""
    table = connection.ops.quote_name(DataKey._meta.db_table)
    rows: list[tuple[str, bytes]] = []
    with connection.cursor() as cursor:
        for start in range(0, len(owners), 1000):
            part = owners[start:start + 1000]
            cursor.execute(f"SELECT owner_ref, wrapped_key FROM {table} WHERE owner_ref IN "
                           f"({', '.join(['%s'] * len(part))})", part)
            rows.extend((owner, bytes(wrapped)) for owner, wrapped in cursor.fetchall())
    return rows


def _insert_new(wrapped: dict[str, bytes], master_id: str) -> int:
    """Insert keys, skipping owners that have one already; the rows written (-1 when unknown)."""
    table = connection.ops.quote_name(DataKey._meta.db_table)
    created = DataKey._meta.get_field("created_at").get_db_prep_save(timezone.now(), connection)
    sql = (f"INSERT INTO {table} (owner_ref, wrapped_key, master_key_id, created_at) VALUES (%s, %s, %s, %s) "
           "ON CONFLICT (owner_ref) DO NOTHING")
    with connection.cursor() as cursor:
        cursor.executemany(sql, [(owner, key, master_id, created) for owner, key in wrapped.items()])
        return cursor.rowcount


def _unwrap(master: bytes, rows: Iterable[tuple[str, bytes | memoryview]]) -> dict[str, bytes]:
    return {owner: unseal(master, bytes(wrapped), b"data-key:" + owner.encode()) for owner, wrapped in rows}


def encrypt_with(key: bytes, owner_ref: str, plaintext: str) -> bytes:
    """Encrypt text with an owner's key from ``data_keys`` (the same ciphertext as ``encrypt_for``)."""
    return seal(key, plaintext.encode("utf-8"), owner_ref.encode())


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


def holds(owner_ref: str) -> bool:
    """Whether the owner has a data key: something of theirs is encrypted, and shredding it makes
    that unreadable. False for an owner nothing was ever encrypted for."""
    return DataKey.objects.filter(owner_ref=owner_ref).exists()


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
