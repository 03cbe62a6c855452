"""The CRNN line recogniser's pieces that need no weights: CTC greedy decoding, the digit tokens
mapped to Western text, runs of digits into numbers, the numpy network against a plain
convolution, and the upright crop of a line at an angle."""

from __future__ import annotations

import numpy as np
import pytest

from athar.matching.numbers import lines as L


def path(tokens: list[int], sure: float = 0.9) -> np.ndarray:
    """Log-probabilities (T, tokens) whose best path is ``tokens`` (0 is the CTC blank)."""
    p = np.full((len(tokens), len(L.TOKENS)), (1 - sure) / (len(L.TOKENS) - 1))
    p[np.arange(len(tokens)), tokens] = sure
    return np.log(p)


def test_greedy_merges_repeats_and_drops_blanks():
    # 3 3 _ 3 _ 0 0 : "3", then after a blank "3" again, then "0"  (tokens: digit d is d + 1)
    got = L.greedy(path([4, 4, 0, 4, 0, 1, 1]))
    assert [t for t, *_ in got] == [4, 4, 1]
    assert [(first, last) for _, first, last, _ in got] == [(0, 1), (3, 3), (5, 6)]


def test_both_digit_scripts_map_to_western_digits():
    assert [L.digit_of(t) for t in range(1, 11)] == list("0123456789")
    assert [L.digit_of(t) for t in range(11, 21)] == list("0123456789")
    assert L.digit_of(L.BLANK) is None and L.digit_of(L.WORD) is None and L.digit_of(L.OTHER) is None


def test_a_run_of_arabic_indic_digits_followed_by_the_branch_word_is_a_branch_number():
    # ٢٢٧ فرع : a2 _ a2 _ a7 _ WORD
    logp = path([13, 0, 13, 0, 18, 0, 0, L.WORD])
    assert [(text, kind) for text, _c, _a, _b, kind in L.numbers_in(L.greedy(logp), logp)] == [("227", "branch")]


def test_runs_too_short_or_in_two_scripts_are_not_numbers():
    two = path([2, 0, 3])  # "12": too short
    mixed = path([4, 0, 15, 0, 6, 0, 7])  # 3 ٤ 5 6: two scripts
    one = path([2, 0, 13, 0, 14, 0, 15])  # a Western 1 among Arabic-Indic digits: one shape
    assert L.numbers_in(L.greedy(two), two) == []
    assert L.numbers_in(L.greedy(mixed), mixed) == []
    assert [n[0] for n in L.numbers_in(L.greedy(one), one)] == ["1234"]


def test_a_number_is_as_sure_as_its_weakest_digit_and_its_ends():
    logp = path([2, 0, 3, 0, 4, 0, 0, 0, 0])
    logp[2] = np.log(np.full(len(L.TOKENS), 0.4 / 22))
    logp[2, 3] = np.log(0.6)
    [(text, confidence, *_)] = L.numbers_in(L.greedy(logp), logp)
    assert text == "123" and confidence == pytest.approx(0.6)
    # A column just after the run that might be a digit makes the reading possibly partial.
    edge = path([2, 0, 3, 0, 4, 0, 0, 0, 0])
    edge[5] = np.log(np.full(len(L.TOKENS), 0.3 / 21))
    edge[5, 0], edge[5, 8] = np.log(0.55), np.log(0.15)
    [(_t, capped, *_)] = L.numbers_in(L.greedy(edge), edge)
    assert capped < 0.9


def _convolutions(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Random weights of the five 3×3 convolutions (1 → 2 → 3 channels)."""
    channels = [1, 2, 3, 3, 3, 3]
    w = {}
    for i in range(5):
        w[f"crnn_c{i}w"] = rng.normal(0, 0.5, (channels[i + 1], channels[i], 3, 3)).astype(np.float32)
        w[f"crnn_c{i}b"] = rng.normal(0, 0.1, channels[i + 1]).astype(np.float32)
    return w


def test_the_numpy_network_matches_a_plain_convolution():
    rng = np.random.default_rng(0)
    w = _convolutions(rng)
    w["crnn_s0w"] = rng.normal(0, 0.5, (4, 3, 3)).astype(np.float32)
    w["crnn_s0b"] = np.zeros(4, np.float32)
    w["crnn_s1w"] = rng.normal(0, 0.5, (len(L.TOKENS), 4, 1)).astype(np.float32)
    w["crnn_s1b"] = np.zeros(len(L.TOKENS), np.float32)
    x = rng.random((2, L.HEIGHT, 16)).astype(np.float32)
    got = L.forward(w, x)
    # The same network written out plainly: loops over output positions.
    h = x[:, None]
    for i, (ph, pw) in enumerate(L.POOLS):
        k, b = w[f"crnn_c{i}w"], w[f"crnn_c{i}b"]
        padded = np.pad(h, ((0, 0), (0, 0), (1, 1), (1, 1)))
        out = np.zeros((h.shape[0], len(k), h.shape[2], h.shape[3]))
        for r in range(h.shape[2]):
            for c in range(h.shape[3]):
                out[:, :, r, c] = np.einsum("nchw,ochw->no", padded[:, :, r : r + 3, c : c + 3], k) + b
        out = np.maximum(out, 0)
        n, ch, hh, ww = out.shape
        h = out.reshape(n, ch, hh // ph, ph, ww // pw, pw).max(axis=(3, 5))
    seq = np.pad(h[:, :, 0], ((0, 0), (0, 0), (1, 1)))
    hidden = np.maximum(
        sum(np.einsum("nit,oi->not", seq[:, :, d : d + 4], w["crnn_s0w"][:, :, d]) for d in range(3)), 0
    )
    logits = np.einsum("nit,oi->nto", hidden, w["crnn_s1w"][:, :, 0])
    expected = logits - np.log(np.exp(logits).sum(axis=2, keepdims=True))
    assert got.shape == (2, 4, len(L.TOKENS))
    np.testing.assert_allclose(got, expected, atol=1e-4)


def test_the_numpy_network_reads_as_many_column_layers_as_the_weights_hold():
    # Seventh session: the line network has two hidden column layers (ReLU between, none after the last).
    rng = np.random.default_rng(1)
    w = _convolutions(rng)
    w["crnn_s0w"] = rng.normal(0, 0.5, (4, 3, 3)).astype(np.float32)
    w["crnn_s0b"] = rng.normal(0, 0.1, 4).astype(np.float32)
    w["crnn_s1w"] = rng.normal(0, 0.5, (5, 4, 3)).astype(np.float32)
    w["crnn_s1b"] = rng.normal(0, 0.1, 5).astype(np.float32)
    w["crnn_s2w"] = rng.normal(0, 0.5, (len(L.TOKENS), 5, 1)).astype(np.float32)
    w["crnn_s2b"] = np.zeros(len(L.TOKENS), np.float32)
    x = rng.random((2, L.HEIGHT, 24)).astype(np.float32)
    got = L.forward(w, x)
    # The convolutions as the test above checks them; the column layers written out plainly.
    h = x[:, :, :, None]
    for i, (ph, pw) in enumerate(L.POOLS):
        h = L._pool(L._conv(h, w[f"crnn_c{i}w"], w[f"crnn_c{i}b"]), ph, pw)
    seq = h[:, 0]  # (n, t, c)
    for j, relu in ((0, True), (1, True), (2, False)):
        k = w[f"crnn_s{j}w"]
        pad = k.shape[2] // 2
        padded = np.pad(seq, ((0, 0), (pad, pad), (0, 0)))
        out = np.zeros((seq.shape[0], seq.shape[1], len(k)))
        for t in range(seq.shape[1]):
            out[:, t] = np.einsum("nkc,ock->no", padded[:, t : t + k.shape[2]], k) + w[f"crnn_s{j}b"]
        seq = np.maximum(out, 0) if relu else out
    expected = seq - np.log(np.exp(seq).sum(axis=2, keepdims=True))
    assert got.shape == (2, 6, len(L.TOKENS))
    np.testing.assert_allclose(got, expected, atol=1e-4)


def test_a_line_at_an_angle_is_cut_upright_and_reads_the_other_way_when_flipped():
    gray = np.ones((200, 200), np.float32)
    angle = np.deg2rad(30)
    ux, uy = np.cos(angle), np.sin(angle)
    # A dark bar along the line, and a dark dot at its start (u = -40).
    for t in np.linspace(-40, 40, 400):
        gray[int(100 + t * uy), int(100 + t * ux)] = 0.1
    for du in range(-2, 3):
        for dv in range(-6, 7):
            x, y = 100 - 40 * ux + du * ux - dv * uy, 100 - 40 * uy + du * uy + dv * ux
            gray[int(round(y)), int(round(x))] = 0.0
    frame = L.Frame(100.0, 100.0, float(ux), float(uy), -40.0, 40.0, 0.0, 12.0)
    crop = L.crop(gray, frame)
    assert crop.shape[0] == L.HEIGHT and crop.shape[1] % L.STRIDE == 0
    middle = crop[L.HEIGHT // 2 - 2 : L.HEIGHT // 2 + 2].mean()
    assert middle > 0.3 > 0.1 > crop[:4].mean()  # the bar runs along the crop's middle row
    dot = int(np.argmax(crop[:8].sum(axis=0) + crop[-8:].sum(axis=0)))
    assert dot < crop.shape[1] // 2  # the dot (taller than the bar) is at the start
    flipped = L.crop(gray, frame.flipped())
    assert int(np.argmax(flipped[:8].sum(axis=0) + flipped[-8:].sum(axis=0))) > flipped.shape[1] // 2


def test_a_digit_the_best_path_nearly_kept_makes_the_number_unsure():
    # 1 _ 2 _ 3, but the blank between 1 and 2 barely beat a 7: perhaps "1723".
    logp = path([2, 0, 3, 0, 4])
    logp[1] = np.log(np.full(len(L.TOKENS), 0.05 / 21))
    logp[1, 0], logp[1, 8] = np.log(0.5), np.log(0.45)
    [(text, confidence, *_)] = L.numbers_in(L.greedy(logp), logp)
    assert text == "123" and confidence == pytest.approx(0.5)


def test_a_weights_file_with_a_line_network_reads_lines_instead_of_glyphs(tmp_path, monkeypatch):
    from PIL import Image

    from athar.matching.numbers import line_reader
    from athar.matching.numbers.reader import NumberReader

    rng = np.random.default_rng(1)
    channels = [1, 4, 4, 4, 4, 4]
    w = {f"crnn_c{i}w": rng.normal(0, 0.3, (channels[i + 1], channels[i], 3, 3)).astype(np.float32) for i in range(5)}
    w |= {f"crnn_c{i}b": np.zeros(channels[i + 1], np.float32) for i in range(5)}
    w |= {
        "crnn_s0w": rng.normal(0, 0.3, (4, 4, 3)).astype(np.float32),
        "crnn_s0b": np.zeros(4, np.float32),
        "crnn_s1w": rng.normal(0, 0.3, (len(L.TOKENS), 4, 1)).astype(np.float32),
        "crnn_s1b": np.zeros(len(L.TOKENS), np.float32),
    }
    np.savez(tmp_path / "lines.npz", **w, threshold=np.array(0.5, np.float32))
    calls = []
    monkeypatch.setattr(
        line_reader,
        "read_lines",
        lambda gray, weights: (
            calls.append(sorted(weights))
            or [("12345", 0.9, [10, 10, 60, 30], None), ("999", 0.2, [100, 100, 130, 120], None)]
        ),
    )
    reader = NumberReader(tmp_path / "lines.npz", calibrator=None)
    readings = reader.read(Image.new("RGB", (300, 200), (200, 180, 160)))
    assert calls == [sorted(w)]
    assert [(r.text, r.box) for r in readings] == [("12345", [10, 10, 60, 30])]  # below the threshold: not returned


def test_the_product_reads_glyphs_confirmed_by_a_line_network():
    from athar.matching.numbers.reader import Classifier

    product = Classifier()
    assert product.glyphs and product.lines  # the glyph reader, its readings confirmed by the line recogniser
    weights = product.lines
    logp = L.forward(weights, np.zeros((2, L.HEIGHT, 40), np.float32))
    assert logp.shape == (2, 10, len(L.TOKENS))
    np.testing.assert_allclose(np.exp(logp).sum(axis=2), 1.0, rtol=1e-5)
    assert L.greedy(logp[0]) == []  # a blank crop reads as nothing


def test_crops_are_batched_with_others_of_similar_width():
    from athar.matching.numbers import line_reader

    widths = [320, 40, 44, 48, 100, 120, 50, 316]
    crops = [np.zeros((L.HEIGHT, w), np.float32) for w in widths]
    chunks = line_reader._chunks(crops)
    assert sorted(i for chunk in chunks for i in chunk) == list(range(len(widths)))  # each crop once
    for chunk in chunks:
        ws = [widths[i] for i in chunk]
        assert max(ws) <= 1.25 * min(ws)  # little padding: a 40-px crop is not padded to 320
    assert len(chunks) == 3


def test_the_line_read_the_other_way_is_its_crop_turned_round():
    from scipy import ndimage

    from athar.matching.numbers import line_reader

    gray = ndimage.gaussian_filter(np.random.default_rng(3).random((120, 200)), 2.0).astype(np.float32)
    frame = L.Frame(100.0, 60.0, 0.96, 0.28, -47.3, 45.1, 0.4, 20.0)
    upright, turned = line_reader._both_ways(gray, frame)
    np.testing.assert_array_equal(upright, L.crop(gray, frame))
    resampled = L.crop(gray, frame.flipped())
    assert turned.shape == resampled.shape

    def best(a: np.ndarray, b: np.ndarray) -> float:  # over the few columns the width was rounded by
        w = a.shape[1]
        return max(np.corrcoef(a[:, k:].ravel(), b[:, : w - k].ravel())[0, 1] for k in range(L.STRIDE + 1))

    assert best(turned, resampled) > 0.95
    assert best(upright, resampled) < 0.5  # not the same crop unturned


def test_a_number_read_differently_when_the_line_is_cut_larger_or_smaller_is_unsure(monkeypatch):
    from athar.matching.numbers import line_reader

    frame = L.Frame(100.0, 60.0, 1.0, 0.0, -40.0, 40.0, 0.0, 20.0)
    monkeypatch.setattr(line_reader, "frames", lambda gray: [frame])
    first = [path([2, 0, 3, 0, 4, 0, 5], 0.9), path([0] * 7)]  # "1234" one way, nothing the other
    zoomed = {
        "agree": [path([2, 0, 3, 0, 4, 0, 5], 0.8), path([0, 2, 0, 3, 0, 4, 0, 5], 0.7)],
        "one dropped a digit": [path([2, 0, 3, 0, 4, 0, 5], 0.8), path([2, 0, 4, 0, 5], 0.9)],
    }
    sizes = []
    for case, expected in (("agree", (0.9 + 0.8 + 0.7) / 3), ("one dropped a digit", (0.9 + 0.8 + 0.0) / 3)):
        calls = iter([first, zoomed[case]])
        monkeypatch.setattr(
            line_reader, "_forward", lambda crops, weights, calls=calls: sizes.append(len(crops)) or next(calls)
        )
        [(text, confidence, box, kind)] = line_reader.read_lines(np.ones((120, 200), np.float32), {})
        assert text == "1234" and kind is None
        assert confidence == pytest.approx(expected, abs=1e-6), case
        assert box == line_reader.box_of(frame, 0, 6)  # the columns its digits span
    assert sizes == [2, 2, 2, 2]  # both ways, then the one candidate at two more sizes


def test_lines_read_in_one_batch_keep_their_own_readings(monkeypatch):
    # Twenty-fourth session: the reader's evidence reads every line of an ink mask at once
    # (``read_each``) and needs each line's readings apart.
    from athar.matching.numbers import line_reader

    frames = [L.Frame(100.0, 60.0, 1.0, 0.0, -40.0, 40.0, 0.0, 20.0), L.Frame(100.0, 160.0, 1.0, 0.0, -40.0, 40.0, 0.0, 20.0)]
    first = [path([0] * 7), path([0] * 7), path([2, 0, 3, 0, 4, 0, 5], 0.2), path([6, 0, 7, 0, 8], 0.2)]
    sizes = []
    monkeypatch.setattr(line_reader, "_forward", lambda crops, weights: sizes.append(len(crops)) or first)
    each = line_reader.read_each(np.ones((220, 200), np.float32), frames, {})
    assert sizes == [4, 0]  # both lines, both ways, in one call; nothing sure enough to read again
    assert each[0] == [] and sorted(t for t, *_ in each[1]) == ["1234", "567"]
    assert line_reader.read_frames(np.ones((220, 200), np.float32), frames, {}) == each[1]


def test_a_glyph_reading_the_line_recogniser_reads_alike_is_surer(tmp_path, monkeypatch):
    from athar.matching.numbers import line_reader
    from athar.matching.numbers.reader import AGREE_DOUBT, MODEL_PATH, NumberReader
    from tests.matching.numbers.test_reader import FONT, photo_with_card

    if not FONT.exists():
        pytest.skip("fonts-dejavu-core is not installed")
    photo, card = photo_with_card("52817", 35)
    with np.load(MODEL_PATH) as data:
        # the glyph network alone, without the file's own agreement rule (the default rule is tested here)
        weights = {k: data[k] for k in data.files if not k.startswith(("crnn_", "agree_")) and k != "beyond"}
    np.savez(tmp_path / "glyphs.npz", **weights)
    glyph = NumberReader(tmp_path / "glyphs.npz", calibrator=None)
    assert glyph.classifier.glyphs and not glyph.classifier.lines
    [alone] = glyph.read_all(photo)
    weights |= {"crnn_s1b": np.zeros(len(L.TOKENS), np.float32)}  # a line network (read_frames is replaced)
    np.savez(tmp_path / "both.npz", **weights)
    both = NumberReader(tmp_path / "both.npz", calibrator=None)
    assert both.classifier.glyphs and both.classifier.lines
    for line_says, expected in (("52817", 1 - (1 - alone.confidence) * 0.2 * AGREE_DOUBT), ("5281", alone.confidence)):
        seen = []
        monkeypatch.setattr(
            line_reader,
            "read_frames",
            lambda gray, frames, weights, text=line_says, seen=seen: seen.append(frames) or [(text, 0.8, card, None)],
        )
        [reading] = [r for r in both.read_all(photo) if r.text == "52817"]
        assert reading.confidence == pytest.approx(expected), line_says
        assert seen and all(len(f) == 1 for f in seen)  # only the line of the glyph reading is read again


def test_a_weights_file_carries_its_own_agreement_rule(tmp_path, monkeypatch):
    # Seventh session: agree_from / agree_doubt / agree_alone stored beside the threshold, chosen on
    # dev with those weights (benchmarks/numbers/rules.py --write); with agree_alone the line
    # recogniser's own reading of a checked line is a candidate too.
    from athar.matching.numbers import line_reader
    from athar.matching.numbers.reader import MODEL_PATH, RULE, NumberReader
    from tests.matching.numbers.test_reader import FONT, photo_with_card

    if not FONT.exists():
        pytest.skip("fonts-dejavu-core is not installed")
    photo, card = photo_with_card("52817", 35)
    with np.load(MODEL_PATH) as data:
        weights = {k: data[k] for k in data.files if k not in RULE}
    np.savez(tmp_path / "plain.npz", **weights)
    np.savez(tmp_path / "rule.npz", **weights, agree_from=np.float32(0.0), agree_doubt=np.float32(0.5),
             agree_alone=np.float32(0.5))
    monkeypatch.setattr(line_reader, "read_frames", lambda gray, frames, weights: [("52817", 0.8, card, None),
                                                                                   ("9999", 0.9, [0, 0, 9, 9], None)])
    plain, rule = NumberReader(tmp_path / "plain.npz", calibrator=None), NumberReader(tmp_path / "rule.npz", calibrator=None)
    assert (rule.agree_from, rule.agree_doubt, rule.agree_alone) == (0.0, 0.5, 0.5)
    assert "agree_alone" not in rule.classifier.weights
    texts = {r.text: r.confidence for r in plain.read_all(photo)}
    assert "9999" not in texts  # no line reading of its own without agree_alone
    with_rule = {r.text: r.confidence for r in rule.read_all(photo)}
    assert with_rule["9999"] == pytest.approx(0.45)  # 0.9 × agree_alone
    g = 1 - (1 - texts["52817"]) / (0.2 * 0.3)  # the glyph confidence the plain file's rule raised
    assert with_rule["52817"] == pytest.approx(1 - (1 - g) * 0.2 * 0.5)


def test_a_glyph_reading_inside_a_longer_run_of_the_line_cut_wider_is_partial():
    # Eleventh session: both readers read "9870" of a "98700" whose last digit the ink masks lost
    # (the line's members stop before it); the line cut wider reads the whole run.
    from athar.matching.numbers.reader import agreed

    glyphs = [("9870", 0.9, [10, 10, 50, 30], None)]
    line = [("9870", 0.8, [12, 10, 52, 30], None)]
    confirmed = 1 - (1 - 0.9) * (1 - 0.8) * 0.1
    [(_, c, _, _)] = agreed(glyphs, line, 0.1, 0.1, 0.0)
    assert c == pytest.approx(confirmed)
    [(_, c, _, _)] = agreed(glyphs, line, 0.1, 0.1, 0.0, [("98700", [10, 10, 62, 30])], 0.5)
    assert c == pytest.approx(0.45)  # partial: g × agree_partial, not confirmed
    for runs in ([("9870", [10, 10, 50, 30])], [("98700", [200, 10, 250, 30])], [("12345", [10, 10, 62, 30])]):
        [(_, c, _, _)] = agreed(glyphs, line, 0.1, 0.1, 0.0, runs, 0.5)  # the same run, elsewhere, other digits
        assert c == pytest.approx(confirmed), runs


def test_a_checked_glyph_reading_the_line_recogniser_does_not_confirm_can_be_lowered():
    # Twelfth session: with the convolutional glyph network, sure glyph readings the line
    # recogniser did not read alike were wrong far more often than confirmed ones.
    from athar.matching.numbers.reader import agreed

    glyphs = [("7718", 0.99, [10, 10, 50, 30], None), ("215", 0.05, [100, 10, 130, 30], None)]
    line = [("7188", 0.9, [12, 10, 52, 30], None)]
    assert [c for _, c, _, _ in agreed(glyphs, line, 0.1, 0.1, 0.0)] == [0.99, 0.05]  # as it is by default
    lowered = [c for _, c, _, _ in agreed(glyphs, line, 0.1, 0.1, 0.0, unconfirmed=0.9)]
    assert lowered == [pytest.approx(0.891), 0.05]  # only a checked reading (g >= agree_from) is lowered
    [(_, c, _, _), _] = agreed(glyphs, [("7718", 0.9, [12, 10, 52, 30], None)], 0.1, 0.1, 0.0, unconfirmed=0.9)
    assert c == pytest.approx(1 - 0.01 * 0.1 * 0.1)  # a confirmed one is not


def test_the_digit_runs_of_a_line_cut_wider_are_read_both_ways(monkeypatch):
    from athar.matching.numbers import line_reader

    frame = L.Frame(100.0, 60.0, 1.0, 0.0, -40.0, 40.0, 0.0, 20.0)
    widths = []

    def forward(crops, weights):
        widths.extend(c.shape[1] for c in crops)
        # "98", a word, "7001" one way; "12" the other way
        return [path([10, 0, 9, 0, 21, 0, 8, 0, 1, 0, 1, 0, 2]), path([0, 0, 2, 3, 0])]

    monkeypatch.setattr(line_reader, "_forward", forward)
    runs = line_reader.digit_runs(np.ones((120, 200), np.float32), frame, {})
    assert [t for t, _ in runs] == ["98", "7001", "12"]
    assert widths[0] > L.crop(np.ones((120, 200), np.float32), frame).shape[1]  # cut wider than the line
    wide = L.Frame(100.0, 60.0, 1.0, 0.0, -40.0 - 30.0, 40.0 + 30.0, 0.0, 20.0)
    assert runs[1][1] == line_reader.box_of(wide, 6, 12)
    assert runs[2][1] == line_reader.box_of(wide, 5 - 1 - 3, 5 - 1 - 2)  # turned columns, counted upright


def test_a_text_the_best_path_reads_fits_the_line_and_another_falls_short():
    # Twenty-seventh session (``lines.text_fit``): the glyph network's text weighed against the line
    # recogniser's columns, wherever on the line it lies. Best path: _ 3 _ 5 5 _ 5 _ فرع (digit d is d + 1).
    logp = path([0, 4, 0, 6, 6, 0, 6, 0, L.WORD], 0.99)
    for text in ("355", "55", "35"):  # the path reads it over some stretch
        assert L.text_fit(logp, text) == pytest.approx(0.0, abs=0.01), text
    wrong_digit = L.text_fit(logp, "356")
    assert -8.0 < wrong_digit < -5.0  # one column's best token traded for a very unlikely one
    assert L.text_fit(logp, "3555") < -5.0  # a fourth 5 needs a column the path spends on a blank or فرع
    assert L.text_fit(logp, "4") < -5.0
    assert L.text_fit(logp, "") == L.NO_FIT and L.text_fit(logp[:0], "355") == L.NO_FIT


def test_two_alike_digits_need_a_blank_between_them_to_fit():
    one_five = path([0, 6, 6, 6, 0], 0.99)  # "5" held over three columns: CTC reads one 5
    assert L.text_fit(one_five, "55") < -5.0
    assert L.text_fit(path([0, 6, 0, 6, 0], 0.99), "55") == pytest.approx(0.0, abs=0.01)


def test_either_scripts_digit_fits_a_western_text():
    arabic = path([0, 14, 0, 16, 0], 0.99)  # ٣ ٥ (Arabic-Indic d is d + 11)
    assert L.text_fit(arabic, "35") == pytest.approx(0.0, abs=0.01)


def test_lines_read_in_one_batch_hand_back_their_paths_both_ways(monkeypatch):
    from athar.matching.numbers import line_reader

    frames = [L.Frame(100.0, 60.0, 1.0, 0.0, -40.0, 40.0, 0.0, 20.0), L.Frame(100.0, 160.0, 1.0, 0.0, -40.0, 40.0, 0.0, 20.0)]
    first = [path([0] * 7), path([1] * 7), path([2, 0, 3, 0, 4, 0, 5], 0.2), path([6, 0, 7, 0, 8], 0.2)]
    monkeypatch.setattr(line_reader, "_forward", lambda crops, weights: first)
    paths: list[tuple[np.ndarray, np.ndarray]] = []
    each = line_reader.read_each(np.ones((220, 200), np.float32), frames, {}, paths=paths)
    assert each == line_reader.read_each(np.ones((220, 200), np.float32), frames, {})  # the same readings
    assert len(paths) == 2 and all(a is b for pair, want in zip(paths, [first[0:2], first[2:4]]) for a, b in zip(pair, want))
