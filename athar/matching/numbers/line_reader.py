"""Reading a photo's numbers line by line with the CRNN (``lines.py``) instead of glyph by glyph.

The candidate lines are the glyph reader's (``reader.py``): both ink masks, connected components
grouped into lines at any angle, and lone long blobs (digits merged by blur). A line found under
both masks is read once. Each line is cut upright from the grey image in both reading directions
(``lines.crop``), the crops are read in batches of similar width, and every run of 3–8 digits of
the best CTC path is a candidate number, boxed by the part of the line it covers.
"""

from __future__ import annotations

from collections.abc import Iterator

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
            pts = []
            for i in group:
                label, sl_r, sl_c, _ = kept[i]
                ys, xs = np.nonzero(labels[sl_r, sl_c] == label)
                pts.append((xs + sl_c.start, ys + sl_r.start))
            frame = L.frame_of(pts)
            if frame is not None:
                yield frame, pts


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
    """Every candidate number of a grey photo (0–1): (Western text, confidence, box, kind)."""
    both = [f for frame in frames(gray) for f in (frame, frame.flipped())]
    crops = [L.crop(gray, f) for f in both]
    order = sorted(range(len(crops)), key=lambda i: crops[i].shape[1])
    out = []
    for start in range(0, len(order), BATCH):
        chunk = order[start : start + BATCH]
        width = max(crops[i].shape[1] for i in chunk)
        x = np.zeros((len(chunk), L.HEIGHT, width), np.float32)
        for k, i in enumerate(chunk):
            x[k, :, : crops[i].shape[1]] = crops[i]
        logp = L.forward(weights, x)
        for k, i in enumerate(chunk):
            own = logp[k, : crops[i].shape[1] // L.STRIDE]
            for text, confidence, first, last, kind in L.numbers_in(L.greedy(own), own):
                out.append((text, confidence, box_of(both[i], first, last), kind))
    return out
