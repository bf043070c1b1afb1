"""The Engram prefetch pipeline is exact: pipelined training (`engram.prefetch=true`, host mode) gives
bit-identical losses, gradient norms, host tables, momentum and model weights to synchronous
training, through the real training loop with evaluations and checkpoints in the middle; and on
the GPU (skipped without CUDA) the pipeline with its side stream equals the synchronous path.

Runs on the CPU, or on `$DORMOUSE_TEST_DEVICE` (e.g. `cuda` on the GPU machine).
"""
import os

import pytest
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")   # deterministic cuBLAS (before CUDA starts)
import torch
from helpers import DEVICE, digest, log, run, train_cmd

STEPS, CKPT_EVERY, EVAL_EVERY = 10, 4, 3
SETS = ["engram.enabled=true", "engram.mode=host", "engram.rows=4096", "engram.ram_reserve_gb=0.5",
        f"train.steps={STEPS}", f"train.ckpt_every={CKPT_EVERY}", f"train.eval_every={EVAL_EVERY}",
        "train.eval_bytes=4096", "train.progress=false", f"train.device={DEVICE}"]


def train(out, prefetch):
    return run(train_cmd(out, [*SETS, f"engram.prefetch={str(prefetch).lower()}"]))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("prefetch")
    sync, pipe = d / "sync", d / "pipelined"
    r1, r2 = train(sync, False), train(pipe, True)
    return sync, pipe, r1, r2


def test_pipelined_training_is_bit_exact(runs):
    sync, pipe, r1, r2 = runs
    a, b = log(sync), log(pipe)
    assert [(r["step"], r["loss"], r["grad_norm"]) for r in a] == [(r["step"], r["loss"], r["grad_norm"]) for r in b]
    assert "prefetch_wait_ms" in b[0] and "patch_rows" in b[0]
    assert sum(int(r["patch_rows"]) for r in b) > 0, "no row was patched: the test would not catch a stale read"
    evals = lambda r: [l for l in r.stdout.splitlines() if l.startswith("eval step")]
    assert evals(r1) == evals(r2) and len(evals(r1)) == 1 + (STEPS - 1) // EVAL_EVERY + 1
    kept = sorted(p.name for p in (sync / "ckpt").glob("step_*"))         # the checkpoints kept (older ones pruned)
    assert kept == sorted(p.name for p in (pipe / "ckpt").glob("step_*")) and len(kept) >= 2
    for name in kept:                  # one mid-run (saved while the pipeline was live), one final
        ds, dp = sync / "ckpt" / name, pipe / "ckpt" / name
        assert digest(ds / "engram.bin") == digest(dp / "engram.bin"), f"tables + momentum differ at {name}"
    from dormouse.checkpoint import load_checkpoint, latest_checkpoint
    ca, cb = (load_checkpoint(latest_checkpoint(p / "ckpt")) for p in (sync, pipe))
    for k, v in ca["model"].items(): assert torch.equal(v, cb["model"][k]), k


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_gpu_pipeline_equals_synchronous():
    "The side-stream pipeline on the GPU: same losses, tables, momentum as the synchronous path."
    import numpy as np
    from dormouse.config import make_config
    from dormouse.bench_prefetch import compare_pipelined
    cfg = make_config("tiny", sets=["engram.enabled=true", "engram.rows=8192", "engram.ram_reserve_gb=0.5",
                                    "data.batch_size=8", "data.seq_len=256"])
    rng = np.random.default_rng(0)
    words = [bytes(rng.integers(97, 123, rng.integers(2, 8)).astype(np.uint8)) for _ in range(300)]
    data = np.frombuffer(b" ".join(words[i] for i in rng.integers(0, 300, 40_000)), np.uint8)
    torch.use_deterministic_algorithms(True, warn_only=True)     # scatter-adds etc. repeat bit for bit
    try: r = compare_pipelined(cfg, data, steps=12, device="cuda", control=True)
    finally: torch.use_deterministic_algorithms(False)
    assert r["control_equal"], "two synchronous GPU runs differ: this device does not repeat bit for bit, so no exact comparison is possible"
    assert r["patched_rows"] > 0
    assert r["losses_equal"] and r["tables_equal"] and r["momentum_equal"] and r["t_equal"], {k: v for k, v in r.items()}


PAPER = ["engram.inject=[embed,loop.1]", "engram.gate=context", "engram.conv=4", "engram.heads=4",
         "engram.fold=case+whitespace", "engram.out_init=zero", "engram.orders=[4,8,12]"]


@pytest.mark.slow
def test_pipelined_paper_design_is_bit_exact(tmp_path):
    "The paper's design (two injection points, hash heads, folded keys, long orders) through the pipeline: its row ids are the Engram's own."
    sets = [s for s in SETS if not s.startswith(("train.steps", "train.ckpt_every", "train.eval_every"))]
    sets += [*PAPER, "train.steps=4", "train.ckpt_every=0", "train.log_every=1"]
    a, b = (run(train_cmd(tmp_path / p, [*sets, f"engram.prefetch={p}"])) for p in ("false", "true"))
    assert [(r["loss"], r["grad_norm"]) for r in log(tmp_path / "false")] == [(r["loss"], r["grad_norm"]) for r in log(tmp_path / "true")]
