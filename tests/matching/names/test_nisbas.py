"""Nisbas and their demonyms (data/nisbas.yaml): Latin-script lists print a nisba of origin as the
demonym ("Mohamed Egyptian" for محمد المصري, "Ahmad Syrien"); both are one name word for comparison
and blocking, and a demonym is never offered as a spelling (the generators do not draw it)."""

from __future__ import annotations

import pytest

from athar.matching.linkage import link_reports
from athar.matching.names import compare_names, name_tokens
from athar.matching.names.resources import load_table
from athar.matching.names.variants import variant_index


def _token(word: str):  # type: ignore[no-untyped-def]
    tokens = name_tokens(word)
    assert len(tokens) == 1
    return tokens[0]


@pytest.mark.parametrize(("arabic", "latin"), [
    ("المصري", "Egyptian"), ("المصري", "Égyptien"), ("المصري", "al-Masri"), ("السوري", "Syrian"),
    ("السوري", "Syrien"), ("العراقي", "Iraqi"), ("العراقي", "Irakien"), ("اللبناني", "Lebanese"),
    ("الفلسطيني", "Palestinian"), ("الأردني", "Jordanian"), ("الحلبي", "Aleppine"), ("الدمشقي", "Damascene"),
    ("الكردي", "Kurdish"), ("الكردي", "Kurde"), ("التركي", "Turkish"), ("المغربي", "Moroccan"),
    ("المغربي", "Marocain"), ("التونسي", "Tunisian"), ("الجزائري", "Algérien"), ("الليبي", "Libyan"),
    ("اليمني", "Yemeni"), ("السعودي", "Saoudien"), ("السوداني", "Sudanese"), ("الموصلي", "Al-Mosuli"),
    ("الحجازي", "Hegazy"), ("الشركسي", "Circassian"), ("الشيشاني", "Chechen"),
])
def test_a_nisba_and_its_demonym_are_one_name_word(arabic: str, latin: str) -> None:
    a, b = _token(arabic), _token(latin)
    assert a.canonical is not None and a.canonical == b.canonical
    assert a.block_key == b.block_key  # they meet in blocking


def test_full_names_with_a_demonym_compare_as_the_same_name() -> None:
    result = compare_names("محمد أحمد المصري", "Mohamed Ahmed Egyptian")
    assert result.level == "strong"
    assert "masri" in result.explanation


@pytest.mark.parametrize(("word", "nisba"), [
    ("Amani", "armani"), ("Chihani", "shishani"), ("Elnady", "najdi"), ("قطرجي", "qatari"), ("سوربي", "suri"),
    ("Qatarji", "qatari"),
])
def test_short_nisbas_are_found_only_as_written(word: str, nisba: str) -> None:
    """A nisba is looked up exactly: Amani (أماني) is not Armani one letter off, قطرجي not قطري."""
    assert _token(word).canonical != nisba


def test_different_nisbas_stay_different_names() -> None:
    assert _token("Egyptian").canonical != _token("Syrian").canonical
    assert compare_names("Ahmad Ali Egyptian", "أحمد علي السوري").level != "strong"


def test_demonyms_are_indexed_but_never_listed_as_spellings() -> None:
    index = variant_index()
    table = load_table("nisbas")["nisbas"]
    for canonical, entry in table.items():
        listed = set(index.variants[canonical])
        assert not listed & set(entry["demonyms"]), canonical
        assert set(entry["latin"]) <= listed | {canonical}


def test_the_nisba_table_adds_no_ambiguity() -> None:
    """No demonym or nisba spelling is claimed by another name (it would then resolve to neither)."""
    for canonical, entry in load_table("nisbas")["nisbas"].items():
        for word in [*entry["arabic"], *entry["latin"], *entry["demonyms"]]:
            assert _token(word).canonical == canonical, word


def test_a_demonym_links_one_person_across_scripts() -> None:
    reports = [
        {"unique_id": "1", "full_name": "محمود خالد المصري", "birth_year": "1984", "sex": "M"},
        {"unique_id": "2", "full_name": "Mahmoud Khaled Egyptian", "birth_year": "1984", "sex": "M"},
        {"unique_id": "3", "full_name": "محمود خالد السوري", "birth_year": "1990", "sex": "M"},
    ]
    clusters = link_reports(reports, explain=False).cluster_ids(["1", "2", "3"])
    assert clusters[0] == clusters[1]
    assert clusters[2] != clusters[0]
