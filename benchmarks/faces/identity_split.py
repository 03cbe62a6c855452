"""The LFW dev/test identity split used by every face benchmark (held-out policy).

Identities are assigned by a stable hash of their name (never Python's ``hash``):
tune on ``dev``, report on ``test``. People with ≥ 2 photos give a probe (their first
photo, clean: the family's photo) and a case (their second photo, degraded: the
archive); a share of them is left out of the gallery (absent people). People with
one photo are distractor cases.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

LFW = Path(__file__).resolve().parents[3] / "shared" / "data" / "faces" / "lfw-dev"


def _bucket(name: str) -> int:
    return int(hashlib.sha256(name.encode()).hexdigest()[:8], 16)


@dataclass
class Split:
    present: list[tuple[str, Path, Path]]  # identity, probe photo, case photo
    absent: list[tuple[str, Path]]  # identity, probe photo (no case in the gallery)
    distractors: list[tuple[str, Path]]  # identity, case photo


def make_split(split: str, mated: int, distractors: int, absent_share: float = 0.2, root: Path = LFW) -> Split:
    """A deterministic benchmark set: ``mated`` people with ≥2 photos, ``distractors`` cases."""
    want = 0 if split == "dev" else 1
    people = sorted((d for d in root.iterdir() if d.is_dir() and _bucket(d.name) % 2 == want), key=lambda d: _bucket(d.name))
    multi = [(d.name, sorted(d.glob("*.jpg"))) for d in people]
    two = [(n, f) for n, f in multi if len(f) >= 2][:mated]
    one = [(n, f[0]) for n, f in multi if len(f) == 1][:distractors]
    n_absent = round(len(two) * absent_share)
    absent = [(n, f[0]) for n, f in two[:n_absent]]
    present = [(n, f[0], f[1]) for n, f in two[n_absent:]]
    return Split(present, absent, one)
