"""Shared by the atheris harnesses: input framing and the Django set-up some targets need."""

from __future__ import annotations

import os
import tempfile

UNIT_SEP = "\x1f"  # between two values (names, cells)
RECORD_SEP = "\x1e"  # between rows (export)
IMPORT_MODES = ("csv", "xlsx", "sheet", "values")  # first byte of an import input, modulo 4


def text_of(data: bytes) -> str:
    """Fuzz bytes as text; every str the product can receive is reachable through valid UTF-8."""
    return data.decode("utf-8", "replace")


def setup_django() -> None:
    """Only for targets that import Django models (registry rows): settings with a scratch home.

    No database is touched; the home only receives the development secret key file."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")
    os.environ.setdefault("ATHAR_HOME", tempfile.mkdtemp(prefix="athar-fuzz-"))
    import django

    django.setup()
