"""``athar faces search PHOTO PHOTO… --json`` as an operator runs it: a subprocess on a fresh store.
Every photo with a face is used (one query, the several-photo calibration); a photo without one
becomes a warning and the others are still used."""

from __future__ import annotations

from PIL import Image

from athar.matching.faces.calibration import load_calibration
from tests.archive.test_faces import build_archive
from tests.cli_helpers import last_json, run_athar
from tests.shared_data import require_shared_data


def test_faces_search_uses_every_photo_given_with_its_calibration(tmp_path):
    lfw = require_shared_data("faces", "lfw-dev")
    build_archive(lfw, tmp_path / "arc")
    home = tmp_path / "home"
    ingested = last_json(run_athar(home, "ingest", str(tmp_path / "arc"), "--archive", "T", "--workers", "1", "--json"))
    assert ingested["faces"]["faces"] >= 4
    photos = sorted((lfw / "Abdullah_Gul").iterdir())
    blank = tmp_path / "blank.png"
    Image.new("RGB", (300, 300), (120, 120, 120)).save(blank)

    one = last_json(run_athar(home, "faces", "search", str(photos[0]), "--json"))
    two = last_json(run_athar(home, "faces", "search", str(photos[0]), str(photos[2]), str(blank), "--json"))
    assert (one["photos_used"], one["calibration"], len(one["query_faces"])) == (1, "one", 1)
    assert (two["photos_used"], two["calibration"]) == (2, "several")
    assert [q["photo"] for q in two["query_faces"]] == [photos[0].name, photos[2].name]
    assert len(two["warnings"]) == 1 and two["warnings"][0].startswith("blank.png")
    assert one["cases"][0]["case_label"] == two["cases"][0]["case_label"] == "Abdullah_Gul"
    assert two["cases"][0]["score"] != one["cases"][0]["score"]  # the second photo changed the query
    several = load_calibration(two["model"]).for_photos(2)
    assert all(c["likely_match"] == several.likely_match(c["score"]) for c in two["cases"])
    assert two["decision"] == ("likely_match" if two["cases"][0]["likely_match"] else "no_likely_match")

    only_blank = run_athar(home, "faces", "search", str(blank), "--json", check=False)
    assert only_blank.returncode != 0 and "no usable face" in last_json(only_blank)["error"]
