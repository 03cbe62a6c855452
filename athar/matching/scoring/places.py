"""What a family's free text about a branch or agency names, against the facility table.

The table is passed in as plain rows (the editable table from the database, or the shipped YAML in
benchmarks), so this stays Django-free. "فرع فلسطين", "Branch 235", "235" and "Palestine Branch"
all name facility 235; "الأمن العسكري" names an agency.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from athar.matching.facilities import alias_keys, facility_key, normalise_name

_SPLIT = re.compile(r"\s*(?:[;,/|،؛]| then | ثم | or | او | أو )\s*")


@dataclass(frozen=True)
class FacilityTable:
    """Lookup keys → facility code / agency code; facility code → agency code."""

    by_number: dict[int, str]
    by_name: dict[str, str]
    agency_of: dict[str, str]
    agency_by_name: dict[str, str]

    @classmethod
    def from_rows(cls, facilities: Iterable[dict[str, Any]], agencies: Iterable[dict[str, Any]]) -> FacilityTable:
        by_number: dict[int, str] = {}
        by_name: dict[str, str] = {}
        agency_of: dict[str, str] = {}
        agency_by_name: dict[str, str] = {}
        for a in agencies:
            for key in alias_keys([a["code"], a.get("name_en", ""), a.get("name_ar", ""), *a.get("aliases", [])]):
                agency_by_name.setdefault(key, a["code"])
        for f in facilities:
            if f.get("number") is not None:
                by_number.setdefault(int(f["number"]), f["code"])
            for key in alias_keys([f["code"], f.get("name_en", ""), f.get("name_ar", ""), *f.get("aliases", [])]):
                by_name.setdefault(key, f["code"])
            agency_of[f["code"]] = f.get("agency") or ""
        return cls(by_number, by_name, agency_of, agency_by_name)

    def resolve(self, text: str) -> tuple[frozenset[str], frozenset[str]]:
        """(facility codes, agency codes) named in a text; several may be named ("215 then Saydnaya")."""
        facilities, agencies = set(), set()
        for part in (p for p in _SPLIT.split(text or "") if p.strip()):
            code = self._facility(part)
            if code:
                facilities.add(code)
                if self.agency_of.get(code):
                    agencies.add(self.agency_of[code])
            agency = self._agency(part)
            if agency:
                agencies.add(agency)
        return frozenset(facilities), frozenset(agencies)

    def _facility(self, text: str) -> str:
        key = facility_key(text)
        if key.number is not None and key.number in self.by_number:
            return self.by_number[key.number]
        for k in alias_keys([text]) | {key.name_key}:
            if k in self.by_name:
                return self.by_name[k]
        return ""

    def _agency(self, text: str) -> str:
        for k in alias_keys([text]):
            if k in self.agency_by_name:
                return self.agency_by_name[k]
        norm = normalise_name(text)
        for k, code in self.agency_by_name.items():
            if len(k) > 4 and k in norm:
                return code
        return ""
