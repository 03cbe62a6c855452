"""Loading the facility table and resolving labels to Facility rows."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from athar.archive.facilities import (
    FacilityKey,
    alias_keys,
    facility_key,
    starting_table,
)
from athar.archive.models import Agency, Facility


def load_starting_table(overwrite: bool = False) -> dict[str, int]:
    """Create the shipped agencies and facilities; keep rows edited since unless ``overwrite``."""
    table = starting_table()
    created = {"agencies": 0, "facilities": 0}
    with transaction.atomic():
        for item in table["agencies"]:
            _, made = _upsert(Agency, "code", item, overwrite)
            created["agencies"] += made
        for item in table["facilities"]:
            fields = dict(item)
            agency_code = fields.pop("agency", None)
            fields["agency"] = Agency.objects.filter(code=agency_code).first() if agency_code else None
            _, made = _upsert(Facility, "code", fields, overwrite)
            created["facilities"] += made
    return created


def _upsert(model: type[Agency] | type[Facility], key: str, fields: dict[str, Any], overwrite: bool) -> tuple[object, int]:
    lookup = {key: fields[key]}
    defaults = {k: v for k, v in fields.items() if k != key}
    if overwrite:
        obj, made = model.objects.update_or_create(defaults=defaults, **lookup)
    else:
        obj, made = model.objects.get_or_create(defaults=defaults, **lookup)
    return obj, int(made)


def agency_for_label(label: str) -> Agency | None:
    """The agency a free-text label names (code, English, Arabic or alias), if any."""
    if not label.strip():
        return None
    wanted = alias_keys([label])
    for agency in Agency.objects.all():
        if wanted & alias_keys([agency.code, agency.name_en, agency.name_ar, *agency.aliases]):
            return agency
    return None


class FacilityResolver:
    """Resolves labels to facilities within one job, creating unknown ones (cached per label)."""

    def __init__(self) -> None:
        self._cache: dict[str, Facility] = {}
        self.created: list[Facility] = []
        self._by_alias: dict[str, Facility] | None = None

    def resolve(self, label: str) -> Facility:
        if label not in self._cache:
            self._cache[label] = self._resolve(facility_key(label), label)
        return self._cache[label]

    def _resolve(self, key: FacilityKey, label: str) -> Facility:
        if key.number is not None:
            found = Facility.objects.filter(number=key.number).order_by("id").first()
            if found is None:
                found = Facility.objects.filter(code=key.code).first()
        else:
            found = self._alias_index().get(key.name_key) or Facility.objects.filter(code=key.code).first()
        if found is not None:
            return found
        facility, made = Facility.objects.get_or_create(code=key.code, defaults={
            "number": key.number, "name_en": label if label.isascii() else "",
            "name_ar": "" if label.isascii() else label,
        })
        if made:
            self.created.append(facility)
        return facility

    def _alias_index(self) -> dict[str, Facility]:
        if self._by_alias is None:
            self._by_alias = {}
            for facility in Facility.objects.all():
                for key in alias_keys([facility.code, facility.name_en, facility.name_ar, *facility.aliases]):
                    self._by_alias.setdefault(key, facility)
        return self._by_alias
