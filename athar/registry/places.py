"""Places: the 14 governorates athar knows by itself, an imported gazetteer, and resolving the
place names families write ("ريف دمشق", "Rif Dimashq", "Damascus countryside") to them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.db import transaction

from athar.core.errors import UserError
from athar.matching.names.normalize import normalize_arabic, normalize_latin
from athar.registry.models import Place

# P-code, English, Arabic, other spellings (facts the product may know by itself).
GOVERNORATES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("SY01", "Damascus", "دمشق", ("Dimashq", "Damascus City", "Sham", "الشام", "مدينة دمشق")),
    ("SY02", "Aleppo", "حلب", ("Halab", "Haleb")),
    ("SY03", "Rif Dimashq", "ريف دمشق", ("Rural Damascus", "Damascus Countryside", "Reef Dimashq",
                                        "Rif Damascus", "Reef Damascus", "Rif-Dimashq", "Damascus Suburbs")),
    ("SY04", "Homs", "حمص", ("Hims", "Homs City")),
    ("SY05", "Hama", "حماة", ("Hamah", "Hamat", "حماه")),
    ("SY06", "Lattakia", "اللاذقية", ("Latakia", "Al-Ladhiqiyah", "Ladhiqiyah", "Lattaquie")),
    ("SY07", "Idleb", "إدلب", ("Idlib", "Edlib", "Idleb", "ادلب")),
    ("SY08", "Al-Hasakeh", "الحسكة", ("Hasakah", "Hasaka", "Al-Hasakah", "Hassakeh", "Hasakeh", "الحسكه")),
    ("SY09", "Deir-ez-Zor", "دير الزور", ("Deir ez-Zor", "Deir Ezzor", "Dayr az-Zawr", "Deir al-Zour",
                                          "Deir Ez Zor", "Deir Alzour", "ديرالزور")),
    ("SY10", "Tartous", "طرطوس", ("Tartus", "Tartouss")),
    ("SY11", "Ar-Raqqa", "الرقة", ("Raqqa", "Al-Raqqah", "Raqqah", "Ar-Raqqah", "Rakka", "الرقه")),
    ("SY12", "Dar'a", "درعا", ("Daraa", "Deraa", "Dara'a", "Der'a", "Dara")),
    ("SY13", "As-Sweida", "السويداء", ("Sweida", "Suwayda", "As-Suwayda", "Al-Suwayda", "Sweyda", "السويدا")),
    ("SY14", "Quneitra", "القنيطرة", ("Al-Qunaytirah", "Qunaytirah", "Kuneitra", "Quneitera")),
)

_GENERIC_WORDS = {"governorate", "province", "district", "subdistrict", "sub", "nahiya", "nahiyat",
                  "mantiqat", "city", "محافظة", "منطقة", "ناحية", "مدينة", "مركز", "markaz"}
# Latin articles as separate words once "-" is a space ("Al-Hasakeh" → "al hasakeh"), and the
# Arabic article glued to a word ("الحسكة"); the same name then gives one key with or without it.
_LATIN_ARTICLES = frozenset({"al", "el", "ar", "as", "ad", "ash", "az", "at", "an", "ed", "ez", "es", "er"})
_ARABIC_ARTICLE = re.compile(r"^ال(?=..)")
_LIST_SEPARATOR = re.compile(r"[,،;؛]")


@lru_cache(maxsize=1)
def _generic_words() -> frozenset[str]:
    return frozenset(normalize_latin(normalize_arabic(w)) for w in _GENERIC_WORDS)


def place_key(text: str) -> str:
    """A spelling-tolerant key: script-normalised, lower case, article and generic words removed."""
    value = normalize_latin(normalize_arabic(text or "")).replace("-", " ").replace("'", "")
    words = [_ARABIC_ARTICLE.sub("", w) for w in value.split()
             if w not in _generic_words() and w not in _LATIN_ARTICLES]
    return " ".join(w for w in words if w)


def ensure_governorates() -> int:
    """Create the 14 built-in governorates when missing; returns how many were created."""
    made = 0
    for pcode, name_en, name_ar, aliases in GOVERNORATES:
        _, created = Place.objects.get_or_create(
            code=f"gov:{pcode}",
            defaults={"pcode": pcode, "level": Place.Level.GOVERNORATE, "name_en": name_en,
                      "name_ar": name_ar, "aliases": list(aliases)},
        )
        made += created
    return made


@dataclass
class PlaceResolver:
    """Resolves free text to a Place, preferring governorates, then districts, then sub-districts."""

    index: dict[str, int] = field(default_factory=dict)

    @classmethod
    def load(cls) -> PlaceResolver:
        ensure_governorates()
        resolver = cls()
        order: dict[str, int] = {Place.Level.SUBDISTRICT: 0, Place.Level.COMMUNITY: 0, Place.Level.DISTRICT: 1,
                 Place.Level.GOVERNORATE: 2}
        places = sorted(Place.objects.all(), key=lambda p: order.get(p.level, 0))
        for place in places:  # higher levels last, so they win a shared spelling
            for name in (place.name_en, place.name_ar, place.pcode, *place.aliases):
                key = place_key(str(name))
                if key:
                    resolver.index[key] = place.pk
        return resolver

    def resolve(self, text: str) -> int | None:
        """The id of the place the text names, or None. A text listing places from the smallest
        ("Douma, Rif Dimashq", "دوما، ريف دمشق") resolves to the first of them athar knows.

        The text is split at commas before it is keyed: the key drops punctuation."""
        for part in (text or "", *_LIST_SEPARATOR.split(text or "")):
            key = place_key(part)
            if key and key in self.index:
                return self.index[key]
        return None


LEVEL_FILES = (("governorates.json", Place.Level.GOVERNORATE), ("districts.json", Place.Level.DISTRICT),
               ("subdistricts.json", Place.Level.SUBDISTRICT))


def import_gazetteer(path: Path, source: str = "") -> dict[str, Any]:
    """Load an OpenSyria-style gazetteer folder (governorates/districts/subdistricts JSON)."""
    folder = Path(path)
    if not folder.is_dir():
        raise UserError(f"{path} is not a folder with governorates.json, districts.json, subdistricts.json")
    counts: dict[str, int] = {}
    problems: list[dict[str, str]] = []
    source = source or folder.name
    with transaction.atomic():
        ensure_governorates()
        ids: dict[str, int] = {}
        for file_name, level in LEVEL_FILES:
            file_path = folder / file_name
            if not file_path.exists():
                continue
            records = _read_records(file_path)
            counts[str(level)] = 0
            for record in records:
                try:
                    ids[record["id"]] = _upsert(record, level, ids, source)
                    counts[str(level)] += 1
                except (KeyError, TypeError, ValueError) as exc:
                    problems.append({"path": f"{file_name}:{record.get('id', '?')}", "reason": str(exc)})
    if not counts:
        raise UserError(f"{path} holds none of governorates.json, districts.json, subdistricts.json")
    return {"source": source, "places": counts, "rejected": problems, "total": Place.objects.count()}


def _read_records(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise UserError(f"{path.name} is not readable JSON: {exc}") from exc
    if isinstance(data, dict):
        data = data.get("items") or data.get("data") or list(data.values())
    if not isinstance(data, list):
        raise UserError(f"{path.name} does not hold a list of places")
    return [r for r in data if isinstance(r, dict)]


def _upsert(record: dict[str, Any], level: str, ids: dict[str, int], source: str) -> int:
    names = record["name"]
    pcode = (record.get("externalIds") or {}).get("ochaPcode") or ""
    aliases = [a["value"] if isinstance(a, dict) else str(a) for a in record.get("aliases") or []]
    parent_ref = record.get("districtId") or record.get("governorateId")
    parent = ids.get(parent_ref) if parent_ref else None
    if level == Place.Level.GOVERNORATE and pcode:
        existing = Place.objects.filter(code=f"gov:{pcode}").first()
        if existing:  # enrich the built-in governorate instead of duplicating it
            existing.aliases = sorted(set(existing.aliases) | set(aliases) | {names.get("en", "")} - {""})
            existing.save(update_fields=["aliases"])
            return existing.pk
    place, _ = Place.objects.update_or_create(
        code=str(record["id"]),
        defaults={"pcode": pcode, "level": level, "name_en": names.get("en") or record["id"],
                  "name_ar": names.get("ar") or "", "aliases": aliases, "parent_id": parent, "source": source},
    )
    return place.pk
