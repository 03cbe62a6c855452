"""Locate ../shared/data (development data that is never committed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


def shared_data_dir() -> Path | None:
    """The shared data folder beside the checkout, or ATHAR_SHARED_DATA; None when absent."""
    env = os.environ.get("ATHAR_SHARED_DATA")
    candidate = Path(env) if env else REPO_ROOT.parent / "shared" / "data"
    return candidate if candidate.is_dir() else None


def require_shared_data(*parts: str) -> Path:
    """Path inside the shared data folder, or skip the test with a clear reason."""
    root = shared_data_dir()
    if root is None or not (root.joinpath(*parts)).exists():
        pytest.skip(f"shared development data not found: ../shared/data/{'/'.join(parts)}")
    return root.joinpath(*parts)
