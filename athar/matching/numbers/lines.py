"""A line recogniser for the number reader (issue 29): a small CRNN read with CTC, in plain numpy.

The glyph reader (``reader.py``) must cut a line into characters and read each one right; a
five-digit number is then lost whenever blur merges two digits or breaks one. This module reads a
whole line instead: the grey image is resampled upright along the line that the reader's component
grouping found (``frame``), 32 pixels high, as ink darkness relative to the crop's own background
(``crop``); a small convolutional network gives, for every four crop columns, the probabilities of
23 tokens (CTC blank, Western digits, Arabic-Indic digits, the word فرع, any other word); the best
path (``greedy``) is collapsed to a token string, and runs of digits become numbers in Western text
(``numbers_in``). Both reading directions are tried; the more confident is kept.

Weights: a ``.npz`` holding ``crnn_*`` arrays (trained with torch by
``benchmarks/numbers/train_crnn.py``; torch is never imported here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from athar.matching.numbers.calibration import NO_FIT
from athar.matching.numbers.reader import member_extents, sample_smoothed  # the glyph reader's, one way

HEIGHT = 32  # crop height in pixels
SPAN = 1.6  # the crop covers this many character heights across the line
MARGIN = 0.5  # character heights of margin before and after the line's members
MAX_WIDTH = 320  # crops wider than this are cut (a line of ~16 characters)
STRIDE = 4  # crop columns per network output column
BLANK = 0
TOKENS = ["", *[str(d) for d in range(10)], *[f"a{d}" for d in range(10)], "WORD", "OTHER"]
WESTERN = range(1, 11)
ARABIC = range(11, 21)
WORD = 21
OTHER = 22


@dataclass
class Frame:
    """Where a line lies in the photo: a point on it, its direction, its extent along the line
    (u0…u1 from the point), its centre across it (v) and its characters' height, in pixels."""

    x: float
    y: float
    ux: float
    uy: float
    u0: float
    u1: float
    v: float
    height: float

    def flipped(self) -> Frame:
        """The same line read the other way round."""
        return Frame(self.x, self.y, -self.ux, -self.uy, -self.u1, -self.u0, -self.v, self.height)

    def to_image(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Image coordinates (x, y) of line coordinates (u along, v across)."""
        return self.x + u * self.ux - v * self.uy, self.y + u * self.uy + v * self.ux


def frame_of(points: list[tuple[np.ndarray, np.ndarray]]) -> Frame | None:
    """A line's frame from its members' pixels (xs, ys): the principal axis of the members'
    centres (of a lone member, of its own pixels), the median member height across it."""
    centres = np.array([(float(x.mean()), float(y.mean())) for x, y in points])
    sizes = np.array([len(x) for x, _ in points], float)
    big = sizes >= 0.3 * np.median(sizes)
    basis = centres[big] if big.sum() >= 2 else centres
    if len(points) == 1:
        x, y = points[0]
        mean = np.array([float(x.mean()), float(y.mean())])
        cov = np.cov(np.stack([x - mean[0], y - mean[1]]))
    else:
        mean = basis.mean(axis=0)
        cov = np.cov((basis - mean).T) if len(basis) >= 2 else np.eye(2)
    values, vectors = np.linalg.eigh(cov)
    ux, uy = (float(c) for c in vectors[:, int(np.argmax(values))])
    e, _us, _box = member_extents(points, mean, ux, uy)
    heights = e[:, 3] - e[:, 2] + 1
    height = float(np.median(heights[big]))
    if len(points) == 1:  # a blob of merged characters: its thickness across the line
        height = heights[0]
    if height < 4:
        return None
    v = float(np.median(((e[:, 2] + e[:, 3]) / 2)[big]))
    return Frame(float(mean[0]), float(mean[1]), ux, uy, float(e[:, 0].min()), float(e[:, 1].max()), v, height)


def crop_grid(frame: Frame, span: float = SPAN, margin: float = MARGIN) -> tuple[np.ndarray, np.ndarray, float]:
    """The crop's sampling grid in image coordinates (HEIGHT × width) and its scale (image pixels
    per crop pixel)."""
    scale = span * frame.height / HEIGHT
    a, b = frame.u0 - margin * frame.height, frame.u1 + margin * frame.height
    width = int(min(MAX_WIDTH, max(8, math.ceil((b - a) / scale))))
    width += (-width) % STRIDE
    us = a + (np.arange(width) + 0.5) * scale
    vs = frame.v + (np.arange(HEIGHT) + 0.5 - HEIGHT / 2) * scale
    gu, gv = np.meshgrid(us, vs)
    gx, gy = frame.to_image(gu, gv)
    return gx, gy, scale


def crop(gray: np.ndarray, frame: Frame) -> np.ndarray:
    """The line upright, HEIGHT pixels high: ink darkness 0 (background) … 1 (darkest ink),
    relative to the crop's 70th percentile and its darkest pixel (faded ink on dark skin and black
    ink on a card look alike). The photo is smoothed before it is shrunk."""
    gx, gy, scale = crop_grid(frame)
    v = sample_smoothed(gray, gx, gy, 3 + int(2 * scale), scale)
    return np.zeros(gx.shape, np.float32) if v is None else normalise(v)


def normalise(v: np.ndarray) -> np.ndarray:
    """Ink darkness relative to the crop's background (70th percentile) and darkest ink."""
    hi = float(np.percentile(v, 70))
    lo = float(v.min())
    return np.clip((hi - v) / max(hi - lo, 0.03), 0.0, 1.0).astype(np.float32)


# ---------------------------------------------------------------- the network, in numpy


def _conv(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 3×3 convolution, one pixel of zero padding, ReLU, channels last: x (n, h, w, c), w as
    torch stores it (out, c, 3, 3). One matrix product over the nine shifted copies (im2col)."""
    n, h, wd, c = x.shape
    padded = np.zeros((n, h + 2, wd + 2, c), np.float32)
    padded[:, 1:-1, 1:-1] = x
    cols = np.concatenate([padded[:, dy : dy + h, dx : dx + wd] for dy in range(3) for dx in range(3)], axis=3)
    kernel = w.transpose(2, 3, 1, 0).reshape(9 * c, len(w))
    out = cols.reshape(-1, 9 * c) @ kernel
    out += b
    return np.maximum(out, 0.0, out=out).reshape(n, h, wd, len(w))


def _pool(x: np.ndarray, ph: int, pw: int) -> np.ndarray:
    """Max pooling by 2 down the rows (ph) and across the columns (pw), channels last."""
    if ph == 2:
        x = np.maximum(x[:, 0::2], x[:, 1::2])
    if pw == 2:
        x = np.maximum(x[:, :, 0::2], x[:, :, 1::2])
    return x


POOLS = [(2, 2), (2, 2), (2, 1), (2, 1), (2, 1)]  # 32 × W → 1 × W/4


def forward(weights: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """Log-probabilities (n, W/STRIDE, tokens) for crops x (n, HEIGHT, W): five 3×3 convolutions
    with max pooling down to one row, then 1-D convolutions over the columns (``crnn_s0``,
    ``crnn_s1``, …: as many as the weights hold, ReLU between them)."""
    h = x[:, :, :, None].astype(np.float32)
    for i, (ph, pw) in enumerate(POOLS):
        h = _pool(_conv(h, weights[f"crnn_c{i}w"], weights[f"crnn_c{i}b"]), ph, pw)
    seq = h[:, 0]  # (n, columns, channels)
    depth = sum(1 for key in weights if key.startswith("crnn_s") and key.endswith("w"))
    for j in range(depth):
        w, b = weights[f"crnn_s{j}w"], weights[f"crnn_s{j}b"]  # (out, in, k)
        k = w.shape[2]
        t = seq.shape[1]
        padded = np.pad(seq, ((0, 0), (k // 2, k // 2), (0, 0)))
        cols = np.concatenate([padded[:, d : d + t] for d in range(k)], axis=2)
        seq = cols @ w.transpose(2, 1, 0).reshape(-1, len(w)) + b
        if j < depth - 1:  # ReLU between the column layers, log-softmax after the last
            seq = np.maximum(seq, 0.0)
    logits = seq - seq.max(axis=2, keepdims=True)
    return logits - np.log(np.exp(logits).sum(axis=2, keepdims=True))


# ---------------------------------------------------------------- decoding


def greedy(logp: np.ndarray) -> list[tuple[int, int, int, float]]:
    """CTC best path of one line (T, tokens): the emitted tokens after merging repeats and
    dropping blanks, each as (token, first column, last column, its peak probability)."""
    best = logp.argmax(axis=1)
    peak = np.exp(logp.max(axis=1))
    out: list[tuple[int, int, int, float]] = []
    previous = BLANK
    for t, token in enumerate(best.tolist()):
        if token != BLANK and token == previous:
            tok, first, _last, p = out[-1]
            out[-1] = (tok, first, t, max(p, float(peak[t])))
        elif token != BLANK:
            out.append((token, t, t, float(peak[t])))
        previous = token
    return out


def digit_of(token: int) -> str | None:
    """The Western digit a token stands for (Arabic-Indic digits map to the same digit)."""
    if token in WESTERN:
        return str(token - 1)
    if token in ARABIC:
        return str(token - 11)
    return None


def numbers_in(
    tokens: list[tuple[int, int, int, float]], logp: np.ndarray, lengths: tuple[int, int] = (3, 8)
) -> list[tuple[str, float, int, int, str | None]]:
    """Runs of ``lengths`` digits in one script among a line's tokens: (Western text, confidence,
    first column, last column, kind). Confidence is the best path's weakest column over the run
    and three columns either side (a dropped digit is a blank that barely won), capped by how sure
    the columns just outside the run are not a digit (a partial reading is the wrong suggestion to
    avoid). A run followed by the word فرع is a branch number."""
    out = []
    i = 0
    while i < len(tokens):
        if digit_of(tokens[i][0]) is None:
            i += 1
            continue
        j = i
        while j < len(tokens) and digit_of(tokens[j][0]) is not None:
            j += 1
        run = tokens[i:j]
        if lengths[0] <= len(run) <= lengths[1] and _one_script(run):
            probs = np.exp(logp)
            # The best path's weakest column over the run and three columns either side: a digit
            # the path dropped (a blank that barely won) makes the reading unsure, as does a weak digit.
            span = probs[max(0, run[0][1] - 3) : run[-1][2] + 4].max(axis=1)
            confidence = min(min(p for *_, p in run), float(span.min()))
            digits = probs[:, 1:21].sum(axis=1)
            before = digits[max(0, run[0][1] - 3) : run[0][1]]
            after = digits[run[-1][2] + 1 : run[-1][2] + 4]
            edge = max([0.0, *before.tolist(), *after.tolist()])
            confidence = min(confidence, 1.0 - edge)
            text = "".join(digit_of(t) or "" for t, *_ in run)
            kind = "branch" if j < len(tokens) and tokens[j][0] == WORD else None
            out.append((text, float(confidence), run[0][1], run[-1][2], kind))
        i = j
    return out


def _one_script(run: list[tuple[int, int, int, float]]) -> bool:
    """All digits in one script (a Western 1 and an Arabic-Indic ١ are one shape: either)."""
    western = sum(t in WESTERN and t != 2 for t, *_ in run)
    arabic = sum(t in ARABIC and t != 12 for t, *_ in run)
    return western == 0 or arabic == 0


def text_fit(logp: np.ndarray, text: str) -> float:
    """How far short of the line recogniser's best path a digit string falls on a line (twenty-
    seventh session): the best alignment of ``text`` (Western digits; either script's token counts
    for a digit) to any stretch of the line's columns (CTC: each digit on one or more columns, a
    blank allowed between digits and required between two alike), scored by each column's
    log-probability of its token less the column's best token's (about 0: the best path reads
    ``text`` there — a little above where a digit's two scripts share a column; the more negative,
    the more the line recogniser reads otherwise). The glyph network's readings were weighed only
    by what the best path happens to read over their place; a sure glyph reading the best path
    reads no number over was as unsure as one it contradicts."""
    if not text or len(logp) == 0:
        return NO_FIT
    probs = np.exp(logp)
    digits = np.log(probs[:, 1:11] + probs[:, 11:21] + 1e-12)  # (T, 10): either script
    gap_digits = digits - logp.max(axis=1, keepdims=True)
    gap_blank = logp[:, BLANK] - logp.max(axis=1)
    labels = [int(c) for c in text]
    n = len(labels)
    # States 0, 2, …, 2n−2: the digits; 1, 3, …: the blank after each (between digits).
    emit = np.empty((len(logp), 2 * n - 1))
    emit[:, 0::2] = gap_digits[:, labels]
    emit[:, 1::2] = gap_blank[:, None]
    skip = [k % 2 == 0 and k >= 2 and labels[k // 2] != labels[k // 2 - 1] for k in range(2 * n - 1)]
    best = -math.inf
    score = [-math.inf] * (2 * n - 1)
    for row in emit.tolist():  # plain floats: a few states over a few dozen columns
        new = [0.0] * len(score)
        for k, e in enumerate(row):
            s = score[k]
            if k == 0:
                s = max(s, 0.0)  # the first digit may start at any column
            else:
                s = max(s, score[k - 1])
                if skip[k]:
                    s = max(s, score[k - 2])
            new[k] = s + e
        score = new
        best = max(best, score[-1])  # the last digit may end at any column
    return max(best, NO_FIT)
