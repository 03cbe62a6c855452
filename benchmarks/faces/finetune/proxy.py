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

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from onnx_torch import OnnxNet, grey_mirror  # noqa: PLC0415

    net = OnnxNet(onnx_file).eval()
    with torch.no_grad():
        return np.concatenate([
            grey_mirror(net, torch.from_numpy(((crops[i : i + 64, None].repeat(3, 1) - 127.0) / 128.0).astype(np.float32))).numpy()
            for i in range(0, len(crops), 64)
        ])


def metrics(z: np.lib.npyio.NpzFile, vecs: np.ndarray) -> dict[str, float]:
    """The benchmark's own rank metrics (athar.matching.faces.evaluation) on the dumped faces."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    from athar.matching.faces.evaluation import identification_metrics, score_matrix  # noqa: PLC0415

    side, owner = z["side"], z["owner"]
    present, absent, n_cases = int(z["present"]), int(z["absent"]), int(z["cases"])
    probes = [vecs[(side == 0) & (owner == i)] for i in range(present + absent)]
    cases = [vecs[(side == 1) & (owner == j)] for j in range(n_cases)]
    true_case = list(range(present)) + [-1] * absent
    m = identification_metrics(score_matrix(probes, cases), true_case, [len(p) > 0 for p in probes], lambda s: False)
    return {k: m[k] for k in ("rank1", "rank5", "rank10", "mrr", "median_rank")}


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
