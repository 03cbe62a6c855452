"""``athar verify``: re-hash every stored original and derivative, re-check the audit chain."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from django.conf import settings

from athar.archive.models import Derivative, Photo
from athar.archive.storage import MediaStore, sha256_file
from athar.audit.chain import verify_chain

Check = Callable[[], list[str]]
_EXTRA_CHECKS: list[tuple[str, Check]] = []


def register_check(name: str, check: Check) -> None:
    """Other parts (the face index, registry) add their own integrity checks."""
    if name not in {n for n, _ in _EXTRA_CHECKS}:
        _EXTRA_CHECKS.append((name, check))


@dataclass
class VerifyReport:
    originals: int = 0
    derivatives: int = 0
    audit_events: int = 0
    audit_head: str = ""
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": not self.problems, "originals": self.originals, "derivatives": self.derivatives,
                "audit_events": self.audit_events, "audit_head": self.audit_head, "problems": self.problems}


def verify_store(progress: Callable[[int], None] | None = None) -> VerifyReport:
    """Everything checked, every problem named (path or identifier, and what changed)."""
    store = MediaStore(settings.MEDIA_ROOT)
    report = VerifyReport()
    for pk, sha in Photo.objects.values_list("id", "sha256").iterator():
        report.problems += _check_file(store.original_path(sha), sha, f"original of photo {pk}")
        report.originals += 1
        if progress:
            progress(1)
    for photo_id, kind, index, path, sha in Derivative.objects.values_list(
            "photo_id", "kind", "face_index", "path", "sha256").iterator():
        report.problems += _check_file(store.path(path), sha, f"derivative {kind}#{index} of photo {photo_id}")
        report.derivatives += 1
    chain = verify_chain()
    report.audit_events, report.audit_head = chain.events, chain.head
    report.problems += chain.problems
    for name, check in _EXTRA_CHECKS:
        report.problems += [f"{name}: {p}" for p in check()]
    return report


def _check_file(path: Any, sha: str, what: str) -> list[str]:
    if not path.exists():
        return [f"{what} is missing ({path.name})"]
    actual = sha256_file(path)
    if actual != sha:
        return [f"{what} was altered: sha256 {sha} expected, {actual} found"]
    return []
