"""Places: the built-in governorates, spellings families use, and a gazetteer import."""

from __future__ import annotations

import pytest

from athar.registry.models import Place
from athar.registry.places import PlaceResolver, import_gazetteer, place_key
from tests.shared_data import require_shared_data

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text,pcode", [
    ("ريف دمشق", "SY03"), ("Rif Dimashq", "SY03"), ("Rural Damascus", "SY03"), ("محافظة ريف دمشق", "SY03"),
    ("دير الزور", "SY09"), ("Deir ez-Zor", "SY09"), ("Deir Ezzor", "SY09"), ("ديرالزور", "SY09"),
    ("حماه", "SY05"), ("حماة", "SY05"), ("Hama Governorate", "SY05"), ("Idlib", "SY07"), ("إدلب", "SY07"),
    ("ادلب", "SY07"), ("Al-Hasakah", "SY08"), ("الحسكة", "SY08"), ("Daraa", "SY12"), ("درعا", "SY12"),
])
def test_governorates_in_both_scripts(text: str, pcode: str) -> None:
    resolver = PlaceResolver.load()
    assert Place.objects.get(pk=resolver.resolve(text)).pcode == pcode


@pytest.mark.parametrize(("one", "other"), [
    ("Al-Hasakeh", "Hasakeh"), ("Al Hasakah", "Hasakah"), ("As-Sweida", "Sweida"), ("الحسكة", "حسكة"),
    ("Deir ez-Zor", "Deir Zor"), ("El-Bab", "Bab"), ("el-Bab", "Bab"), ("AL-RAQQA", "Raqqa"),
    ("al Qusayr", "Qusayr"), ("Al‑Hasakah", "Hasakah"), ("Ar-Rastan", "Rastan"), ("ash-Shaykh Maskin", "Shaykh Maskin"),
])
def test_the_article_is_not_part_of_a_place_key(one: str, other: str) -> None:
    assert place_key(one) == place_key(other)


@pytest.mark.parametrize(("text", "pcode"), [
    ("Douma, Rif Dimashq", "SY03"), ("دوما، ريف دمشق", "SY03"), ("Atlantis, Deir ez-Zor", "SY09"),
    ("Hama, Syria", "SY05"), ("حي الميدان؛ دمشق", "SY01"),
])
def test_a_list_of_places_resolves_to_the_first_known(text: str, pcode: str) -> None:
    """Without a gazetteer "Douma" is unknown: the governorate after the comma is the answer."""
    resolver = PlaceResolver.load()
    assert Place.objects.get(pk=resolver.resolve(text)).pcode == pcode


def test_unknown_place_stays_unresolved() -> None:
    assert PlaceResolver.load().resolve("Atlantis") is None
    assert PlaceResolver.load().resolve("Atlantis, Lemuria") is None
    assert PlaceResolver.load().resolve(",") is None
    assert place_key("  ") == ""


def test_gazetteer_import_adds_districts_and_subdistricts() -> None:
    folder = require_shared_data("places", "open_syria_geography")
    result = import_gazetteer(folder)
    assert result["places"] == {"governorate": 14, "district": 62, "subdistrict": 272}
    assert Place.objects.filter(level="governorate").count() == 14  # enriched, not duplicated
    resolver = PlaceResolver.load()
    douma = Place.objects.get(pk=resolver.resolve("دوما"))
    assert douma.level in ("district", "subdistrict") and douma.parent is not None
    assert resolver.resolve("Douma, Rif Dimashq") == resolver.resolve("Douma")  # the smallest place first
    assert Place.objects.get(pk=resolver.resolve("Rif Dimashq")).pcode == "SY03"
    again = import_gazetteer(folder)
    assert again["total"] == result["total"]


def test_gazetteer_folder_must_hold_the_files(tmp_path) -> None:
    with pytest.raises(ValueError, match="none of"):
        import_gazetteer(tmp_path)
