"""``athar backup`` and ``athar restore``: the database and the media store in one tar archive.

Layout of a backup (uncompressed tar: photos are JPEGs already; members in this order):

- ``database/athar.sqlite3`` (SQLite, copied with the online backup API: a consistent snapshot
  while athar keeps running) or ``database/athar.pgdump`` (PostgreSQL, ``pg_dump --format=custom``);
- ``media/…`` the evidence store (every archive original, derivative and face crop); ``uploads/…``
  the family uploads store (photos of the person alive, sealed with their report's data key: a
  backup restored without the data key holds them unreadable); ``indexes/…`` the face indexes;
- ``manifest.json`` last: format, engine, time, audit chain head, counts, and the size and sha256
  of every member, so a restore refuses a damaged or altered backup.

The database is dumped before the media is read: every file the dumped rows name already exists
(the store only adds files), so the restored pair is consistent. A backup is written under a
temporary name and renamed when complete: there is never half a backup under a final name.
The archive is always encrypted (``athar.core.backup_crypto``: AES-256-GCM frames, key from
``ATHAR_BACKUP_KEY`` / ``ATHAR_BACKUP_KEY_FILE``) while it is written; restore decrypts it into
the private staging folder first. The data key (``ATHAR_DATA_KEY``), the secret key and the
backup key are never in a backup: keep them apart.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.db import connection, connections

from athar import __version__
from athar.archive.models import Derivative, Photo
from athar.audit.chain import chain_head
from athar.audit.models import AuditEvent
from athar.core.backup_crypto import (
    EncryptingWriter,
    decrypt_file,
    is_encrypted,
    require_backup_key,
)
from athar.core.errors import UserError
from athar.registry.keys import data_key_summary, unreadable_count

FORMAT = "athar-backup/1"
MANIFEST = "manifest.json"
CHUNK = 1 << 20
BACKUP_GLOB = "athar-backup-*.tar*"
Progress = Callable[[int], None]


class BackupError(UserError):
    """A backup cannot be made or restored; the message says why and what to do."""


# ---- shared -------------------------------------------------------------------------------------

def engine() -> str:
    """``sqlite`` or ``postgresql`` (the only engines athar backs up natively)."""
    vendor = connection.vendor
    if vendor not in ("sqlite", "postgresql"):
        raise BackupError(f"backups support SQLite and PostgreSQL, not {vendor}")
    return vendor


def _pg_env() -> dict[str, str]:
    """libpq environment for pg_dump/pg_restore: the password never appears in a process list."""
    db = settings.DATABASES["default"]
    env = dict(os.environ)
    for key, name in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"), ("PASSWORD", "PGPASSWORD"),
                      ("NAME", "PGDATABASE")):
        if db.get(key):
            env[name] = str(db[key])
    return env


def _pg_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BackupError(f"{name} is not installed (PostgreSQL client tools, e.g. apt-get install postgresql-client)")
    return path


class _HashingReader:
    """Wraps a file: whatever tarfile reads is hashed on the way."""

    def __init__(self, handle: IO[bytes]) -> None:
        self.handle, self.digest = handle, hashlib.sha256()

    def read(self, size: int = -1) -> bytes:
        data = self.handle.read(size)
        self.digest.update(data)
        return data


def _files(root: Path) -> Iterator[Path]:
    """Regular files under root, sorted, without the temporary files of atomic writes."""
    if not root.is_dir():
        return
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink() and not path.name.startswith(".tmp-"):
            yield path


def _folders() -> tuple[tuple[str, Path], ...]:
    """The folders a backup carries, by their prefix in the archive: the evidence store, the family
    uploads store, the face indexes."""
    return (("media", Path(settings.MEDIA_ROOT)), ("uploads", Path(settings.UPLOADS_ROOT)),
            ("indexes", Path(settings.INDEX_ROOT)))


# ---- backup -------------------------------------------------------------------------------------

def dump_database(work: Path) -> Path:
    """A consistent copy of the database in ``work``."""
    if engine() == "sqlite":
        target = work / "athar.sqlite3"
        source = sqlite3.connect(f"file:{settings.DATABASES['default']['NAME']}?mode=ro", uri=True, timeout=60)
        copy = sqlite3.connect(target)
        try:
            source.backup(copy, pages=4096)
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            copy.close()
            source.close()
        return target
    target = work / "athar.pgdump"
    result = subprocess.run([_pg_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", "--file",
                             str(target)], env=_pg_env(), capture_output=True, text=True)
    if result.returncode != 0:
        raise BackupError(f"pg_dump failed (exit {result.returncode}): {result.stderr.strip()[-2000:] or 'no message'}")
    return target


def _add(tar: tarfile.TarFile, path: Path, name: str) -> dict[str, Any]:
    info = tar.gettarinfo(str(path), arcname=name)
    if info.islnk():  # a hard link of a file already added (ingest links identical derivatives):
        # stored as a file of its own, so that every member is checked and restored the same way
        info.type, info.linkname, info.size = tarfile.REGTYPE, "", path.stat().st_size
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    with open(path, "rb") as handle:
        reader = _HashingReader(handle)
        tar.addfile(info, reader)
    return {"name": name, "size": info.size, "sha256": reader.digest.hexdigest()}


def _summary_counts() -> dict[str, Any]:
    return {"photos": Photo.objects.count(), "derivatives": Derivative.objects.count(),
            "audit_events": AuditEvent.objects.count(), "audit_head": chain_head(),
            "data_keys": data_key_summary()}


def backup_name(now: datetime | None = None) -> str:
    now = now or datetime.now(UTC)
    return f"athar-backup-{now:%Y%m%dT%H%M%SZ}.tar.enc"


def make_backup(out: Path, progress: Progress | None = None) -> dict[str, Any]:
    """Write one backup archive at ``out`` (a new file, or a new file inside a folder)."""
    key = require_backup_key()  # before anything is dumped: a backup is never written in clear
    out = out / backup_name() if out.is_dir() else out
    if out.exists():
        raise BackupError(f"{out} exists: choose a new file name")
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    counts = _summary_counts()
    partial = out.with_name(out.name + ".partial")
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=".athar-backup-") as work, \
            open(partial, "wb") as raw:
        database = dump_database(Path(work))
        db_seconds = time.monotonic() - started
        members = []
        sealed = EncryptingWriter(raw, key)
        with tarfile.open(fileobj=sealed, mode="w|", format=tarfile.PAX_FORMAT) as tar:  # type: ignore[call-overload]
            members.append(_add(tar, database, f"database/{database.name}"))
            for prefix, root in _folders():
                for path in _files(root):
                    members.append(_add(tar, path, f"{prefix}/{path.relative_to(root).as_posix()}"))
                    if progress:
                        progress(1)
            manifest = {
                "format": FORMAT, "created_at": datetime.now(UTC).isoformat(), "athar_version": __version__,
                "engine": engine(), "database": f"database/{database.name}", **counts, "members": members,
            }
            data = json.dumps(manifest, indent=1, sort_keys=True).encode("utf-8")
            info = tarfile.TarInfo(MANIFEST)
            info.size, info.mtime = len(data), int(time.time())
            tar.addfile(info, _BytesReader(data))
        sealed.close()
        raw.flush()
        os.fsync(raw.fileno())
    os.replace(partial, out)
    out.chmod(0o600)
    return {"backup": str(out), "encrypted": True, "engine": manifest["engine"], "members": len(members),
            "bytes": out.stat().st_size, "photos": counts["photos"], "audit_events": counts["audit_events"],
            "database_seconds": round(db_seconds, 2), "seconds": round(time.monotonic() - started, 2)}


class _BytesReader:
    def __init__(self, data: bytes) -> None:
        self.data, self.offset = data, 0

    def read(self, size: int = -1) -> bytes:
        end = len(self.data) if size < 0 else self.offset + size
        chunk, self.offset = self.data[self.offset:end], min(end, len(self.data))
        return chunk


def prune_backups(folder: Path, retention_days: int, now: datetime | None = None) -> list[str]:
    """Delete athar backups in ``folder`` older than the retention (by the time in their name)."""
    now = now or datetime.now(UTC)
    removed = []
    for path in sorted(folder.glob(BACKUP_GLOB)):
        try:
            stamp = path.name.removesuffix(".enc").removesuffix(".tar").removeprefix("athar-backup-")
            made = datetime.strptime(stamp, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
        except ValueError:
            continue
        if now - made > timedelta(days=retention_days):
            path.unlink()
            removed.append(path.name)
    return removed


# ---- restore ------------------------------------------------------------------------------------

@dataclass
class Staged:
    manifest: dict[str, Any]
    root: Path


def read_manifest(tar: tarfile.TarFile) -> dict[str, Any]:
    try:
        member = tar.getmember(MANIFEST)
    except KeyError:
        raise BackupError("not an athar backup (no manifest.json): the file is incomplete or foreign") from None
    handle = tar.extractfile(member)
    assert handle is not None
    manifest = json.loads(handle.read().decode("utf-8"))
    if manifest.get("format") != FORMAT:
        raise BackupError(f"unknown backup format {manifest.get('format')!r} (this athar reads {FORMAT})")
    return manifest


def _safe_name(name: str) -> bool:
    parts = Path(name).parts
    return bool(parts) and not name.startswith("/") and ".." not in parts and parts[0] in (
        "database", *(prefix for prefix, _ in _folders()))


def stage(archive: Path, staging: Path) -> Staged:
    """Extract every member into ``staging``, checking names, sizes and sha256 against the manifest."""
    with tarfile.open(archive, "r:*") as tar:
        manifest = read_manifest(tar)
        expected = {m["name"]: m for m in manifest["members"]}
        seen: set[str] = set()
        for member in tar:
            if member.name == MANIFEST:
                continue
            if member.name not in expected or not member.isfile() or not _safe_name(member.name):
                raise BackupError(f"unexpected member in backup: {member.name!r}")
            _extract_checked(tar, member, staging / member.name, expected[member.name])
            seen.add(member.name)
    missing = sorted(set(expected) - seen)
    if missing:
        raise BackupError(f"the backup is incomplete: {len(missing)} files missing (first: {missing[0]})")
    return Staged(manifest, staging)


def _extract_checked(tar: tarfile.TarFile, member: tarfile.TarInfo, target: Path, expected: dict[str, Any]) -> None:
    source = tar.extractfile(member)
    assert source is not None
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    with open(target, "wb") as handle:
        for block in iter(lambda: source.read(CHUNK), b""):
            digest.update(block)
            handle.write(block)
    if digest.hexdigest() != expected["sha256"] or member.size != expected["size"]:
        raise BackupError(f"{member.name} in the backup does not match its manifest: the backup was altered or damaged")


def home_is_empty() -> bool:
    """No audit events (every meaningful act writes one) and no stored media."""
    if any(True for _, root in _folders()[:2] for _ in _files(root)):
        return False
    tables = connection.introspection.table_names()
    if "audit_auditevent" not in tables:
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM audit_auditevent")
        return int(cursor.fetchone()[0]) == 0


def restore_backup(archive: Path, force: bool = False, accept_unreadable: bool = False) -> dict[str, Any]:
    """Restore a backup into this ATHAR_HOME (and database), then migrate and verify.

    Refused before anything is written when the configured data key (``ATHAR_DATA_KEY``) cannot
    open the backup's personal data, unless ``accept_unreadable`` says to restore it unreadable."""
    if not archive.is_file():
        raise FileNotFoundError(f"backup not found: {archive}")
    started = time.monotonic()
    home = Path(settings.ATHAR_HOME)
    home.mkdir(parents=True, exist_ok=True)
    if not force and not home_is_empty():
        raise BackupError(f"{home} (or its database) already holds data: restore into an empty ATHAR_HOME "
                          "and database, or pass --force to replace everything")
    with tempfile.TemporaryDirectory(dir=home, prefix=".restore-") as work:
        plain, encrypted = archive, is_encrypted(archive)
        if encrypted:  # decrypted inside the private staging folder, removed with it
            plain = Path(work) / "backup.tar"
            decrypt_file(archive, plain, require_backup_key())
        staged = stage(plain, Path(work) / "staged")
        if staged.manifest["engine"] != engine():
            raise BackupError(f"this backup holds a {staged.manifest['engine']} database, but athar is "
                              f"configured for {engine()}: set DATABASE_URL to match")
        unreadable = _unreadable_in(staged)
        if unreadable and not accept_unreadable:
            raise BackupError(unreadable_message(unreadable))
        _restore_database(staged)
        for prefix, root in _folders():  # a backup made before the family uploads store: an empty one
            _replace_folder(staged.root / prefix, root)
    restore_seconds = time.monotonic() - started
    return {"restored": str(archive), "encrypted": encrypted, "engine": staged.manifest["engine"],
            "photos": staged.manifest["photos"],
            "audit_events": staged.manifest["audit_events"], "audit_head": staged.manifest.get("audit_head", ""),
            "seconds": round(restore_seconds, 2), "unreadable_data_keys": unreadable}


def unreadable_message(count: int) -> str:
    return (f"the configured data key (ATHAR_DATA_KEY) cannot open the personal data in this backup: the contact "
            f"details, notes and family uploads of {count} owners would be unreadable. Set the data key this site "
            "used, or pass --accept-unreadable to restore them unreadable")


def _unreadable_in(staged: Staged) -> int | None:
    """Data keys of the backup the configured master key cannot open (from the manifest; for an older
    backup without that line, from a staged SQLite database; None when it cannot be told before)."""
    summary = staged.manifest.get("data_keys")
    if summary is not None:
        return unreadable_count(summary)
    if staged.manifest["engine"] != "sqlite":
        return None
    with closing(sqlite3.connect(f"file:{staged.root / staged.manifest['database']}?mode=ro", uri=True)) as db:
        try:
            rows = db.execute("SELECT master_key_id, COUNT(*) FROM registry_datakey GROUP BY master_key_id").fetchall()
        except sqlite3.Error:
            return None
    return unreadable_count({"by_master_key": dict(rows)})


def _restore_database(staged: Staged) -> None:
    dump = staged.root / staged.manifest["database"]
    connections.close_all()
    if engine() == "sqlite":
        target = Path(str(settings.DATABASES["default"]["NAME"]))
        for suffix in ("-wal", "-shm"):
            Path(str(target) + suffix).unlink(missing_ok=True)
        os.replace(dump, target)
        return
    result = subprocess.run([_pg_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--no-privileges",
                             "--single-transaction", "--exit-on-error", "--dbname", _pg_env()["PGDATABASE"], str(dump)],
                            env=_pg_env(), capture_output=True, text=True)
    if result.returncode != 0:
        raise BackupError(f"pg_restore failed: {result.stderr.strip()[-2000:]}")


def _replace_folder(staged: Path, target: Path) -> None:
    """Swap the restored folder in; whatever was there is removed (only reached when empty or --force)."""
    if target.exists():
        shutil.rmtree(target)
    if staged.exists():
        os.replace(staged, target)
    else:
        target.mkdir(parents=True)
    target.chmod(0o700)
