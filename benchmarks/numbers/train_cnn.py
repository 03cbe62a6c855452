"""Train the number reader's convolutional glyph network with torch (training only; the product runs
it with numpy, ``reader.forward_cnn``) and write ``athar/matching/numbers/models/digits.npz``.

    nice -n 10 python benchmarks/numbers/train.py data /tmp/athar-numbers/p0.npz --photos 250 --part 0
    nice -n 10 python benchmarks/numbers/train_cnn.py /tmp/athar-numbers/p*.npz --seconds 1200
    nice -n 10 python benchmarks/numbers/train.py threshold /tmp/athar-numbers/sets/dev

Input: the two-channel 24×24 windows ``train.py data`` cuts out exactly as the reader does (the
component's mask and the grey ink darkness around it). 10 % of windows are held out (seed 1); the
network is trained with AdamW on class-weighted cross-entropy (weights: inverse square root of
the class counts), augmented on the fly (shift, scale, rotation, shear; grey-channel contrast,
gamma, noise and blur), with a cosine learning rate over ``--epochs`` or ``--seconds`` of this
process's CPU time, whichever ends first, seed 0, one thread. torch is needed only here.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from athar.matching.numbers.reader import CLASSES, MODEL_PATH, PATCH, forward_cnn


class Net(nn.Module):
    """conv 3×3 (2→c0) ReLU pool, (c0→c1) ReLU pool, (c1→c2) ReLU pool, fc → hidden ReLU → classes."""

    def __init__(self, channels: tuple[int, int, int], hidden: int, dropout: float = 0.3) -> None:
        super().__init__()
        c0, c1, c2 = channels
        self.convs = nn.ModuleList([nn.Conv2d(2, c0, 3, padding=1), nn.Conv2d(c0, c1, 3, padding=1),
                                    nn.Conv2d(c1, c2, 3, padding=1)])
        side = PATCH // 8
        self.fc0 = nn.Linear(c2 * side * side, hidden)
        self.fc1 = nn.Linear(hidden, len(CLASSES))
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for conv in self.convs:
            x = F.max_pool2d(F.relu(conv(x)), 2)
        x = self.drop(F.relu(self.fc0(x.flatten(1))))
        return self.fc1(x)


def augment(x: torch.Tensor, gen: torch.Generator, strength: float = 1.0) -> torch.Tensor:
    """Small affine changes of both channels (what the line fit gets slightly wrong), and on the grey
    channel changes of contrast, gamma, blur and noise (pens, light and cameras differ)."""
    n = len(x)

    def r(*shape: int) -> torch.Tensor:
        return torch.rand(*shape, generator=gen)

    angle = (r(n) - 0.5) * 0.3 * strength
    scale = 1 + (r(n) - 0.5) * 0.24 * strength
    shear = (r(n) - 0.5) * 0.3 * strength
    cos, sin = torch.cos(angle) * scale, torch.sin(angle) * scale
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0], theta[:, 0, 1] = cos, -sin + shear
    theta[:, 1, 0], theta[:, 1, 1] = sin, cos
    theta[:, :, 2] = (r(n, 2) - 0.5) * 0.16 * strength
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    out = F.grid_sample(x, grid, align_corners=False, padding_mode="zeros")
    if strength < 1:
        return out
    grey = out[:, 1:2]
    blur = r(n) < 0.2
    if blur.any():
        kernel = torch.tensor([0.25, 0.5, 0.25])
        k2 = (kernel[:, None] * kernel[None, :])[None, None]
        grey[blur] = F.conv2d(grey[blur], k2, padding=1)
    gamma = torch.exp((r(n, 1, 1, 1) - 0.5) * 0.8)
    gain = 0.6 + 0.4 * r(n, 1, 1, 1)
    grey = grey.clamp(0, 1) ** gamma * gain
    grey = grey + torch.randn(grey.shape, generator=gen) * 0.06 * r(n, 1, 1, 1)
    peak = grey.flatten(1).amax(1).clamp(min=0.05)[:, None, None, None]
    grey = (grey / peak).clamp(0, 1)
    return torch.cat([out[:, :1], grey], dim=1)


def export(net: Net) -> dict[str, np.ndarray]:
    """The weights as numpy arrays under the names ``reader.forward_cnn`` reads."""
    out = {}
    for i, conv in enumerate(c for c in net.convs if isinstance(c, nn.Conv2d)):
        out[f"c{i}w"] = conv.weight.detach().numpy().astype(np.float32)
        assert conv.bias is not None
        out[f"c{i}b"] = conv.bias.detach().numpy().astype(np.float32)
    out["f0w"] = net.fc0.weight.detach().numpy().T.astype(np.float32).copy()
    out["f0b"] = net.fc0.bias.detach().numpy().astype(np.float32)
    out["f1w"] = net.fc1.weight.detach().numpy().T.astype(np.float32).copy()
    out["f1b"] = net.fc1.bias.detach().numpy().astype(np.float32)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sources", type=Path, nargs="+")
    parser.add_argument("--seconds", type=float, default=1200)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--channels", type=int, nargs=3, default=[8, 16, 32])
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--augment", type=float, default=1.0, help="strength; below 1: geometry only")
    parser.add_argument("--dropout", type=float, default=0.3)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    xs, ys = [], []
    for source in args.sources:
        with np.load(source) as d:
            xs.append(d["x"])
            ys.append(d["y"].astype(np.int64))
    x_all = np.concatenate(xs)
    y_all = np.concatenate(ys)
    order = np.random.default_rng(1).permutation(len(y_all))
    held, used = order[: len(y_all) // 10], order[len(y_all) // 10:]
    print(f"{len(y_all)} windows from {len(args.sources)} parts, classes "
          f"{np.bincount(y_all, minlength=len(CLASSES)).tolist()}", flush=True)
    x = torch.from_numpy(x_all[used]).float().div_(255).reshape(-1, 2, PATCH, PATCH)
    y = torch.from_numpy(y_all[used])
    counts = np.bincount(y_all[used], minlength=len(CLASSES)).astype(np.float64)
    weight = 1.0 / np.sqrt(np.maximum(counts, 1.0))
    weight *= len(y) / weight[y_all[used]].sum()
    c0, c1, c2 = args.channels
    net = Net((c0, c1, c2), args.hidden, args.dropout)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    loss_fn = nn.CrossEntropyLoss(weight=torch.tensor(weight, dtype=torch.float32))
    start = time.process_time()
    progress = 0.0
    for epoch in range(args.epochs):
        net.train()
        perm = torch.randperm(len(y), generator=gen)
        total, batches = 0.0, 0
        for s in range(0, len(y), args.batch):
            progress = max((epoch + s / len(y)) / args.epochs, (time.process_time() - start) / args.seconds)
            if progress >= 1.0:
                break
            for group in opt.param_groups:
                group["lr"] = args.lr * 0.5 * (1 + math.cos(math.pi * progress))
            idx = perm[s:s + args.batch]
            loss = loss_fn(net(augment(x[idx], gen, args.augment)), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            batches += 1
        print(f"epoch {epoch + 1}: loss {total / max(batches, 1):.4f} ({time.process_time() - start:.0f} CPU-s)",
              flush=True)
        if progress >= 1.0:
            print("time budget reached")
            break
    net.eval()
    weights = export(net)
    xh = x_all[held].astype(np.float32) / 255
    yh = y_all[held]
    predicted = np.concatenate([forward_cnn(weights, xh[i:i + 2048]).argmax(1) for i in range(0, len(xh), 2048)])
    with torch.no_grad():
        check = net(torch.from_numpy(xh[:256]).reshape(-1, 2, PATCH, PATCH)).numpy()
    assert np.allclose(check, forward_cnn(weights, xh[:256]), atol=1e-3), "numpy and torch disagree"
    digit = yh < 20
    same = (predicted == yh) | ((predicted % 10 == yh % 10) & (predicted < 20) & digit)  # ١ and 1 are one digit
    print(f"held-out accuracy {float((predicted == yh).mean()):.3f} over all classes, "
          f"{float(same[digit].mean()):.3f} on digits (either script's 1), {len(yh)} windows")
    weights["threshold"] = np.array(0.9, np.float32)
    np.savez_compressed(args.out, **weights)  # type: ignore[arg-type]
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
