"""``athar verify``: re-hash every stored original and derivative, list files no row points to,
re-check the audit chain.

Two stores are checked and every finding says which one it concerns: the **evidence store**
(``MEDIA_ROOT``: the archive's originals and derivatives, checked here) and the **family uploads
store** (``UPLOADS_ROOT``: photos of the person alive, sealed per report; the registry registers its
check with ``register_store_check``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy

from athar.archive.models import Derivative, Photo
from athar.archive.storage import INCOMING, MediaStore, sha256_file, writer_alive
from athar.audit.chain import verify_chain
from athar.core.findings import Finding

Check = Callable[[], list[str]]
_EXTRA_CHECKS: list[tuple[str, Check]] = []


MediaPaths = Callable[[MediaStore], Iterable[str]]
_MEDIA_PATHS: list[MediaPaths] = []


def register_media_paths(paths: MediaPaths) -> None:
    """Other parts that keep files in the media store (the registry's report photos) name them, so
    ``athar verify`` does not report them as orphans."""
    if paths not in _MEDIA_PATHS:
        _MEDIA_PATHS.append(paths)


def register_check(name: str, check: Check) -> None:
    """Other parts (the face index, registry) add their own integrity checks."""
    if name not in {n for n, _ in _EXTRA_CHECKS}:
        _EXTRA_CHECKS.append((name, check))


@dataclass
class StoreReport:
    """What was checked in one store: its name (``evidence``, ``family_uploads``), files checked,
    problems (broken or missing files) and orphans (files no row names)."""

    name: str
    root: str
    files: int = 0
    problems: list[str] = field(default_factory=list)
    orphans: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"root": self.root, "files": self.files, "ok": not self.problems, "problems": self.problems,
                "orphans": self.orphans}


StoreCheck = Callable[[], StoreReport]
_STORE_CHECKS: list[StoreCheck] = []


def register_store_check(check: StoreCheck) -> None:
    """Another store of files (the registry's family uploads) is checked by ``athar verify`` too."""
    if check not in _STORE_CHECKS:
        _STORE_CHECKS.append(check)


@dataclass
class VerifyReport:
    originals: int = 0
    derivatives: int = 0
    audit_events: int = 0
    audit_head: str = ""
    problems: list[str] = field(default_factory=list)
    orphans: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    stores: dict[str, StoreReport] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": not self.problems, "originals": self.originals, "derivatives": self.derivatives,
                "audit_events": self.audit_events, "audit_head": self.audit_head, "problems": self.problems,
                "orphans": self.orphans, "warnings": self.warnings,
                "stores": {name: store.as_dict() for name, store in self.stores.items()}}


# What re-hashing the store can find (English in logs and --json; the reader's language on pages).
# Each names its store: "evidence store" (the archive's), or "family uploads store" (registry/photos.py).
ORIGINAL_MISSING = gettext_lazy("evidence store: original of photo %(photo)s is missing (%(file)s)")
ORIGINAL_ALTERED = gettext_lazy("evidence store: original of photo %(photo)s was altered: sha256 %(expected)s "
                                "expected, %(found)s found")
DERIVATIVE_MISSING = gettext_lazy("evidence store: derivative %(kind)s#%(index)s of photo %(photo)s is missing "
                                  "(%(file)s)")
DERIVATIVE_ALTERED = gettext_lazy("evidence store: derivative %(kind)s#%(index)s of photo %(photo)s was altered: "
                                  "sha256 %(expected)s expected, %(found)s found")
ORPHAN = gettext_lazy("evidence store: %(path)s is there but no row points to it")


def verify_store(progress: Callable[[int], None] | None = None) -> VerifyReport:
    """Everything checked, every problem named (path or identifier, and what changed)."""
    store = MediaStore(settings.MEDIA_ROOT)
    report = VerifyReport()
    evidence = StoreReport("evidence", str(store.root))
    for pk, sha in Photo.objects.values_list("id", "sha256").iterator():
        evidence.problems += _check_file(store.original_path(sha), sha, ORIGINAL_MISSING, ORIGINAL_ALTERED, photo=pk)
        report.originals += 1
        if progress:
            progress(1)
    for photo_id, kind, index, path, sha in Derivative.objects.values_list(
            "photo_id", "kind", "face_index", "path", "sha256").iterator():
        evidence.problems += _check_file(store.path(path), sha, DERIVATIVE_MISSING, DERIVATIVE_ALTERED,
                                         kind=kind, index=index, photo=photo_id)
        report.derivatives += 1
    evidence.files = report.originals + report.derivatives
    # Files no row points to are named, not counted as broken evidence: an ingest killed between
    # writing a file and committing its row leaves one (the resumed ingest re-adds the row when it
    # meets the same content again); anything else there deserves a look.
    evidence.orphans = report.orphans = orphan_files(store)
    evidence.warnings = [Finding(ORPHAN, path=path) for path in report.orphans]
    report.warnings += evidence.warnings
    report.stores[evidence.name] = evidence
    report.problems += evidence.problems
    for check in _STORE_CHECKS:
        other = check()
        report.stores[other.name] = other
        report.problems += other.problems
        report.warnings += other.warnings
    chain = verify_chain()
    report.audit_events, report.audit_head = chain.events, chain.head
    report.problems += chain.problems
    for name, check_ in _EXTRA_CHECKS:
        report.problems += [f"{name}: {p}" for p in check_()]
    return report


def orphan_files(store: MediaStore) -> list[str]:
    """Files in the evidence store (relative paths) that no archive photo or derivative names (nor
    anything registered with ``register_media_paths``): a half-finished write, a family upload the
    migration to the family uploads store left behind, or a file put there by hand."""
    known = {store.original_relpath(sha) for sha in Photo.objects.values_list("sha256", flat=True).iterator()}
    known.update(Derivative.objects.values_list("path", flat=True).iterator())
    for paths in _MEDIA_PATHS:
        known.update(paths(store))
    root = Path(store.root)
    if not root.exists():
        return []
    found = (p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and not _in_flight(p))
    return sorted(path for path in found if path not in known)


def _in_flight(path: Path) -> bool:
    """A temporary another process is writing now (not a leftover: it is about to be renamed into place)."""
    return path.parent.name == INCOMING and writer_alive(path.name)


def _check_file(path: Any, sha: str, missing: Any, altered: Any, **what: Any) -> list[str]:
    if not path.exists():
        return [Finding(missing, file=path.name, **what)]
    actual = sha256_file(path)
    if actual != sha:
        return [Finding(altered, expected=sha, found=actual, **what)]
    return []
