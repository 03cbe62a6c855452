"""The line recogniser on clean rendered lines: no damage, upright, framed exactly (fifteenth session).

    nice -n 10 python benchmarks/numbers/clean_lines.py --model athar/matching/numbers/models/digits.npz

Lines of 4 or 5 random digits drawn with ``synthetic.render_line`` in the training fonts (half by
hand), dark ink on white, framed by ``lines.frame_of`` on the glyph pixels and cut with
``lines.crop``. Prints the share read exactly (CTC best path equal to the tokens) for print and
hand, and per digit how often it is dropped or misread (Levenshtein alignment of the best path to
the tokens), apart for the digits that look like digits upside down (0 1 6 8 9, ٠ ١ ٥ ٧ ٨) and the
others. A network that reads these far below ~100 % (print) is not held back by damage.
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from athar.matching.numbers import lines as L
from athar.matching.numbers.synthetic import TRAINING, font_file, fonts_for, render_line, to_script

TURNING = {1 + d for d in (0, 1, 6, 8, 9)} | {11 + d for d in (0, 1, 5, 7, 8)}


def token_of(label: str) -> int:
    """A glyph label's token (as ``crnn_data.token_of``)."""
    if label[0] in "WA" and label[1:].isdigit():
        return (1 if label[0] == "W" else 11) + int(label[1:])
    return L.WORD if label == "WORD" else L.OTHER


def align(want: list[int], got: list[int]) -> list[tuple[str, int]]:
    """Each wanted token as kept ("ok"), misread ("sub") or dropped ("del")."""
    n, m = len(want), len(got)
    d = np.zeros((n + 1, m + 1), int)
    d[:, 0], d[0, :] = range(n + 1), range(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + (want[i - 1] != got[j - 1]))
    i, j, out = n, m, []
    while i > 0:
        if j > 0 and d[i, j] == d[i - 1, j - 1] + (want[i - 1] != got[j - 1]):
            out.append(("ok" if want[i - 1] == got[j - 1] else "sub", want[i - 1]))
            i, j = i - 1, j - 1
        elif d[i, j] == d[i - 1, j] + 1:
            out.append(("del", want[i - 1]))
            i -= 1
        else:
            j -= 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", type=Path, default=Path("athar/matching/numbers/models/digits.npz"))
    parser.add_argument("--lines", type=int, default=800)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    with np.load(args.model) as data:
        weights = {k: data[k] for k in data.files if k.startswith("crnn_")}
    rng = np.random.default_rng(args.seed)
    exact: Counter[tuple[str, bool]] = Counter()
    per: defaultdict[int, Counter[str]] = defaultdict(Counter)
    done = 0
    while done < args.lines:
        script = "arabic" if rng.random() < 0.45 else "western"
        hand = bool(rng.random() < 0.5)
        text = to_script("".join(str(int(d)) for d in rng.integers(0, 10, int(rng.choice([4, 5])))), script)
        fonts = fonts_for(TRAINING, hand, text)
        if not fonts:
            continue
        path = font_file(str(rng.choice(fonts)))
        assert path is not None
        layer, _extents, ids, labels = render_line(text, path, int(rng.uniform(20, 44)), rng, hand)
        layer, ids = np.pad(layer, 40), np.pad(ids, 40)
        pts = [(xs, ys) for ys, xs in (np.nonzero(ids == i) for i in range(1, len(labels) + 1)) if len(xs)]
        frame = L.frame_of(pts)
        if frame is None:
            continue
        frame = frame.flipped() if frame.ux < 0 else frame
        logp = L.forward(weights, L.crop(1 - 0.9 * layer, frame)[None])[0]
        want = [token_of(label) for label in labels]
        got = [t for t, *_ in L.greedy(logp)]
        exact["hand" if hand else "print", got == want] += 1
        for op, token in align(want, got):
            per[token][op] += 1
        done += 1
    for kind in ("print", "hand"):
        right, total = exact[kind, True], exact[kind, True] + exact[kind, False]
        print(f"{kind}: {right}/{total} lines read exactly ({right / max(total, 1):.1%})")
    for token in sorted(per):
        c = per[token]
        n = sum(c.values())
        mark = "turns" if token in TURNING else "     "
        print(f"{L.TOKENS[token]:3s} {mark} n={n:4d} dropped {c['del'] / n:5.1%} misread {c['sub'] / n:5.1%}")
    for name, group in (("look like digits upside down", TURNING), ("are the others", set(range(1, 21)) - TURNING)):
        n = sum(sum(per[t].values()) for t in group)
        dropped = sum(per[t]["del"] for t in group)
        print(f"digits that {name}: dropped {dropped / max(n, 1):.1%} of {n}")


if __name__ == "__main__":
    main()
