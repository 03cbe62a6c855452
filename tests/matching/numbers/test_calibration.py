"""The reader's calibrated confidence (calibration.py): the shipped calibrator file, its features,
and the reader deciding with it."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from athar.matching.numbers.calibration import (
    ALGORITHM,
    CALIBRATOR_PATH,
    EVERY_LINE,
    FEATURES,
    GLYPH_FEATURES,
    LINE,
    LINE_FEATURES,
    Calibration,
    Evidence,
    calibration_features,
    line_candidates,
)
from athar.matching.numbers.evaluation import overlap
from athar.matching.numbers.reader import MODEL_PATH, NumberReader
from tests.matching.numbers.test_reader import FONT, photo_with_card


def evidence(text: str = "52817", mask: int = 0, box: list[int] | None = None, **changes: object) -> Evidence:
    base = Evidence(text=text, box=box or [100, 100, 200, 140], kind=None, mask=mask, glyph=0.9, digit_min=0.9,
                    digit_mean=0.95, edge=1.0, arabic=False, past=False, checked=True, line=0.8, partial=False,
                    height=24.0)
    return replace(base, **changes)  # type: ignore[arg-type]


def column(name: str) -> int:
    return FEATURES.index(name)


def test_the_shipped_calibrator_loads_for_the_shipped_weights():
    calibration = Calibration.load(CALIBRATOR_PATH, MODEL_PATH)
    data = json.loads(CALIBRATOR_PATH.read_text())
    assert data["algorithm"] == ALGORITHM
    assert tuple(data["features"]) == FEATURES
    assert calibration.coef.shape == (len(FEATURES),)
    assert 0.3 <= calibration.threshold < 1.0  # chosen on dev, stored in the file
    assert CALIBRATOR_PATH.stat().st_size < 4096  # a small file


def test_a_calibrator_whose_feature_names_differ_is_refused(tmp_path):
    data = json.loads(CALIBRATOR_PATH.read_text())
    data["features"][1], data["features"][2] = data["features"][2], data["features"][1]
    (tmp_path / "swapped.json").write_text(json.dumps(data))
    with pytest.raises(ValueError, match="features"):
        Calibration.load(tmp_path / "swapped.json")


def test_a_calibrator_fitted_on_other_weights_is_refused(tmp_path):
    other = tmp_path / "other.npz"
    np.savez(other, w0=np.zeros((2, 2), np.float32))
    with pytest.raises(ValueError, match="other weights"):
        Calibration.load(CALIBRATOR_PATH, other)
    with pytest.raises(ValueError, match="other weights"):
        NumberReader(other)  # the shipped calibrator by default


def test_the_features_line_up_with_their_names():
    found = [
        evidence("248", kind="branch", arabic=True, height=48.0),
        evidence("248", mask=1, line=0.0, checked=False, past=True, partial=True),
        evidence("249", mask=2),
        evidence("5281777", mask=0, box=[500, 500, 600, 540], glyph=0.5),
    ]
    x = calibration_features(found)
    assert x.shape == (4, len(FEATURES))
    assert (x[:, column("bias")] == 1).all()
    assert x[0, column("three")] == 1 and x[0, column("branch")] == 1 and x[0, column("three_no_branch")] == 0
    assert x[1, column("three_no_branch")] == 1 and x[1, column("branch")] == 0
    assert x[3, column("six_or_more")] == 1 and x[3, column("three")] == 0 and x[3, column("four")] == 0
    assert x[0, column("arabic")] == 1 and x[1, column("arabic")] == 0
    assert x[0, column("log_height")] == pytest.approx(np.log(2.0))
    assert list(x[:, column("checked")]) == [1, 0, 1, 1]
    assert list(x[:, column("line_same")]) == [1, 0, 1, 1]
    assert x[0, column("line_conf")] == pytest.approx(0.8)
    assert list(x[:, column("past")]) == [0, 1, 0, 0]
    assert list(x[:, column("partial")]) == [0, 1, 0, 0]
    assert x[3, column("logit_glyph")] == pytest.approx(0.0)
    # masks: the first two read the same text at one place, the third another text there
    assert list(x[:, column("masks_same")]) == [1, 1, 0, 0]
    assert list(x[:, column("masks_other")]) == [1, 1, 2, 0]
    assert (x[:, [column(name) for name in LINE_FEATURES]] == 0).all()  # glyph readings only


def line_reading(text: str = "52811", **changes: object) -> Evidence:
    """The line recogniser's own reading (twenty-fourth session): the glyph fields 0."""
    return evidence(text, source=LINE, glyph=0.0, digit_min=0.0, digit_mean=0.0, edge=0.0, **changes)


def test_the_line_recognisers_own_readings_have_their_own_features():
    found = [
        evidence("52817", other=0.6, other_text="52811"),
        line_reading("52811", line=0.7, other=0.9, other_text="52817", line_glyph=0.9),
        line_reading("528170", mask=1, other=0.9, other_text="52817", partial=True, past=True),
        line_reading("281", mask=2, box=[500, 500, 600, 540], kind="branch", line_glyph=EVERY_LINE),
    ]
    x = calibration_features(found)
    assert x[0, column("line_other")] == pytest.approx(0.6) and x[0, column("line_only")] == 0
    assert list(x[:, column("line_only")]) == [0, 1, 1, 1]
    assert (x[1:, [column(name) for name in GLYPH_FEATURES]] == 0).all()  # no glyph evidence on them
    assert x[1, column("lo_logit_line")] == pytest.approx(np.log(0.7 / 0.3))
    assert x[1, column("lo_logit_line_glyph")] == pytest.approx(np.log(0.9 / 0.1))
    assert x[3, column("lo_logit_line_glyph")] == -10.0  # a line with no glyph reading at all
    assert list(x[:, column("lo_glyph_other")]) == [0, 1, 1, 0]
    assert x[1, column("lo_logit_glyph_other")] == pytest.approx(np.log(0.9 / 0.1))
    assert list(x[:, column("lo_one_digit")]) == [0, 1, 0, 0]
    assert list(x[:, column("lo_longer")]) == [0, 0, 1, 0]
    assert list(x[:, column("lo_partial")]) == [0, 0, 1, 0] and list(x[:, column("lo_past")]) == [0, 0, 1, 0]
    assert list(x[:, column("lo_three")]) == [0, 0, 0, 1] and list(x[:, column("lo_branch")]) == [0, 0, 0, 1]
    assert list(x[:, column("lo_six_or_more")]) == [0, 0, 1, 0]


def test_a_line_reading_the_glyphs_read_alike_is_no_candidate_of_its_own():
    runs = [("52817", 0.9, [100, 100, 200, 140]), ("111", 0.2, [300, 100, 340, 140])]
    line = [("52817", 0.8, [98, 100, 205, 140], None), ("52811", 0.7, [98, 100, 205, 140], None),
            ("4321", 0.6, [600, 100, 700, 140], "branch")]
    assert line_candidates(runs, line) == [("52811", 0.7, [98, 100, 205, 140], None, 0.9, "52817"),
                                           ("4321", 0.6, [600, 100, 700, 140], "branch", 0.0, "")]


@pytest.fixture(scope="module")
def reader() -> NumberReader:
    return NumberReader()


@pytest.mark.skipif(not FONT.exists(), reason="fonts-dejavu-core is not installed")
def test_a_reading_reports_its_calibrated_probability(reader):
    photo, card = photo_with_card("52817", 20)
    [reading] = reader.read(photo)
    assert reading.text == "52817" and overlap(reading.box, card) > 0.9
    found = reader.evidence(photo)
    chances = reader.calibration.probability(found)
    here = [float(p) for e, p in zip(found, chances, strict=True) if overlap(e.box, reading.box) >= 0.5]
    assert reading.confidence == pytest.approx(max(here))  # the place's most probable reading
    assert reading.confidence >= reader.threshold


@pytest.mark.skipif(not FONT.exists(), reason="fonts-dejavu-core is not installed")
def test_the_calibrators_threshold_decides_what_is_suggested(reader, tmp_path):
    photo, _ = photo_with_card("52817", 20)
    [reading] = reader.read_all(photo)
    data = json.loads(CALIBRATOR_PATH.read_text())
    for threshold, expected in ((reading.confidence - 1e-6, ["52817"]), (reading.confidence + 1e-6, [])):
        (tmp_path / "cal.json").write_text(json.dumps({**data, "threshold": threshold}))
        assert [r.text for r in NumberReader(calibrator=tmp_path / "cal.json").read(photo)] == expected


@pytest.mark.skipif(not FONT.exists(), reason="fonts-dejavu-core is not installed")
def test_the_calibrator_not_the_hand_rule_decides(reader, tmp_path):
    """The same glyph readings weighed by a calibrator that trusts nothing suggest nothing, where
    the hand-made rule would suggest the card's number."""
    photo, _ = photo_with_card("52817", 20)
    assert [r.text for r in NumberReader(calibrator=None).read(photo)] == ["52817"]
    data = json.loads(CALIBRATOR_PATH.read_text())
    data["coefficients"][column("bias")] = -30.0
    (tmp_path / "distrustful.json").write_text(json.dumps(data))
    assert NumberReader(calibrator=tmp_path / "distrustful.json").read(photo) == []


@pytest.mark.skipif(not FONT.exists(), reason="fonts-dejavu-core is not installed")
def test_the_line_recognisers_own_reading_is_suggested_when_the_calibrator_trusts_it(reader, tmp_path, monkeypatch):
    """Twenty-fourth session: the line recogniser's reading of another text than the glyphs' is a
    candidate of its own, weighed by its own coefficients; a calibrator that trusts only those
    suggests it (and the glyphs' reading of that place is then the less probable one)."""
    from athar.matching.numbers import line_reader

    photo, card = photo_with_card("52817", 20)
    monkeypatch.setattr(line_reader, "read_each", lambda gray, frames, weights: [[("52811", 0.8, card, None)]] * len(frames))
    data = json.loads(CALIBRATOR_PATH.read_text())
    coefficients = [0.0] * len(FEATURES)
    coefficients[column("bias")], coefficients[column("line_only")] = -30.0, 60.0
    (tmp_path / "lines.json").write_text(json.dumps({**data, "coefficients": coefficients, "threshold": 0.5}))
    found = NumberReader(calibrator=tmp_path / "lines.json").evidence(photo)
    own = [e for e in found if e.source == LINE]
    assert own and {(e.text, e.other_text) for e in own} == {("52811", "52817")}
    assert [r.text for r in NumberReader(calibrator=tmp_path / "lines.json").read(photo)] == ["52811"]


@pytest.mark.skipif(not FONT.exists(), reason="fonts-dejavu-core is not installed")
def test_the_calibrator_says_which_lines_the_line_recogniser_reads(reader, tmp_path, monkeypatch):
    from PIL import ImageDraw, ImageFont

    from athar.matching.numbers import line_reader

    photo, _ = photo_with_card("52817", 20)
    ImageDraw.Draw(photo).text((100, 600), "WHAT A LINE", font=ImageFont.truetype(str(FONT), 40), fill=(10, 10, 10))
    asked: list[int] = []
    def read_each(gray: object, frames: list[object], weights: object) -> list[list[object]]:
        asked.extend(frames)
        return [[] for _ in frames]

    monkeypatch.setattr(line_reader, "read_each", read_each)
    data = json.loads(CALIBRATOR_PATH.read_text())
    (tmp_path / "none.json").write_text(json.dumps({**data, "line_from": 1.01}))
    found = NumberReader(calibrator=tmp_path / "none.json").evidence(photo)
    assert found and not asked and not any(e.checked for e in found)
    (tmp_path / "every.json").write_text(json.dumps({**data, "line_from": EVERY_LINE}))
    NumberReader(calibrator=tmp_path / "every.json").evidence(photo)
    lines_with_readings = len(asked)
    (tmp_path / "some.json").write_text(json.dumps({**data, "line_from": 0.1}))
    asked.clear()
    NumberReader(calibrator=tmp_path / "some.json").evidence(photo)
    assert 0 < len(asked) < lines_with_readings  # every line: those the glyphs read no number on too


def test_the_reader_files_match_their_recorded_provenance():
    """models/PROVENANCE.md records each shipped file's size and sha256 (the calibrator too)."""
    import re

    from athar.matching.numbers.calibration import sha256_of

    text = (CALIBRATOR_PATH.parent / "PROVENANCE.md").read_text("utf-8")
    recorded = re.findall(r"^\| `([\w.]+)` \| ([\d,]+) \| `([0-9a-f]{64})` \|", text, re.M)
    assert {name for name, *_ in recorded} == {"digits.npz", "calibrator.json"}
    for name, size, digest in recorded:
        path = CALIBRATOR_PATH.parent / name
        assert (path.stat().st_size, sha256_of(path)) == (int(size.replace(",", "")), digest), name
