"""Helpers for registry tests: write report files in any encoding, run registry commands."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def write_csv(tmp_path: Path) -> Callable[..., Path]:
    """``write_csv(header, rows, encoding="utf-8", name="reports.csv")`` → the file's path."""

    def write(header: list[str], rows: list[list[str]], encoding: str = "utf-8", name: str = "reports.csv") -> Path:
        buffer = io.StringIO(newline="")
        writer = csv.writer(buffer)
        writer.writerow(header)
        writer.writerows(rows)
        path = tmp_path / name
        path.write_bytes(buffer.getvalue().encode(encoding))
        return path

    return write


@pytest.fixture(autouse=True)
def english_messages() -> Any:
    """Domain refusals are written with gettext: these tests read them in English (the site's
    default language is Arabic; the Arabic is checked in tests/web)."""
    from django.utils import translation

    with translation.override("en"):
        yield
