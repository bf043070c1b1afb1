"""Three training steps of `tiny` on CUDA (bf16 autocast, fused grouped path) with each bank lever, against
the fp32 bank + fp32 momentum from the same seed and batches: how far the w13 master moved apart,
relative to the reference's own change (step 1 moves only the zero-initialised head; the bank moves
from step 2). Prints one line per lever.
Run from the repository root on the GPU machine: python3 runs/bench_card/2026-12-01-eager/step_diff.py"""
import torch
from dormouse.config import make_config
from dormouse.data import batch_at, load_corpus
from dormouse.model import build_model
from dormouse.optim import Optimizers, grad_clip_norm
from dormouse.train import train_step

def step(sets, preset="tiny", batch=8):
    c = make_config(preset, sets=[*sets, f"data.batch_size={batch}"])
    torch.manual_seed(0); m = build_model(c, "cuda"); op = Optimizers(m, c.optim)
    w0 = m.loop.moe.bank_master("w13").clone()
    tokens = load_corpus(c.data).train
    for s in range(3): train_step(m, op, batch_at(tokens, s, batch, c.data.seq_len).cuda(), s, clip=grad_clip_norm(c.optim))
    return w0, m.loop.moe.bank_master("w13")

w0, ref = step([])
for name, sets in [("split, fp32 momentum", ["optim.bank_dtype=split"]),
                   ("fp32, int8 momentum", ["optim.bank_state=int8"]),
                   ("split, int8 momentum", ["optim.bank_dtype=split", "optim.bank_state=int8"])]:
    _, w = step(sets)
    print(f"{name}: w13 after three steps differs from fp32+fp32 by {((w - ref).norm() / (ref - w0).norm()).item():.4f} of its change")
