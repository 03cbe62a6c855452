"""``athar numbers read IMAGE... --json`` as an operator runs it (a subprocess on a fresh store):
the last line is the issue's JSON, numbers in Western digits with confidence, box and kind; a
photo without a number gives an empty list; a file that is not an image is reported on its own
entry; a missing path is the user's mistake."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from tests.cli_helpers import last_json, run_athar
from tests.matching.numbers.test_reader import FONT, photo_with_card

pytestmark = pytest.mark.skipif(not FONT.exists(), reason="fonts-dejavu-core is not installed")


def test_numbers_read_prints_what_it_would_suggest(tmp_path):
    card, _ = photo_with_card("٢٧١٩", 200)
    card.save(tmp_path / "card.jpg", quality=90)
    rng = np.random.default_rng(1)
    Image.fromarray(np.clip(rng.normal(100, 20, (600, 800, 3)), 0, 255).astype(np.uint8)).save(tmp_path / "none.png")
    (tmp_path / "notes.txt").write_text("not a photo")
    home = tmp_path / "home"

    result = last_json(run_athar(home, "numbers", "read", str(tmp_path / "card.jpg"), str(tmp_path / "none.png"),
                                 str(tmp_path / "notes.txt"), "--json"))
    card_entry, none_entry, text_entry = result["images"]
    assert card_entry["path"] == str(tmp_path / "card.jpg")
    assert [n["text"] for n in card_entry["numbers"]] == ["2719"]
    number = card_entry["numbers"][0]
    assert set(number) == {"text", "confidence", "box", "kind"}
    assert result["threshold"] <= number["confidence"] <= 1 and number["kind"] is None
    assert len(number["box"]) == 4 and number["box"][0] < number["box"][2]
    assert none_entry == {"path": str(tmp_path / "none.png"), "numbers": []}
    assert text_entry["numbers"] == [] and "not a readable image" in text_entry["error"]

    people = run_athar(home, "numbers", "read", str(tmp_path / "card.jpg"))
    assert "2719" in people.stdout

    missing = run_athar(home, "numbers", "read", str(tmp_path / "nowhere.jpg"), "--json", check=False)
    assert missing.returncode == 1 and "not a file" in last_json(missing)["error"]


def test_numbers_index_stores_suggestions_once(tmp_path):
    card, _ = photo_with_card("٢٧١٩", 200)
    (tmp_path / "arch" / "215" / "7").mkdir(parents=True)
    card.save(tmp_path / "arch" / "215" / "7" / "card.jpg", quality=90)
    home = tmp_path / "home"
    run_athar(home, "ingest", str(tmp_path / "arch"), "--archive", "A", "--no-faces", "--no-numbers", "--json")

    first = last_json(run_athar(home, "numbers", "index", "--archive", "A", "--json"))
    assert (first["photos_read"], first["numbers"], first["pending"]) == (1, 1, 0)
    assert first["reader_version"].startswith("digits-")
    again = last_json(run_athar(home, "numbers", "index", "--json"))
    assert (again["photos_read"], again["numbers"]) == (0, 0)
    missing = run_athar(home, "numbers", "index", "--archive", "B", "--json", check=False)
    assert missing.returncode == 1 and "no archive named" in last_json(missing)["error"]
