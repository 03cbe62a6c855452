"""Levantine diminutives families and activists write for a name (name_variants.yaml, nineteenth
session): فطوم is Fatima, خدوج Khadija, برهوم Ibrahim — and no other name. Those that are also family
names (قدور, حسون, علوش) are not read so."""

from __future__ import annotations

import pytest

from athar.matching.names import name_tokens


@pytest.mark.parametrize(("written", "canonical"), [
    ("فطوم", "fatima"), ("فطومة", "fatima"), ("خدوج", "khadija"), ("عيوش", "aisha"), ("برهوم", "ibrahim"),
    ("Barhoum", "ibrahim"), ("صطيف", "mustafa"),
])
def test_a_diminutive_is_its_name(written: str, canonical: str) -> None:
    assert name_tokens(written)[0].canonical == canonical


@pytest.mark.parametrize("family", ["قدور", "حسون", "علوش"])
def test_a_diminutive_that_is_a_family_name_is_no_given_name(family: str) -> None:
    assert name_tokens(family)[0].canonical not in ("abd al-qadir", "hasan", "husayn", "ali")
