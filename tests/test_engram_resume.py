"""Engram tables through the real training loop: kill-and-resume is bit-exact for host tables and
their momentum, and host mode trains exactly like device mode.

Each run is `dormouse train` on the `tiny` preset with a small Engram, on the CPU
(or on `$DORMOUSE_TEST_DEVICE`, e.g. `cuda` on the GPU machine).
"""
import json
from pathlib import Path

import pytest
from helpers import DEVICE, digest, kill_paused, losses, run, train_cmd

STEPS, CKPT_EVERY, KILL_AT = 10, 4, 6
SETS = ["engram.enabled=true", "engram.rows=4096", "engram.ram_reserve_gb=0.5", f"train.steps={STEPS}",
        f"train.ckpt_every={CKPT_EVERY}", "train.eval_bytes=4096", "train.progress=false", f"train.device={DEVICE}"]


# the paper's design (the Engram chapter): every new option away from its default, Adam following the schedule
PAPER = ["engram.inject=[embed, loop.1]", "engram.gate=context", "engram.conv=4", "engram.heads=2", "engram.fold=case+whitespace",
         "engram.orders=[4, 8, 12]", "engram.out_init=zero", "engram.optimizer=adam", "engram.lr=0.01", "engram.lr_schedule=follow"]
DESIGNS = {"today": [], "paper": PAPER}


def cmd(out, mode, design="today"): return train_cmd(out, [*SETS, f"engram.mode={mode}", *DESIGNS[design]])


def tables(out, step=STEPS):
    d = Path(out) / "ckpt" / f"step_{step:06d}"
    man = json.loads((d / "engram.json").read_text())
    return digest(d / "engram.bin"), man


@pytest.fixture(scope="module", params=["today", pytest.param("paper", marks=pytest.mark.slow)])
def reference(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"engram_ref_{request.param}")
    run(cmd(out, "host", request.param))
    return out, request.param


def test_kill_and_resume_host_tables_bit_exact(reference, tmp_path):
    reference, design = reference
    out = tmp_path / "killed"
    kill_paused(cmd(out, "host", design), f"step:{KILL_AT}")
    assert (out / "ckpt" / f"step_{CKPT_EVERY:06d}" / "engram.bin").exists()
    assert not (out / "ckpt" / f"step_{2 * CKPT_EVERY:06d}").exists()
    r = run(cmd(out, "host", design))                        # resumes from step 4
    assert f"resuming from" in r.stdout + r.stderr
    assert losses(out) == losses(reference)
    h_ref, m_ref = tables(reference)
    h, m = tables(out)
    assert h == h_ref, "host tables + momentum differ after kill-and-resume"
    assert m["t"] == m_ref["t"] == STEPS                     # the Sinkhorn phase (Adam's step count) resumed too
    if design == "paper": assert m["sections"] == ["weight", "momentum", "second"] and m["tables"] == 2 * 3 * 2
    assert tables(out, CKPT_EVERY * 2) == tables(reference, CKPT_EVERY * 2)


def test_host_equals_device_training(reference, tmp_path):
    reference, design = reference
    out = tmp_path / "device"
    run(cmd(out, "device", design))
    assert losses(out) == losses(reference), "host and device mode losses differ"
    assert tables(out)[0] == tables(reference)[0], "host and device mode tables + momentum differ"
