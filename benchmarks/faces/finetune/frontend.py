"""Give the embedder more capacity in front: a small restoration network inside the same ONNX graph.

Round 3 of the fine-tuning (README.md here). The 1.19 M-parameter embedder has to do two jobs on an
archive face — undo the damage (a 40-px face blown up to 112, blur, flat light, JPEG) and tell
people apart — and the failure analysis put almost all remaining losses in it. This prepends a
residual front-end that works at half resolution (56×56, where a small face's detail is anyway):

    input ─ Conv 4×4/2 (3→C) ─ PReLU ─ [h + PReLU(Conv 3×3, dilation d)] × L ─ ConvTranspose 4×4/2 (C→3) ─ + input ─ embedder

Its last layer starts at zero, so the new graph computes exactly the old one until training moves
it; both are then trained together (train.py --frontend). Only Conv, PRelu, Add and ConvTranspose:
onnxruntime runs it like the original, and onnx_torch.OnnxNet trains it.

    /tmp/trainenv/bin/python benchmarks/faces/finetune/frontend.py IN.onnx OUT.onnx --channels 32 --layers 4
"""
from __future__ import annotations

import argparse

import numpy as np
import onnx
from onnx import helper, numpy_helper

DILATIONS = (1, 2, 4, 1, 2, 4, 1, 2)


def add_frontend(src: str, dst: str, channels: int = 32, layers: int = 4, seed: int = 0) -> None:
    model = onnx.load(src)
    g = model.graph
    x = g.input[0].name
    for node in g.node:  # the embedder now reads the restored image
        node.input[:] = ["fe_out" if i == x else i for i in node.input]
    rng = np.random.default_rng(seed)
    inits, nodes = [], []

    def param(name: str, arr: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(arr.astype(np.float32), name))
        return name

    def he(shape: tuple[int, ...], fan_in: int, gain: float = 1.0) -> np.ndarray:
        return rng.normal(0, gain * np.sqrt(2.0 / fan_in), shape)

    nodes.append(helper.make_node("Conv", [x, param("fe_in_w", he((channels, 3, 4, 4), 3 * 16)), param("fe_in_b", np.zeros(channels))],
                                  ["fe_h0c"], kernel_shape=[4, 4], strides=[2, 2], pads=[1, 1, 1, 1]))
    nodes.append(helper.make_node("PRelu", ["fe_h0c", param("fe_in_a", np.full((channels, 1, 1), 0.25))], ["fe_h0"]))
    h = "fe_h0"
    for k in range(layers):
        d = DILATIONS[k % len(DILATIONS)]
        w = param(f"fe_{k}_w", he((channels, channels, 3, 3), channels * 9, gain=0.5))
        nodes.append(helper.make_node("Conv", [h, w, param(f"fe_{k}_b", np.zeros(channels))], [f"fe_{k}_c"],
                                      kernel_shape=[3, 3], pads=[d, d, d, d], dilations=[d, d]))
        nodes.append(helper.make_node("PRelu", [f"fe_{k}_c", param(f"fe_{k}_a", np.full((channels, 1, 1), 0.25))], [f"fe_{k}_p"]))
        nodes.append(helper.make_node("Add", [h, f"fe_{k}_p"], [f"fe_h{k + 1}"]))
        h = f"fe_h{k + 1}"
    nodes.append(helper.make_node("ConvTranspose", [h, param("fe_out_w", np.zeros((channels, 3, 4, 4))), param("fe_out_b", np.zeros(3))],
                                  ["fe_r"], kernel_shape=[4, 4], strides=[2, 2], pads=[1, 1, 1, 1]))
    nodes.append(helper.make_node("Add", [x, "fe_r"], ["fe_out"]))
    old = list(g.node)
    del g.node[:]
    g.node.extend(nodes + old)
    g.initializer.extend(inits)
    onnx.checker.check_model(model)
    onnx.save(model, dst)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--channels", type=int, default=32)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    add_frontend(a.src, a.dst, a.channels, a.layers, a.seed)


if __name__ == "__main__":
    main()
