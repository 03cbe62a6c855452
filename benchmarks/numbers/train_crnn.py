"""Train the CRNN line recogniser (``athar/matching/numbers/lines.py``) with torch and CTC, on CPU.

    /tmp/torchvenv/bin/python benchmarks/numbers/train_crnn.py /tmp/crnn/*.npz --out /tmp/crnn/crnn.npz \
        --seconds 1200

Training only: torch is imported here, never by the product. Reads the crops written by
``crnn_data.py`` (5 % held out, seed 1), trains for ``--seconds`` of wall time (one thread, seed 0,
Adam, CTC loss with blank 0), and writes the weights as ``crnn_*`` numpy arrays that
``lines.forward`` reads; checks that numpy and torch give the same log-probabilities on a few crops.
``--init`` weights smaller than ``--channels``/``--hidden`` are grown first (``grow``: the larger
network starts reading exactly as the smaller one), and the starting network's held-out accuracy is
printed before training.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import time
import zipfile
from pathlib import Path

import numpy as np
import torch
from torch import nn

from athar.matching.numbers import lines as L

CHANNELS = [8, 16, 32, 32, 48]
HIDDEN = [96]


class CRNN(nn.Module):
    """Five 3×3 convolutions (batch-normalised while training) with max pooling to one row, then
    1-D convolutions over the columns (width 3 for each hidden layer, then width 1 to the tokens)."""

    def __init__(self, channels: list[int] = CHANNELS, hidden: list[int] = HIDDEN) -> None:
        super().__init__()
        convs, norms = [], []
        previous = 1
        for c in channels:
            convs.append(nn.Conv2d(previous, c, 3, padding=1))
            norms.append(nn.BatchNorm2d(c))
            previous = c
        self.convs = nn.ModuleList(convs)
        self.norms = nn.ModuleList(norms)  # folded into the convolutions on export
        seq = []
        for h in hidden:
            seq.append(nn.Conv1d(previous, h, 3, padding=1))
            previous = h
        seq.append(nn.Conv1d(previous, len(L.TOKENS), 1))
        self.seq = nn.ModuleList(seq)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x[:, None]
        for conv, norm, pool in zip(self.convs, self.norms, L.POOLS, strict=True):
            h = nn.functional.max_pool2d(torch.relu(norm(conv(h))), pool)
        seq = h[:, :, 0, :]
        for layer in self.seq[:-1]:
            seq = torch.relu(layer(seq))
        return torch.log_softmax(self.seq[-1](seq), dim=1).permute(2, 0, 1)  # T, n, tokens


def augment(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Damage a batch of crops the way photos vary (training only, ``--augment``): a small affine
    warp per crop (scale across the line 0.85–1.15, shift ±2.5 px across, shear ±0.25, the line
    squeezed or stretched along (0.92–1.2)), blur, fading and gain, sensor noise, and the odd thin stroke of
    ink across the crop (pens, hair, card edges)."""
    n, h, w = x.shape
    t = torch.from_numpy(x)[:, None]
    theta = np.zeros((n, 2, 3), np.float32)
    sy = rng.uniform(0.85, 1.15, n)
    sx = rng.uniform(0.92, 1.2, n)
    theta[:, 0, 0] = sx
    theta[:, 0, 1] = rng.uniform(-0.25, 0.25, n) * (h / w)
    theta[:, 1, 1] = sy
    theta[:, 1, 2] = rng.uniform(-2.5, 2.5, n) * 2 / h
    theta[:, 0, 2] = (sx - 1) * rng.uniform(-1, 1, n)
    grid = nn.functional.affine_grid(torch.from_numpy(theta), [n, 1, h, w], align_corners=False)
    t = nn.functional.grid_sample(t, grid, padding_mode="zeros", align_corners=False)
    sigma = float(rng.uniform(0.3, 1.3))
    if rng.random() < 0.4:
        r = torch.arange(-2, 3, dtype=torch.float32)
        g = torch.exp(-(r**2) / (2 * sigma**2))
        g = g / g.sum()
        t = nn.functional.conv2d(t, g.view(1, 1, 1, 5), padding=(0, 2))
        t = nn.functional.conv2d(t, g.view(1, 1, 5, 1), padding=(2, 0))
    out = t[:, 0].numpy()
    out = out * (rng.uniform(0.5, 1.0, (n, 1, 1)) ** rng.uniform(0.7, 1.4, (n, 1, 1)))
    lines = rng.random(n) < 0.1
    for k in np.nonzero(lines)[0]:
        rows = slice(int(rng.integers(0, h - 1)), None)
        rows = slice(rows.start, rows.start + int(rng.integers(1, 3)))
        out[k, rows, :] = np.maximum(out[k, rows, :], rng.uniform(0.3, 1.0))
    out = out + rng.normal(0, 1, out.shape).astype(np.float32) * rng.uniform(0, 0.08, (n, 1, 1)).astype(np.float32)
    return np.clip(out, 0, 1).astype(np.float32)


def load(paths: list[Path]) -> tuple[list[tuple[np.ndarray, list[int]]], list[tuple[np.ndarray, list[int]]]]:
    """Training and held-out lines of the sources (5 % held out, by each line's place in its file,
    so a file that grew while training keeps its held-out lines held out)."""
    train, test = [], []
    for number, path in enumerate(paths):
        if not path.exists():  # a data file not written yet (the generator is still running)
            continue
        with np.load(path) as data:
            crops, widths, tokens = data["crops"], data["widths"], data["tokens"]
        offsets = np.concatenate([[0], np.cumsum(widths)])
        held = np.random.default_rng(1 + number).random(len(widths)) < 0.05
        for i, w in enumerate(widths):
            toks = [int(t) for t in str(tokens[i]).split(",") if t]
            if w // L.STRIDE >= 2 * len(toks) + 1:
                (test if held[i] else train).append((crops[:, offsets[i] : offsets[i + 1]], toks))
    return train, test


def batches(items: list[tuple[np.ndarray, list[int]]], rng: np.random.Generator, size: int):
    """Batches of similar widths (little padding), in random order."""
    order = sorted(range(len(items)), key=lambda i: items[i][0].shape[1] + rng.uniform(0, 16))
    chunks = [order[i : i + size] for i in range(0, len(order), size)]
    rng.shuffle(chunks)
    for chunk in chunks:
        width = max(items[i][0].shape[1] for i in chunk)
        x = np.zeros((len(chunk), L.HEIGHT, width), np.float32)
        for k, i in enumerate(chunk):
            crop = items[i][0].astype(np.float32) / 255.0
            x[k, :, : crop.shape[1]] = crop
        targets = [items[i][1] for i in chunk]
        lengths = [items[i][0].shape[1] // L.STRIDE for i in chunk]
        yield x, targets, lengths


def loss_of(model: CRNN, x: np.ndarray, targets: list[list[int]], lengths: list[int], ctc: nn.CTCLoss) -> torch.Tensor:
    logp = model(torch.from_numpy(x))
    flat = torch.tensor([t for ts in targets for t in ts], dtype=torch.long)
    return ctc(logp, flat, torch.tensor(lengths), torch.tensor([len(t) for t in targets]))


def exact(model: CRNN, items: list[tuple[np.ndarray, list[int]]]) -> float:
    """Share of held-out lines whose greedy decoding is exactly their tokens."""
    right = 0
    with torch.no_grad():
        for x, targets, lengths in batches(items, np.random.default_rng(0), 64):
            logp = model(torch.from_numpy(x)).permute(1, 0, 2).numpy()
            for k, t in enumerate(targets):
                got = [tok for tok, *_ in L.greedy(logp[k, : lengths[k]])]
                right += got == t
    return right / max(len(items), 1)


def export(model: CRNN) -> dict[str, np.ndarray]:
    weights = {}
    for i, (conv, norm) in enumerate(zip(model.convs, model.norms, strict=True)):
        gain = (norm.weight / torch.sqrt(norm.running_var + norm.eps)).detach()
        weights[f"crnn_c{i}w"] = (conv.weight.detach() * gain[:, None, None, None]).numpy().astype(np.float32)
        weights[f"crnn_c{i}b"] = (
            ((conv.bias.detach() - norm.running_mean) * gain + norm.bias.detach()).numpy().astype(np.float32)
        )
    for j, layer in enumerate(model.seq):
        weights[f"crnn_s{j}w"] = layer.weight.detach().numpy().astype(np.float32)
        weights[f"crnn_s{j}b"] = layer.bias.detach().numpy().astype(np.float32)
    return weights


def load_weights(model: CRNN, weights: dict[str, np.ndarray]) -> None:
    """Start from exported weights (the batch normalisation folded in: it restarts as identity)."""
    for i, conv in enumerate(model.convs):
        conv.weight.data = torch.from_numpy(weights[f"crnn_c{i}w"])
        conv.bias.data = torch.from_numpy(weights[f"crnn_c{i}b"])
    for j, layer in enumerate(model.seq):
        layer.weight.data = torch.from_numpy(weights[f"crnn_s{j}w"])
        layer.bias.data = torch.from_numpy(weights[f"crnn_s{j}b"])


def grow(
    weights: dict[str, np.ndarray], channels: list[int], hidden: list[int], seed: int = 0
) -> dict[str, np.ndarray]:
    """Exported weights widened (and deepened) to ``channels``/``hidden`` so that the larger network
    first reads exactly as the smaller one: each layer's old block kept, new units with small random
    weights in (a tenth of He initialisation) and zero weights out, and each column layer beyond the
    old ones an identity (the centre tap; the ReLU before it makes it exact). Weights already of the
    target size come back unchanged."""
    rng = np.random.default_rng(seed)

    def widen(old: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        out_old, in_old = old.shape[:2]
        assert shape[0] >= out_old and shape[1] >= in_old and shape[2:] == old.shape[2:], (old.shape, shape)
        fan_in = int(np.prod(shape[1:]))
        new = (rng.normal(0, 0.1 * math.sqrt(2 / fan_in), shape)).astype(np.float32)
        new[:out_old] = 0.0  # old units: no weight from the new inputs ...
        new[:out_old, :in_old] = old  # ... and their old weights
        return new

    def bias(old: np.ndarray, size: int) -> np.ndarray:
        return np.concatenate([old, np.zeros(size - len(old), np.float32)]).astype(np.float32)

    out: dict[str, np.ndarray] = {}
    previous = 1
    for i, c in enumerate(channels):
        out[f"crnn_c{i}w"] = widen(weights[f"crnn_c{i}w"], (c, previous, 3, 3))
        out[f"crnn_c{i}b"] = bias(weights[f"crnn_c{i}b"], c)
        previous = c
    depth = sum(1 for key in weights if key.startswith("crnn_s") and key.endswith("w"))
    old_hidden = depth - 1
    assert len(hidden) >= old_hidden, "growing cannot remove column layers"
    for j, h in enumerate(hidden):
        if j < old_hidden:
            out[f"crnn_s{j}w"] = widen(weights[f"crnn_s{j}w"], (h, previous, 3))
            out[f"crnn_s{j}b"] = bias(weights[f"crnn_s{j}b"], h)
        else:  # a new identity column layer (its extra units, if wider, start small and random)
            w = widen(np.zeros((0, previous, 3), np.float32), (h, previous, 3))
            for k in range(min(h, previous)):
                w[k] = 0.0
                w[k, k, 1] = 1.0
            out[f"crnn_s{j}w"] = w
            out[f"crnn_s{j}b"] = np.zeros(h, np.float32)
        previous = h
    last = weights[f"crnn_s{depth - 1}w"]
    final = np.zeros((last.shape[0], previous, 1), np.float32)  # new units' weights out: zero
    final[:, : last.shape[1]] = last
    out[f"crnn_s{len(hidden)}w"] = final
    out[f"crnn_s{len(hidden)}b"] = weights[f"crnn_s{depth - 1}b"].astype(np.float32)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sources", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seconds", type=float, default=1200)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--init", type=Path, default=None, help="start from these weights")
    parser.add_argument("--channels", type=int, nargs=5, default=CHANNELS, help="the five convolutions' widths")
    parser.add_argument("--hidden", type=int, nargs="*", default=HIDDEN, help="the column layers' widths")
    parser.add_argument("--augment", type=float, default=0.0, help="share of batches damaged on the fly")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = CRNN(args.channels, args.hidden)
    if args.init:
        with np.load(args.init) as data:
            initial = {k: data[k] for k in data.files if k.startswith("crnn_")}
        grown = grow(initial, args.channels, args.hidden)
        load_weights(model, grown)
        for norm in model.norms:
            norm.eps = 0.0
    print(f"{sum(p.numel() for p in model.parameters())} parameters", flush=True)
    optimiser = torch.optim.Adam(model.parameters(), lr=args.lr)
    ctc = nn.CTCLoss(blank=L.BLANK, zero_infinity=True)
    start = time.time()
    epoch = 0
    rng = np.random.default_rng(0)
    train: list[tuple[np.ndarray, list[int]]] = []
    test: list[tuple[np.ndarray, list[int]]] = []
    if args.init:  # the starting network on the held-out lines (the same lines as every pass's)
        with contextlib.suppress(OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError):
            train, test = load(args.sources)
        model.eval()
        x, _t, lengths = next(batches(test[:8], np.random.default_rng(0), 8))
        difference = float(np.abs(L.forward(grown, x) - L.forward(initial, x)).max())
        print(
            f"start: held-out exact {exact(model, test):.3f} on {len(test)} lines "
            f"({sum(1 for _c, t in test if t)} with tokens; exact on those {exact(model, [i for i in test if i[1]]):.3f}); "
            f"grown vs initial max log-prob difference {difference:.1e}",
            flush=True,
        )
    while time.time() - start < args.seconds:
        # The data files may still be growing; one being rewritten keeps the lines already loaded.
        with contextlib.suppress(OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError):
            train, test = load(args.sources)
        print(f"{len(train)} training lines, {len(test)} held out", flush=True)
        model.train()
        if args.init:  # continuing from folded weights: the normalisation stays the identity
            for norm in model.norms:
                norm.eval()
        total, count = 0.0, 0
        for x, targets, lengths in batches(train, rng, args.batch):
            if rng.random() < args.augment:
                x = augment(x, rng)
            elif rng.random() < 0.5:  # fading and gain: the crops' contrast varies in photos
                x = x * rng.uniform(0.6, 1.0) ** rng.uniform(0.7, 1.4)
            loss = loss_of(model, x, targets, lengths, ctc)
            for group in optimiser.param_groups:  # cosine decay over the time budget
                group["lr"] = args.lr * 0.5 * (1 + math.cos(math.pi * min(1.0, (time.time() - start) / args.seconds)))
            optimiser.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimiser.step()
            total += float(loss.detach()) * len(x)
            count += len(x)
            if time.time() - start > args.seconds:
                break
        epoch += 1
        model.eval()
        print(
            f"epoch {epoch} loss {total / max(count, 1):.3f} held-out exact {exact(model, test):.3f} "
            f"(with tokens {exact(model, [i for i in test if i[1]]):.3f}) "
            f"({time.time() - start:.0f} s)",
            flush=True,
        )
        weights = export(model)
        np.savez(args.out, **weights, threshold=np.array(0.9, np.float32))
    model.eval()
    weights = export(model)
    x, _t, _l = next(batches(test[:8], np.random.default_rng(0), 8))
    with torch.no_grad():
        expected = model(torch.from_numpy(x)).permute(1, 0, 2).numpy()
    got = L.forward(weights, x)
    print(f"numpy vs torch max difference {float(np.abs(got - expected).max()):.2e}")
    np.savez(args.out, **weights, threshold=np.array(0.9, np.float32))
    print(f"-> {args.out}")


if __name__ == "__main__":
    main()
