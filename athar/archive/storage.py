"""The evidence store: the archive's originals content-addressed by sha256 (read-only, never
rewritten) and their derivatives beside them, under ``MEDIA_ROOT``. Every write goes to a temporary
file first and is renamed into place, so a crash never leaves half a file under a final name. The
temporary files live apart, in ``.incoming/``, named by the process writing them: a run killed in
the middle of a write leaves its temporary there, never among the originals, and the next ingest
clears the ones whose process is gone (``clear_stale_temporaries``).

Nothing here deletes a stored file (a temporary is not one), by design: evidence only ever grows. A family's photos of the
person alive are not kept here but in the family uploads store (``registry/uploads.py``, per report
and sealed), so removing them or erasing a report can never reach an archive file, even one with
identical bytes (tests/archive/test_evidence_apart.py also fails if a deletion appears elsewhere)."""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from pathlib import Path

CHUNK = 1 << 20
INCOMING = ".incoming"  # temporaries of atomic writes, beside originals/ and derivatives/ (same file system)
TEMPORARY_PREFIX = ".tmp-"


def sha256_file(path: Path) -> str:
    """The sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


class EvidenceStore:
    """Paths and atomic writes under the evidence root. No method deletes or rewrites an original."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def original_relpath(self, sha256: str) -> str:
        return f"originals/{sha256[:2]}/{sha256[2:4]}/{sha256}"

    def original_path(self, sha256: str) -> Path:
        return self.root / self.original_relpath(sha256)

    def derivative_relpath(self, sha256: str, kind: str, index: int = 0) -> str:
        suffix = f"_{index}" if index else ""
        return f"derivatives/{sha256[:2]}/{sha256}_{kind}{suffix}.jpg"

    def path(self, relpath: str) -> Path:
        return self.root / relpath

    def store_original(self, data: bytes, sha256: str) -> bool:
        """Keep the bytes under their hash, read-only. False when already stored (never rewritten)."""
        target = self.original_path(sha256)
        if target.exists():  # same name = same bytes; an altered file is verify's business
            return False
        self._atomic_write(target, data)
        target.chmod(stat.S_IRUSR)  # 0400: athar's account only, and never rewritten
        return True

    def write_derivative(self, relpath: str, data: bytes) -> None:
        self._atomic_write(self.root / relpath, data)

    def link_derivative(self, existing: str, relpath: str) -> None:
        """A second name for a derivative file with the same bytes (atomic; copied where the file
        system has no hard links)."""
        source, target = self.root / existing, self.root / relpath
        tmp = self._incoming() / f"{self._temporary_prefix()}link-{target.name}"
        try:
            tmp.unlink(missing_ok=True)  # a leftover of this process's own earlier link (a pid reused)
            os.link(source, tmp)
        except OSError:
            self._atomic_write(target, source.read_bytes())
            return
        self._make_dir(target.parent)
        os.replace(tmp, target)

    def clear_stale_temporaries(self) -> int:
        """Clear the temporaries left by writers that are gone (a killed ingest); returns how many.
        A temporary of a process still running is left alone: it is about to be renamed into place."""
        incoming = self.root / INCOMING
        if not incoming.is_dir():
            return 0
        cleared = 0
        for path in incoming.glob(f"{TEMPORARY_PREFIX}*"):
            if not writer_alive(path.name) and path.is_file():
                path.unlink(missing_ok=True)
                cleared += 1
        return cleared

    _known_dirs: set[Path] = set()

    @classmethod
    def _make_dir(cls, folder: Path) -> None:
        if folder not in cls._known_dirs:
            folder.mkdir(parents=True, exist_ok=True)
            cls._known_dirs.add(folder)

    def _incoming(self) -> Path:
        incoming = self.root / INCOMING
        self._make_dir(incoming)
        return incoming

    @staticmethod
    def _temporary_prefix() -> str:
        return f"{TEMPORARY_PREFIX}{os.getpid()}-"

    def _atomic_write(self, target: Path, data: bytes) -> None:
        """Write then rename. No fsync per file: the ingest flushes the file system once per batch,
        before the database records the batch (see ``flush_to_disk``)."""
        self._make_dir(target.parent)
        fd, tmp = tempfile.mkstemp(dir=self._incoming(), prefix=self._temporary_prefix())
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def writer_alive(name: str) -> bool:
    """Whether the process named in a temporary's name (``.tmp-<pid>-…``) still runs on this machine."""
    pid_text = name[len(TEMPORARY_PREFIX):].split("-", 1)[0]
    if not pid_text.isdigit():
        return False
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another account's process: alive
        return True
    return True


MediaStore = EvidenceStore  # its name before the family uploads moved out (kept for existing callers)


def flush_to_disk() -> None:
    """Make every file written so far durable before the database says it exists."""
    os.sync()
