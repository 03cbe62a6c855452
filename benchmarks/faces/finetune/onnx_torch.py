"""A torch module that runs the fr_feature.onnx graph (Conv, PRelu, Add, Reshape) with trainable weights,
and writes trained weights back into the same ONNX graph."""

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
from onnx import numpy_helper


class OnnxNet(nn.Module):
    def __init__(self, path):
        super().__init__()
        self.model = onnx.load(path)
        g = self.model.graph
        self.inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
        self.params = nn.ParameterDict()
        self.keymap = {}
        for i, name in enumerate(self.inits):
            arr = self.inits[name]
            if arr.dtype == np.float32:
                k = f"p{i}"
                self.keymap[name] = k
                self.params[k] = nn.Parameter(torch.from_numpy(arr.copy()))
        self.nodes = []
        for n in g.node:
            attrs = {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}
            self.nodes.append((n.op_type, list(n.input), list(n.output), attrs))
        self.input_name = g.input[0].name
        self.output_name = g.output[0].name

    def _get(self, env, name):
        if name in env:
            return env[name]
        if name in self.keymap:
            return self.params[self.keymap[name]]
        return torch.from_numpy(self.inits[name])

    def forward(self, x):
        env = {self.input_name: x}
        for op, ins, outs, a in self.nodes:
            if op == "Conv":
                w = self._get(env, ins[1])
                b = self._get(env, ins[2]) if len(ins) > 2 else None
                pads = a.get("pads", [0, 0, 0, 0])
                assert pads[0] == pads[2] and pads[1] == pads[3]
                y = F.conv2d(
                    env[ins[0]],
                    w,
                    b,
                    stride=tuple(a.get("strides", [1, 1])),
                    padding=(pads[0], pads[1]),
                    dilation=tuple(a.get("dilations", [1, 1])),
                    groups=a.get("group", 1),
                )
            elif op == "ConvTranspose":  # the restoration front-end's upsampling (frontend.py)
                w = self._get(env, ins[1])
                b = self._get(env, ins[2]) if len(ins) > 2 else None
                pads = a.get("pads", [0, 0, 0, 0])
                assert pads[0] == pads[2] and pads[1] == pads[3]
                y = F.conv_transpose2d(
                    env[ins[0]], w, b, stride=tuple(a.get("strides", [1, 1])), padding=(pads[0], pads[1])
                )
            elif op == "PRelu":
                s = self._get(env, ins[1])
                xx = env[ins[0]]
                y = F.prelu(xx, s.reshape(-1)) if s.numel() > 1 else F.prelu(xx, s.reshape(1))
            elif op == "Add":
                y = self._get(env, ins[0]) + self._get(env, ins[1])
            elif op == "Reshape":
                y = env[ins[0]].flatten(1)
            else:
                raise ValueError(op)
            env[outs[0]] = y
        return env[self.output_name]

    def save_onnx(self, path):
        """Write the current weights into a copy of the loaded graph (the loaded one stays as it was)."""
        model = onnx.ModelProto()
        model.CopyFrom(self.model)
        g = model.graph
        for t in g.initializer:
            if t.name in self.keymap:
                arr = self.params[self.keymap[t.name]].detach().numpy().astype(np.float32)
                t.CopyFrom(numpy_helper.from_array(arr, t.name))
        onnx.save(model, path)


def grey_mirror(net, x):
    """The product's grey-mirror recipe on a batch (N,3,112,112 grey crops, (v - 127) / 128):
    the unit vectors of each crop and its mirror image, averaged and renormalised."""
    v = F.normalize(net(x), dim=1) + F.normalize(net(torch.flip(x, dims=[3])), dim=1)
    return F.normalize(v, dim=1)
