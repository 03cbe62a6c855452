"""Fine-tune the ArcFace-style embedder for archive photos by self-distillation (README.md here).

Teacher: the published fr_feature.onnx, frozen; it embeds each clean grey crop and its mirror
(the product's grey-mirror recipe). Student: the same graph with trainable weights (onnx_torch.py),
trained so that 1 - cos(student(degraded grey crop), teacher(clean crop of the same photo)) is
small; a share of clean crops keeps ordinary photos where they were. Input: the crops of
make_data.py. Output: ``<out>/fr_feature_ft.onnx`` (same graph, new weights), saved every 200
steps and at the end. Needs PyTorch (a separate environment; not a product dependency).
"""

import argparse
import glob
import io
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np
import torch
import torch.nn.functional as F
from onnx_torch import OnnxNet, grey_mirror
from PIL import Image, ImageFilter

ap = argparse.ArgumentParser()
ap.add_argument("--data", default="/tmp/ft/data")
ap.add_argument("--steps", type=int, default=1200)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--lr", type=float, default=5e-5)
ap.add_argument("--clean-share", type=float, default=0.25)
ap.add_argument("--out", default="/tmp/ft/out")
ap.add_argument("--minutes", type=float, default=60)
ap.add_argument("--ncc", type=float, default=0.5)
ap.add_argument("--dry", action="store_true")
ap.add_argument("--init", default=None, help="start the student from this ONNX file (teacher stays the original)")
ap.add_argument("--seed", type=int, default=7)
ap.add_argument(
    "--ce-weight",
    type=float,
    default=0.0,
    help="weight of the contrastive term: each crop against the clean teacher vectors of every training photo, "
    "photos of the same person as positives (0 = distillation only, as in runs 1 and 2)",
)
ap.add_argument("--tau", type=float, default=0.1, help="temperature of the contrastive term")
ap.add_argument("--save-every", type=int, default=200, help="also keep a numbered checkpoint every so many steps")
ap.add_argument(
    "--frontend",
    type=int,
    default=0,
    help="round 3: prepend a restoration front-end with this many channels (frontend.py; 0 = none, as in rounds 1-2)",
)
ap.add_argument("--frontend-layers", type=int, default=4)
ap.add_argument("--fe-lr", type=float, default=1e-3, help="the front-end's learning rate (the embedder keeps --lr)")
args = ap.parse_args()
torch.set_num_threads(2)
ONNX = os.path.join(
    os.path.dirname(os.path.abspath(__file__)),
    "..",
    "..",
    "..",
    "athar",
    "matching",
    "faces",
    "models",
    "fr_feature.onnx",
)
os.makedirs(args.out, exist_ok=True)

parts = [np.load(p) for p in sorted(glob.glob(args.data + "/part*.npz"))]
photo = np.concatenate([p["photo"] for p in parts])
kind = np.concatenate([p["kind"] for p in parts])
clean = np.concatenate([p["clean"] for p in parts])
deg = np.concatenate([p["degraded"] for p in parts])
print("rows", len(photo), file=sys.stderr)


def grey(a):  # HxWx3 uint8 -> HxW float luminance (PIL's L), as the grey-mirror recipe sees it
    return np.asarray(Image.fromarray(a).convert("L"), dtype=np.float32)


def to_x(g):  # list of HxW float -> N,3,112,112 in the embedder's (v - 127) / 128
    x = ((np.stack(g) - 127.0) / 128.0)[:, None].repeat(3, 1)
    return x.astype(np.float32)


t0 = time.time()
uniq, first = np.unique(photo, return_index=True)
cache = args.data + "/teacher.npz"
tnet = OnnxNet(ONNX).eval()


def teacher_t(net, gs):
    """The teacher's vectors of grey crops (the teacher network is freed once they are cached)."""
    out = []
    with torch.no_grad():
        for i in range(0, len(gs), 64):
            out.append(grey_mirror(net, torch.from_numpy(to_x(gs[i : i + 64]))).numpy())
    return np.concatenate(out)


if os.path.exists(cache):
    T_clean = np.load(cache)["T_clean"]
else:
    T_clean = teacher_t(tnet, [grey(clean[i]) for i in first])
    np.savez(cache, T_clean=T_clean)
del tnet
row_t = T_clean[np.searchsorted(uniq, photo)]


def small_std(a):
    g = np.asarray(Image.fromarray(a).convert("L").resize((28, 28), Image.BILINEAR), dtype=np.float32)[4:24, 4:24]
    return (g - g.mean()) / (g.std() + 1e-6)


cs = np.stack([small_std(clean[i]) for i in range(len(clean))])
ds = np.stack([small_std(d) for d in deg])
ncc = (cs * ds).mean((1, 2))
np.save(args.data + "/ncc.npy", ncc)
keep = ncc > args.ncc
print(f"teacher {time.time() - t0:.0f}s; kept {keep.sum()}/{len(keep)}", file=sys.stderr)
for k in np.unique(kind):
    m = kind == k
    print(f"  {k}: n={m.sum()} kept={keep[m].mean():.2f} ncc={np.median(ncc[m]):.3f}", file=sys.stderr)
D_idx = np.where(keep)[0]
clean_grey = {i: grey(clean[i]) for i in first}
uidx = np.searchsorted(uniq, photo)
# Identity of each training photo (LFW folder name): the contrastive term's positives.
ident_names = np.array([os.path.basename(os.path.dirname(str(u))) for u in uniq])
_, ident = np.unique(ident_names, return_inverse=True)
bank = torch.from_numpy(T_clean.astype(np.float32))
ident_t = torch.from_numpy(ident)


def augment(g, rng):
    """Extra, randomised degradation of a grey aligned crop (beyond degrade.py)."""
    im = Image.fromarray(np.clip(g, 0, 255).astype(np.uint8))
    if rng.random() < 0.5:  # alignment jitter: landmark error
        ang = rng.uniform(-6, 6)
        s = rng.uniform(0.94, 1.06)
        dx, dy = rng.uniform(-3, 3), rng.uniform(-3, 3)
        im = im.rotate(ang, resample=Image.BILINEAR, translate=(dx, dy), fillcolor=int(rng.uniform(0, 200)))
        if abs(s - 1) > 0.01:
            w = round(112 * s)
            im2 = im.resize((w, w), Image.BILINEAR)
            if w >= 112:
                o = (w - 112) // 2
                im = im2.crop((o, o, o + 112, o + 112))
            else:
                c = Image.new("L", (112, 112), int(np.asarray(im).mean()))
                c.paste(im2, ((112 - w) // 2,) * 2)
                im = c
    if rng.random() < 0.4:  # low resolution
        r = rng.randint(20, 64)
        im = im.resize((r, r), Image.BILINEAR).resize((112, 112), rng.choice([Image.BILINEAR, Image.BICUBIC]))
    if rng.random() < 0.3:
        im = im.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.8)))
    a = np.asarray(im, dtype=np.float32)
    if rng.random() < 0.4:  # exposure / contrast
        a = 255 * (a / 255) ** rng.uniform(0.6, 2.0)
        m = a.mean()
        a = m + (a - m) * rng.uniform(0.4, 1.2) + rng.uniform(-30, 30)
    if rng.random() < 0.3:
        a = a + np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(2, 12), a.shape)
    if rng.random() < 0.3:  # a dark or skin-toned band/patch (lids, bruises, shadows)
        y = rng.randint(30, 90)
        h = rng.randint(4, 14)
        x0 = rng.randint(0, 60)
        w = rng.randint(20, 112 - x0)
        a[y : y + h, x0 : x0 + w] = a[y : y + h, x0 : x0 + w] * rng.uniform(0.4, 0.9) + rng.uniform(0, 40)
    im = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    if rng.random() < 0.4:
        b = io.BytesIO()
        im.save(b, "JPEG", quality=rng.randint(8, 50))
        im = Image.open(io.BytesIO(b.getvalue())).convert("L")
    return np.asarray(im, dtype=np.float32)


if args.dry:
    sys.exit(0)
init = args.init or ONNX
if args.frontend:
    from frontend import add_frontend

    init = f"{args.out}/with_frontend_init.onnx"
    add_frontend(args.init or ONNX, init, args.frontend, args.frontend_layers, args.seed)
net = OnnxNet(init)
fe_keys = {k for name, k in net.keymap.items() if name.startswith("fe_")}
groups = [{"params": [p for k, p in net.params.items() if k not in fe_keys], "base": args.lr}]
if fe_keys:
    groups.append({"params": [p for k, p in net.params.items() if k in fe_keys], "base": args.fe_lr})
    print(f"front-end parameters: {sum(net.params[k].numel() for k in fe_keys)}", file=sys.stderr)
opt = torch.optim.Adam(groups, lr=args.lr)
rng = random.Random(args.seed)
start = time.time()
losses = []
for step in range(1, args.steps + 1):
    lr = args.lr * 0.5 * (1 + math.cos(math.pi * step / args.steps))
    for gp in opt.param_groups:
        gp["lr"] = gp["base"] * 0.5 * (1 + math.cos(math.pi * step / args.steps))
    xs, ts, us = [], [], []
    for _ in range(args.batch):
        if rng.random() < args.clean_share:
            i = first[rng.randrange(len(first))]
            g = clean_grey[i]
            if rng.random() < 0.5:
                g = augment(g, rng)
            t = T_clean[np.searchsorted(uniq, photo[i])]
        else:
            i = D_idx[rng.randrange(len(D_idx))]
            g = grey(deg[i])
            if rng.random() < 0.5:
                g = augment(g, rng)
            t = row_t[i]
        if rng.random() < 0.5:
            g = g[:, ::-1]
        xs.append(np.ascontiguousarray(g))
        ts.append(t)
        us.append(uidx[i])
    x = torch.from_numpy(to_x(xs))
    t = torch.from_numpy(np.stack(ts).astype(np.float32))
    y = F.normalize(net(x), dim=1)
    loss = (1 - (y * t).sum(1)).mean()
    if args.ce_weight > 0:
        # Rank the crop's own person first among every training photo's clean vector: pushes a
        # degraded face away from other people's faces, not only towards its own photo.
        logits = y @ bank.T / args.tau
        pos = ident_t[None, :] == ident_t[torch.tensor(us)][:, None]
        ce = (torch.logsumexp(logits, 1) - torch.logsumexp(logits.masked_fill(~pos, -1e9), 1)).mean()
        loss = loss + args.ce_weight * ce
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    if step % 25 == 0:
        print(
            f"step {step} loss {np.mean(losses[-25:]):.4f} lr {lr:.2e} {time.time() - start:.0f}s",
            file=sys.stderr,
            flush=True,
        )
    if step % args.save_every == 0:
        net.save_onnx(f"{args.out}/fr_feature_ft_step{step}.onnx")
    if step % 200 == 0 or step == args.steps or time.time() - start > args.minutes * 60:
        net.save_onnx(f"{args.out}/fr_feature_ft.onnx")
        if time.time() - start > args.minutes * 60:
            print("time budget reached", file=sys.stderr)
            break
print("done", file=sys.stderr)
