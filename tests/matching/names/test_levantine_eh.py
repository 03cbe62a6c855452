"""The Levantine feminine ending written "eh" (Samireh, Amineh, Fatmeh, Khadijeh; issue 28, nineteenth
session): the French mute-e rule took the e after the h, and Samireh, Amineh were the masculine
Samir and Amin — a sister read as her brother's name, and a mother "Samireh" different from "سميرة"."""

from __future__ import annotations

import pytest

from athar.matching.names import name_tokens


@pytest.mark.parametrize(("written", "canonical"), [
    ("Samireh", "samira"), ("Amineh", "amina"), ("Fatmeh", "fatima"), ("Khadijeh", "khadija"), ("Aisheh", "aisha"),
    ("Mustafeh", "mustafa"), ("Saleh", "salih"), ("Samir", "samir"), ("Amin", "amin"),
])
def test_eh_is_the_feminine_ending_not_a_mute_e(written: str, canonical: str) -> None:
    assert name_tokens(written)[0].canonical == canonical


@pytest.mark.parametrize("written", ["Jamileh", "Halimeh", "Naimeh"])
def test_never_the_masculine_name(written: str) -> None:
    assert name_tokens(written)[0].canonical not in ("jamil", "halim", "naim")


def test_a_french_mute_e_still_goes() -> None:
    assert name_tokens("Ousmane")[0].canonical == "uthman"
