"""The archive's facility table as shipped (agencies and facilities, as publicly reported; editable
data), and the label-reading functions of ``athar.matching.facilities`` the archive's ingest uses."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from athar.matching.facilities import FacilityKey, alias_keys, facility_key, normalise_name

__all__ = ["FacilityKey", "alias_keys", "facility_key", "normalise_name", "starting_table"]


@lru_cache(maxsize=1)
def starting_table() -> dict[str, Any]:
    """The shipped table of agencies and facilities (as publicly reported; editable data)."""
    text = resources.files("athar.archive").joinpath("data/facilities.yaml").read_text(encoding="utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return data
