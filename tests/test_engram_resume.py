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


def cmd(out, mode): return train_cmd(out, [*SETS, f"engram.mode={mode}"])


def tables(out, step=STEPS):
    d = Path(out) / "ckpt" / f"step_{step:06d}"
    man = json.loads((d / "engram.json").read_text())
    return digest(d / "engram.bin"), man


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("engram_ref")
    run(cmd(out, "host"))
    return out


def test_kill_and_resume_host_tables_bit_exact(reference, tmp_path):
    out = tmp_path / "killed"
    kill_paused(cmd(out, "host"), f"step:{KILL_AT}")
    assert (out / "ckpt" / f"step_{CKPT_EVERY:06d}" / "engram.bin").exists()
    assert not (out / "ckpt" / f"step_{2 * CKPT_EVERY:06d}").exists()
    r = run(cmd(out, "host"))                                # resumes from step 4
    assert f"resuming from" in r.stdout + r.stderr
    assert losses(out) == losses(reference)
    h_ref, m_ref = tables(reference)
    h, m = tables(out)
    assert h == h_ref, "host tables + momentum differ after kill-and-resume"
    assert m["t"] == m_ref["t"] == STEPS                     # the Sinkhorn phase resumed too
    assert tables(out, CKPT_EVERY * 2) == tables(reference, CKPT_EVERY * 2)


def test_host_equals_device_training(reference, tmp_path):
    out = tmp_path / "device"
    run(cmd(out, "device"))
    assert losses(out) == losses(reference), "host and device mode losses differ"
    assert tables(out)[0] == tables(reference)[0], "host and device mode tables + momentum differ"
