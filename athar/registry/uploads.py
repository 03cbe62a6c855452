"""The family uploads store: photos of the person alive, kept apart from the archive's evidence.

The archive's originals and derivatives live in the evidence store (``archive/storage.py``,
``MEDIA_ROOT``), which has no way to delete anything. What a family (or its caseworker) uploads
lives here, under ``UPLOADS_ROOT``, one folder per report lineage (every version of a report shares
its photos)::

    uploads/<lineage>/<sha256>.original     the bytes as uploaded
    uploads/<lineage>/<sha256>_view.jpg     viewing copy (no metadata)
    uploads/<lineage>/<sha256>_thumb.jpg    thumbnail

Identical bytes uploaded by a family and ingested from an archive are two files in two stores:
removing the family's photo, or erasing its report, can only ever delete inside the report's own
folder here (``_inside`` refuses any other path), never an archive file.

Every file is sealed (AES-256-GCM) with the data key of the report's lineage — the key that already
protects the reporter's contact details (``registry/keys.py``), with the owner and the file's name
as associated data. Why encrypt: a photo of the person alive is personal data as sensitive as the
contact details (it identifies the family's relative, and faces are biometric once embedded), and
erasure must reach the copies athar cannot delete — backups. Erasing a report shreds that key, so
the photos in every earlier backup become unreadable, as the contact details do. The cost is a
decryption per read (a thumbnail or viewing copy: milliseconds), paid only for family photos.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings

from athar.registry import keys

KINDS = ("view", "thumb")
_LINEAGE = re.compile(r"[0-9A-Za-z_-]{1,64}")
_SHA256 = re.compile(r"[0-9a-f]{64}")


def owner_of(lineage: str) -> str:
    """The data-key owner of a report lineage's files (the contact details' owner)."""
    from athar.registry.importing import contact_owner  # here: importing → photos → this module

    return contact_owner(lineage)


class FamilyUploads:
    """Sealed files of one store root, confined to one folder per report lineage."""

    def __init__(self, root: Path | None = None, data_keys: Any = None) -> None:
        """``data_keys``: the DataKey model of a migration's state (default: the current model)."""
        self.root = Path(root if root is not None else settings.UPLOADS_ROOT)
        self.data_keys = data_keys

    # ---- names ------------------------------------------------------------------------------
    @staticmethod
    def original_relpath(lineage: str, sha256: str) -> str:
        return f"{_checked_lineage(lineage)}/{_checked_sha(sha256)}.original"

    @staticmethod
    def derivative_relpath(lineage: str, sha256: str, kind: str) -> str:
        if kind not in KINDS:
            raise ValueError(f"unknown kind of family photo copy: {kind!r}")
        return f"{_checked_lineage(lineage)}/{_checked_sha(sha256)}_{kind}.jpg"

    def path(self, relpath: str) -> Path:
        """The file of ``relpath``, refused when it would leave the store's root."""
        target = self.root / relpath
        if not _inside(target, self.root):
            raise ValueError(f"{relpath!r} is not a path of the family uploads store")
        return target

    # ---- reading and writing ----------------------------------------------------------------
    def write(self, lineage: str, relpath: str, data: bytes) -> Path:
        """Seal with the lineage's data key and write atomically (temporary file, then rename)."""
        target = self._owned(lineage, relpath)
        sealed = keys.seal_bytes_for(owner_of(lineage), data, relpath, model=self.data_keys)
        target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(sealed)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return target

    def read(self, lineage: str, relpath: str) -> bytes:
        """The plain bytes. FileNotFoundError when missing; ``DecryptionError`` when the report was
        erased (key shredded) or the file altered or moved."""
        sealed = self._owned(lineage, relpath).read_bytes()
        return keys.open_bytes_for(owner_of(lineage), sealed, relpath, model=self.data_keys)

    def exists(self, lineage: str, relpath: str) -> bool:
        return self._owned(lineage, relpath).is_file()

    # ---- removing (family paths only) -----------------------------------------------------------
    def remove_photo(self, lineage: str, sha256: str) -> int:
        """Delete one photo's files of one report lineage (its original and copies)."""
        names = [self.original_relpath(lineage, sha256), *(self.derivative_relpath(lineage, sha256, k) for k in KINDS)]
        return sum(self.remove_file(lineage, name) for name in names)

    def remove_file(self, lineage: str, relpath: str) -> int:
        """Delete one file of a report lineage's folder (1 when there was one)."""
        return self._unlink(self._owned(lineage, relpath))

    def remove_lineage(self, lineage: str) -> int:
        """Delete every file of a report lineage (erasure), then its folder."""
        folder = self._folder(lineage)
        if not folder.is_dir():
            return 0
        removed = sum(self._unlink(path) for path in sorted(folder.iterdir()) if path.is_file())
        with contextlib.suppress(OSError):  # something not a file is there: left for an operator
            folder.rmdir()
        return removed

    def files(self) -> Iterator[str]:
        """Every file in the store (relative paths), without temporary files of atomic writes."""
        if not self.root.is_dir():
            return
        for path in sorted(self.root.rglob("*")):
            if path.is_file() and not path.name.startswith(".tmp-"):
                yield path.relative_to(self.root).as_posix()

    # ---- confinement ----------------------------------------------------------------------
    def _folder(self, lineage: str) -> Path:
        return self.root / _checked_lineage(lineage)

    def _owned(self, lineage: str, relpath: str) -> Path:
        """The path of ``relpath`` when it lies in ``lineage``'s own folder; ValueError otherwise."""
        target = self.path(relpath)
        if not _inside(target, self._folder(lineage)):
            raise ValueError(f"{relpath!r} is not a file of report lineage {lineage}")
        return target

    def _unlink(self, path: Path) -> int:
        if not _inside(path, self.root) or _inside(path, Path(settings.MEDIA_ROOT)):
            raise ValueError(f"{path} is outside the family uploads store: refused")  # never the evidence
        if not path.is_file():
            return 0
        path.unlink()
        return 1


def _inside(path: Path, root: Path) -> bool:
    """True when ``path`` (after resolving ``..`` and links) lies under ``root``."""
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def _checked_lineage(lineage: str) -> str:
    if not _LINEAGE.fullmatch(lineage or ""):
        raise ValueError(f"not a report lineage: {lineage!r}")
    return lineage


def _checked_sha(sha256: str) -> str:
    if not _SHA256.fullmatch(sha256 or ""):
        raise ValueError(f"not a sha256: {sha256!r}")
    return sha256
