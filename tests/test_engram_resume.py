"""Engram tables through the real training loop: kill-and-resume is bit-exact for host tables and
their momentum, and host mode trains exactly like device mode.

Each run is `python -m dormouse.train train` on the `tiny` preset with a small Engram, on the CPU
(or on `$DORMOUSE_TEST_DEVICE`, e.g. `cuda` on the GPU machine).
"""
import hashlib, json, os, subprocess, sys, time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STEPS, CKPT_EVERY, KILL_AT = 10, 4, 6
DEVICE = os.environ.get("DORMOUSE_TEST_DEVICE", "cpu")
SETS = ["engram.enabled=true", "engram.rows=4096", "engram.ram_reserve_gb=0.5", f"train.steps={STEPS}",
        f"train.ckpt_every={CKPT_EVERY}", "train.eval_bytes=4096", "train.progress=false", f"train.device={DEVICE}"]


def cmd(out, mode):
    sets = [*SETS, f"engram.mode={mode}"]
    return [sys.executable, "-m", "dormouse.train", "train", "--preset", "tiny", "--out", str(out),
            *[a for s in sets for a in ("--set", s)]]


def env(**kw):
    e = {k: v for k, v in os.environ.items() if k != "DORMOUSE_TEST_PAUSE"}
    e.update(OMP_NUM_THREADS="1", **kw)
    return e


def run(out, mode):
    r = subprocess.run(cmd(out, mode), cwd=ROOT, env=env(), capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return r


def losses(out):
    from dormouse.train import read_log
    return [r["loss"] for r in read_log(Path(out) / "log.csv")]


def tables(out, step=STEPS):
    d = Path(out) / "ckpt" / f"step_{step:06d}"
    man = json.loads((d / "engram.json").read_text())
    return hashlib.sha256((d / "engram.bin").read_bytes()).hexdigest(), man


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("engram_ref")
    run(out, "host")
    return out


def test_kill_and_resume_host_tables_bit_exact(reference, tmp_path):
    out = tmp_path / "killed"
    p = subprocess.Popen(cmd(out, "host"), cwd=ROOT, env=env(DORMOUSE_TEST_PAUSE=f"step:{KILL_AT}"),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen, t0 = [], time.time()
    for line in p.stdout:
        seen.append(line)
        if line.startswith(f"PAUSED step {KILL_AT}"): break
        assert time.time() - t0 < 600, "".join(seen[-30:])
    assert p.poll() is None, "".join(seen[-30:])
    p.kill(); p.wait()
    assert (out / "ckpt" / f"step_{CKPT_EVERY:06d}" / "engram.bin").exists()
    assert not (out / "ckpt" / f"step_{2 * CKPT_EVERY:06d}").exists()
    r = run(out, "host")                                     # resumes from step 4
    assert f"resuming from" in r.stdout + r.stderr
    assert losses(out) == losses(reference)
    h_ref, m_ref = tables(reference)
    h, m = tables(out)
    assert h == h_ref, "host tables + momentum differ after kill-and-resume"
    assert m["t"] == m_ref["t"] == STEPS                     # the Sinkhorn phase resumed too
    assert tables(out, CKPT_EVERY * 2) == tables(reference, CKPT_EVERY * 2)


def test_host_equals_device_training(reference, tmp_path):
    out = tmp_path / "device"
    run(out, "device")
    assert losses(out) == losses(reference), "host and device mode losses differ"
    assert tables(out)[0] == tables(reference)[0], "host and device mode tables + momentum differ"
