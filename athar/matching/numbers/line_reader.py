"""Reading a photo's numbers line by line with the CRNN (``lines.py``) instead of glyph by glyph.

The candidate lines are the glyph reader's (``reader.py``): both ink masks, connected components
grouped into lines at any angle, and lone long blobs (digits merged by blur). A line found under
both masks is read once. Each line is cut upright from the grey image in both reading directions
(``lines.crop``; the other way is the same crop turned round), the crops are read in batches of
similar width, and every run of 3–8 digits of the best CTC path is a candidate number, boxed by the
part of the line it covers. A candidate that might be returned is read twice more, from the line
cut as if its characters were 10 % smaller and 10 % larger, and is only as sure as the three
readings agree (``read_lines``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import numpy as np

from athar.matching.numbers import lines as L
from athar.matching.numbers.reader import INK_MASKS, blobs, components, lines

BATCH = 48


def candidate_lines(gray: np.ndarray) -> Iterator[tuple[L.Frame, list[tuple[np.ndarray, np.ndarray]]]]:
    """Every candidate line of a photo under each ink mask, with its components' pixels (x, y):
    the lines the reader reads, and the training data cuts (``benchmarks/numbers/crnn_data.py``)."""
    for mask in INK_MASKS:
        labels, kept = components(mask(gray))
        grouped = lines(kept)
        for group in grouped + blobs(labels, kept, grouped):
            pts = points(labels, kept, group)
            frame = L.frame_of(pts)
            if frame is not None:
                yield frame, pts


def points(
    labels: np.ndarray, kept: list[tuple[int, slice, slice, int]], group: list[int]
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The pixels (x, y) of each member of a line (indices into ``kept``, as ``reader.lines`` gives)."""
    pts = []
    for i in group:
        label, sl_r, sl_c, _ = kept[i]
        ys, xs = np.nonzero(labels[sl_r, sl_c] == label)
        pts.append((xs + sl_c.start, ys + sl_r.start))
    return pts


def frames(gray: np.ndarray) -> list[L.Frame]:
    """The candidate lines of a photo under both ink masks, each once."""
    found: list[tuple[L.Frame, tuple[int, int, int, int]]] = []
    for frame, pts in candidate_lines(gray):
        box = (
            min(int(x.min()) for x, _ in pts),
            min(int(y.min()) for _, y in pts),
            max(int(x.max()) for x, _ in pts) + 1,
            max(int(y.max()) for _, y in pts) + 1,
        )
        if not any(_iou(box, other) >= 0.8 and 0.8 <= frame.height / f.height <= 1.25 for f, other in found):
            found.append((frame, box))
    return [f for f, _ in found]


def _iou(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def box_of(frame: L.Frame, first: int, last: int) -> list[int]:
    """The photo box of a reading: the crop columns its tokens span, widened by a third of a
    character height on either end, across the line's character height."""
    scale = L.SPAN * frame.height / L.HEIGHT
    a = frame.u0 - L.MARGIN * frame.height
    u0 = a + first * L.STRIDE * scale - 0.3 * frame.height
    u1 = a + (last + 1) * L.STRIDE * scale + 0.3 * frame.height
    us = np.array([u0, u1, u0, u1])
    vs = frame.v + np.array([-0.5, -0.5, 0.5, 0.5]) * frame.height
    x, y = frame.to_image(us, vs)
    return [int(np.floor(x.min())), int(np.floor(y.min())), int(np.ceil(x.max())), int(np.ceil(y.max()))]


def read_lines(gray: np.ndarray, weights: dict[str, np.ndarray]) -> list[tuple[str, float, list[int], str | None]]:
    """Every candidate number of a grey photo (0–1): (Western text, confidence, box, kind). A
    candidate at least ``VERIFY`` sure is read again from the line cut a little larger and a little
    smaller (``ZOOMS``); its confidence is the mean of the three readings' (0 for a re-reading that
    does not give the same text): a digit dropped or misread at one scale only is an unsure one."""
    return read_frames(gray, frames(gray), weights)


def read_frames(
    gray: np.ndarray, found: list[L.Frame], weights: dict[str, np.ndarray]
) -> list[tuple[str, float, list[int], str | None]]:
    """The candidate numbers of these lines of the photo, each read both ways (``read_lines``)."""
    return [c for each in read_each(gray, found, weights) for c in each]


def read_each(
    gray: np.ndarray, found: list[L.Frame], weights: dict[str, np.ndarray],
    paths: list[tuple[np.ndarray, np.ndarray]] | None = None,
) -> list[list[tuple[str, float, list[int], str | None]]]:
    """``read_frames`` line by line: the candidate numbers of each of these lines, read in one
    batch (the reader's evidence reads every line of an ink mask at once). ``paths``, when given,
    receives each line's log-probabilities read upright and turned round (``lines.text_fit``
    weighs another reader's text against them: twenty-seventh session)."""
    crops = [c for f in found for c in _both_ways(gray, f)]
    candidates = []
    outputs = _forward(crops, weights)
    if paths is not None:
        paths.extend(zip(outputs[0::2], outputs[1::2], strict=True))
    for i, logp in enumerate(outputs):
        frame = found[i // 2] if i % 2 == 0 else found[i // 2].flipped()
        for text, confidence, first, last, kind in L.numbers_in(L.greedy(logp), logp):
            if i % 2:  # columns of the turned crop, counted in the upright one
                first, last = len(logp) - 1 - last, len(logp) - 1 - first
            candidates.append((text, confidence, box_of(found[i // 2], first, last), kind, frame, i // 2))
    sure = [c for c in candidates if c[1] >= VERIFY]
    again = iter(_forward([L.crop(gray, _zoom(c[4], z)) for c in sure for z in ZOOMS], weights))
    out: list[list[tuple[str, float, list[int], str | None]]] = [[] for _ in found]
    for text, confidence, box, kind, _frame, line in candidates:
        if confidence >= VERIFY:  # in the order of ``sure``
            confidence = float(np.mean([confidence, *(_same(next(again), text) for _ in ZOOMS)]))
        out[line].append((text, confidence, box, kind))
    return out


WIDER = 1.5  # character heights added at each end of a line when looking for a partial reading


def digit_runs(gray: np.ndarray, frame: L.Frame, weights: dict[str, np.ndarray],
               extra: float = WIDER) -> list[tuple[str, list[int]]]:
    """Every run of digits (any length, Western text) on the best CTC path of the line cut
    ``extra`` character heights longer at each end, read both ways, with its photo box: where a
    digit beyond the line's members (lost to the ink masks or the grouping) shows up."""
    wide = replace(frame, u0=frame.u0 - extra * frame.height, u1=frame.u1 + extra * frame.height)
    out = []
    for i, logp in enumerate(_forward(list(_both_ways(gray, wide)), weights)):
        run: list[tuple[int, int, int, float]] = []
        for token in [*L.greedy(logp), (L.BLANK, 0, 0, 0.0)]:
            if L.digit_of(token[0]) is not None:
                run.append(token)
                continue
            if run:
                first, last = run[0][1], run[-1][2]
                if i % 2:  # columns of the turned crop, counted in the upright one
                    first, last = len(logp) - 1 - last, len(logp) - 1 - first
                out.append(("".join(L.digit_of(t) or "" for t, *_ in run), box_of(wide, first, last)))
                run = []
    return out


VERIFY = 0.3  # the lowest threshold train.py threshold tries
ZOOMS = (0.9, 1.1)  # the character height a re-reading assumes, relative to the line's


def _same(logp: np.ndarray, text: str) -> float:
    """The confidence of a re-reading's number with this text (0 when it reads none)."""
    return max((n[1] for n in L.numbers_in(L.greedy(logp), logp) if n[0] == text), default=0.0)


def _zoom(frame: L.Frame, z: float) -> L.Frame:
    """The same line with its character height scaled: the crop zooms out (z > 1) or in."""
    return L.Frame(frame.x, frame.y, frame.ux, frame.uy, frame.u0, frame.u1, frame.v, frame.height * z)


def _forward(crops: list[np.ndarray], weights: dict[str, np.ndarray]) -> list[np.ndarray]:
    """Each crop's log-probabilities (columns, tokens), read in batches of similar width."""
    out: list[np.ndarray] = [np.zeros((0, len(L.TOKENS)))] * len(crops)
    for chunk in _chunks(crops):
        width = max(crops[i].shape[1] for i in chunk)
        x = np.zeros((len(chunk), L.HEIGHT, width), np.float32)
        for k, i in enumerate(chunk):
            x[k, :, : crops[i].shape[1]] = crops[i]
        logp = L.forward(weights, x)
        for k, i in enumerate(chunk):
            out[i] = logp[k, : crops[i].shape[1] // L.STRIDE]
    return out


def _both_ways(gray: np.ndarray, frame: L.Frame) -> tuple[np.ndarray, np.ndarray]:
    """The line's crop and the crop of the line read the other way round: the same samples turned
    by 180° (the flipped frame's grid is the same up to a fraction of a crop column)."""
    upright = L.crop(gray, frame)
    return upright, np.ascontiguousarray(upright[::-1, ::-1])


def _chunks(crops: list[np.ndarray], spread: float = 1.25) -> list[list[int]]:
    """The crops' indices in batches of at most BATCH whose widths differ by at most ``spread``:
    a batch is padded to its widest crop, and the network's cost grows with the padded width."""
    order = sorted(range(len(crops)), key=lambda i: crops[i].shape[1])
    chunks: list[list[int]] = []
    for i in order:
        if chunks and len(chunks[-1]) < BATCH and crops[i].shape[1] <= spread * crops[chunks[-1][0]].shape[1]:
            chunks[-1].append(i)
        else:
            chunks.append([i])
    return chunks
