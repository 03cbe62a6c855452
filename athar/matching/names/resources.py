"""Load the YAML tables shipped in ``athar/matching/names/data`` (cached, read-only)."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml


@cache
def load_table(name: str) -> Any:
    """Parsed content of ``data/<name>.yaml``; cached for the life of the process."""
    text = resources.files("athar.matching.names").joinpath("data").joinpath(f"{name}.yaml").read_text("utf-8")
    return yaml.safe_load(text)
