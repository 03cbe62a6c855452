"""A fast stand-in for identification.py while choosing fine-tuning checkpoints.

``dump`` runs the product's detection, turn choice and alignment once on a benchmark split
(the same photos and degradations as ``identification.py``) and stores every aligned crop;
``eval`` then embeds those crops with any ONNX checkpoint (grey-mirror recipe, batched in
torch) and prints rank-1 / rank-10 / MRR of the true case — in a minute instead of the ten
that a full run costs on this machine. Figures for the record always come from
identification.py (the product's own path); this only ranks checkpoints.

    nice .venv/bin/python benchmarks/faces/finetune/proxy.py dump --split dev /tmp/ft/proxy-dev.npz
    /tmp/trainenv/bin/python benchmarks/faces/finetune/proxy.py eval /tmp/ft/proxy-dev.npz CKPT.onnx ...
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np


def dump(split: str, out: Path, condition: str, mated: int, distractors: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    from identification import case_images, probe_images  # noqa: PLC0415
    from identity_split import make_split  # noqa: PLC0415

    from athar.matching.faces.pipeline import FacePipeline, family_order  # noqa: PLC0415

    pipe = FacePipeline()
    s = make_split(split, mated, distractors)
    crops: list[np.ndarray] = []
    owner: list[int] = []
    side: list[int] = []  # 0 probe (first face in family order only), 1 case (every face)
    for kind, images in ((0, probe_images(s)), (1, case_images(s, condition))):
        for i, img in enumerate(images):
            faces = family_order(pipe.aligned_faces(img))
            for f in faces[:1] if kind == 0 else faces:
                crops.append(np.asarray(f.crop.convert("L"), dtype=np.uint8))
                owner.append(i)
                side.append(kind)
            if i % 100 == 0:
                print(f"{'probes' if kind == 0 else 'cases'} {i}", file=sys.stderr, flush=True)
    np.savez_compressed(
        out, crops=np.stack(crops), owner=np.array(owner), side=np.array(side),
        present=len(s.present), absent=len(s.absent), cases=len(s.present) + len(s.distractors),
    )


def embed(onnx_file: str, crops: np.ndarray) -> np.ndarray:
    import torch  # noqa: PLC0415
    import torch.nn.functional as F  # noqa: PLC0415

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from onnx_torch import OnnxNet  # noqa: PLC0415

    net = OnnxNet(onnx_file).eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(crops), 64):
            g = (crops[i : i + 64].astype(np.float32) - 127.0) / 128.0
            x = torch.from_numpy(np.ascontiguousarray(g[:, None].repeat(3, 1)))
            v = F.normalize(net(x), dim=1) + F.normalize(net(torch.flip(x, dims=[3])), dim=1)
            out.append(F.normalize(v, dim=1).numpy())
    return np.concatenate(out)


def metrics(z: np.lib.npyio.NpzFile, vecs: np.ndarray) -> dict[str, float]:
    side, owner = z["side"], z["owner"]
    n_cases, present = int(z["cases"]), int(z["present"])
    cv, co = vecs[side == 1], owner[side == 1]
    ranks = []
    for p in range(present):
        m = (side == 0) & (owner == p)
        if not m.any():
            ranks.append(n_cases)
            continue
        s = cv @ vecs[m][0]
        best = np.full(n_cases, -2.0)
        np.maximum.at(best, co, s)
        ranks.append(1 + int((best > best[p]).sum()) if best[p] > -2 else n_cases)
    r = np.array(ranks)
    return {"rank1": float((r == 1).mean()), "rank5": float((r <= 5).mean()), "rank10": float((r <= 10).mean()),
            "mrr": float((1 / r).mean()), "median": float(np.median(r))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("--split", default="dev")
    d.add_argument("--condition", default="archive")
    d.add_argument("--mated", type=int, default=300)
    d.add_argument("--distractors", type=int, default=400)
    e = sub.add_parser("eval")
    e.add_argument("crops", type=Path)
    e.add_argument("onnx", nargs="+")
    args = ap.parse_args()
    if args.cmd == "dump":
        dump(args.split, args.out, args.condition, args.mated, args.distractors)
        return
    z = np.load(args.crops)
    for f in args.onnx:
        m = metrics(z, embed(f, z["crops"]))
        print(f, " ".join(f"{k} {v:.3f}" for k, v in m.items()), flush=True)


if __name__ == "__main__":
    main()
