"""Save time of a checkpoint holding host Engram tables: the writer's crc32 taken on the way out (now)
vs the same save plus a sha256 read back after writing (before), alternating, same process, same table.
Every save goes into a fresh directory; deleting the previous one is outside the timed region.
Run from the repository root: OMP_NUM_THREADS=1 .venv/bin/python runs/checkpoint_save/measure.py ROWS REPS"""
import sys, tempfile, time, shutil, statistics
from pathlib import Path
import torch
from dormouse.config import EngramConfig
from dormouse.engram import Engram
from dormouse.checkpoint import save_checkpoint, load_checkpoint

rows, reps = int(sys.argv[1]), int(sys.argv[2])
e = Engram(EngramConfig(enabled=True, rows=rows, mode="device", ram_reserve_gb=1.0), d_model=32); e.to_host()
print(f"tables + momentum: {e.store.nbytes / 1e9:.2f} GB")
tmp = Path(tempfile.mkdtemp(dir="/tmp"))
arms = {"crc32 on the way out (now)": e.save_tables, "sha256 read back (before)": lambda d: (e.save_tables(d), None)[1]}
t = {k: [] for k in arms}
for r in range(reps):
    for k, w in arms.items():
        root = tmp / f"{r}-{len(t[k])}-{k[:5]}"
        t0 = time.perf_counter(); c = save_checkpoint(root, r, dict(model={"w": torch.zeros(2)}), writers=[w], keep=1)
        t[k].append(time.perf_counter() - t0)
        if r < reps - 1 or k != list(arms)[-1]: shutil.rmtree(root)
t0 = time.perf_counter(); load_checkpoint(c, parts=("model",)); e.load_tables(c)
print(f"verify + load of the last checkpoint: {time.perf_counter() - t0:.1f} s")
for k, v in t.items(): print(f"{k}: median {statistics.median(v):.2f} s over {len(v)} saves {[round(x, 2) for x in v]}")
a, b = (statistics.median(v) for v in t.values())
print(f"save time now / before: {a / b:.2f}")
shutil.rmtree(tmp)
