"""Are two CUDA runs of one seed equal to the bit, and is the loop block's offload exact, at dormouse-1b's scale?
`repeatable_check.py run OUT NAME KEY=VALUE...` trains dormouse-1b for a few steps into OUT/NAME (no checkpoint);
`repeatable_check.py compare OUT A B C D` prints, per pair, the first step where loss or grad norm differ, and ms/step."""
import json, sys
from pathlib import Path
import pandas as pd
from dormouse.config import make_config
from dormouse.train import train

BASE = ["train.progress=false", "train.log_every=10", "train.eval_bytes=65536", "train.device=cuda",
        "data.seq_len=512", "data.batch_size=8", "offload.moe=none", "offload.path=pinned"]

def run(out, name, *sets):
    m = train(make_config("dormouse-1b", sets=[*BASE, *sets]), Path(out)/name, save=False)
    print(name, sets, f"{m['ms_per_step']:.1f} ms/step, peak {m['peak_allocated_gib']:.2f} GiB, BPB {m['heldout_bpb']:.4f}")

def first_difference(a, b) -> str:
    n = min(len(a), len(b)); d = (a.loss[:n] != b.loss[:n]) | (a.grad_norm[:n] != b.grad_norm[:n])
    if not d.any(): return f"equal to the bit over {n} steps"
    i = d.idxmax(); return f"first difference at step {a.step[i]} of {n} (loss {a.loss[i]!r} vs {b.loss[i]!r})"

def compare(out, *names):
    logs = {n: pd.read_csv(Path(out)/n/"log.csv") for n in names}
    ms = {n: json.loads((Path(out)/n/"metrics.json").read_text())["ms_per_step"] for n in names}
    for n in names: print(f"{n}: {ms[n]:.2f} ms/step ({ms[n]/ms[names[0]]:.3f}x {names[0]})")
    for i, a in enumerate(names):
        for b in names[i + 1:]: print(f"{a} vs {b}: {first_difference(logs[a], logs[b])}")

if __name__ == "__main__":
    {"run": run, "compare": compare}[sys.argv[1]](*sys.argv[2:])
