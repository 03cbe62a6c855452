"""Issue 28, twenty-third session: a German spelling writes خ as ch before t and ي as j (OFAC's
"ICHTIJAR, Hisham" is "IKHTIYAR, Hisham", born 1941): read as English writes them, the two spellings
share their consonants and their block. ch before another consonant is as often the French ش
(Achraf, Ichraq) and keeps its reading."""

from __future__ import annotations

import pytest

from athar.matching.names import name_keys
from athar.matching.names.phonetic import german_reading


def test_a_german_ch_before_t_and_its_j_read_as_kh_and_y() -> None:
    assert german_reading("ichtijar") == "ikhtiyar"
    assert name_keys("ICHTIJAR").skeleton == name_keys("IKHTIYAR").skeleton
    assert name_keys("Muchtar").block == name_keys("مختار").block


@pytest.mark.parametrize("token", ["achraf", "ichraq", "chadi", "michel", "schehadeh", "jamil"])
def test_other_spellings_keep_their_reading(token: str) -> None:
    assert german_reading(token) == token
