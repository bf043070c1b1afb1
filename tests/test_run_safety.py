"""A run directory is one run's: a second `dormouse train` on it is refused at once (naming the holder),
a killed holder's lock is taken over, a finished run rerun changes nothing, a longer run continues,
and a resume with settings that alter the run is refused unless the change is asked for and recorded."""
import json, os, signal, subprocess, time
from pathlib import Path
import pytest
from helpers import CLI, ROOT, digest, env, losses, run

SETS = ["train.steps=6", "train.ckpt_every=2", "train.eval_bytes=4096", "train.progress=false", "train.metrics_warmup=1"]


@pytest.fixture(scope="module")
def cache(tmp_path_factory): return tmp_path_factory.mktemp("corpus")


def train_args(out, cache, *sets, extra=()):
    return [*CLI, "train", "--out", str(out), *[a for s in [*SETS, f"data.cache_dir={cache}", *sets] for a in ("--set", s)], *extra]


def snapshot(d):
    return {str(p.relative_to(d)): (p.stat().st_mtime_ns, digest(p)) for p in sorted(Path(d).rglob("*")) if p.is_file()}


def one_line_error(r):
    "The refusal: exit status 1 and one line on stderr, no traceback."
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr[-2000:]
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.slow
def test_second_process_refused_then_stale_lock_taken_over(tmp_path, cache):
    out = tmp_path / "run"
    first = subprocess.Popen(train_args(out, cache), cwd=ROOT, env=env(DORMOUSE_TEST_PAUSE="step:3"),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in first.stdout:                                   # the holder is mid-run, paused after step 3
            if line.strip() == "PAUSED step 3": break
        before = snapshot(out)
        msg = one_line_error(run(train_args(out, cache), check=False))
        assert f"pid {first.pid}" in msg and "is in use by" in msg, msg
        assert snapshot(out) == before                              # the refused process touched nothing
    finally:
        first.send_signal(signal.SIGKILL); first.wait()
    r = run(train_args(out, cache))                                 # the killed holder's lock is free: taken over
    assert "resuming from" in r.stdout and "at step 2" in r.stdout
    m = json.loads((out / "metrics.json").read_text())
    assert [(s["start"], s["end"]) for s in m["segments"]] == [(0, 2), (2, 6)]


@pytest.mark.slow
def test_rerun_changes_nothing_longer_run_continues(tmp_path, cache):
    out = tmp_path / "run"
    run(train_args(out, cache))
    before = snapshot(out)
    r = run(train_args(out, cache))
    assert "finished at step 6; nothing changed" in r.stdout
    assert snapshot(out) == before
    m6 = json.loads((out / "metrics.json").read_text())
    run(train_args(out, cache, "train.steps=10"))                  # more steps: the run continues
    m = json.loads((out / "metrics.json").read_text())
    assert [(s["start"], s["end"]) for s in m["segments"]] == [(0, 6), (6, 10)]
    assert m["ms_per_step_n"] == 10 - 2                             # the whole run, one warm-up step per segment
    assert abs(m["wall_s"] - sum(s["wall_s"] for s in m["segments"])) < 1e-9 and m["wall_s"] > m6["wall_s"]
    assert [s for s, _ in losses(out)] == [str(i) for i in range(1, 11)]


@pytest.mark.slow
def test_resume_with_other_settings_refused_unless_allowed(tmp_path, cache):
    out = tmp_path / "run"
    run(train_args(out, cache))
    before = snapshot(out)
    for change in ("optim.adam_lr=0.01", "data.batch_size=4", "train.seed=3"):
        msg = one_line_error(run(train_args(out, cache, "train.steps=8", change), check=False))
        assert change.split("=")[0] in msg and "--allow-change" in msg, msg
    assert snapshot(out) == before
    run(train_args(out, cache, "train.steps=8", "optim.adam_lr=0.01", extra=["--allow-change"]))
    seg = json.loads((out / "metrics.json").read_text())["segments"][-1]
    assert seg["start"] == 6 and any(c.startswith("optim.adam_lr: 0.003 then, 0.01 now") for c in seg["changes"]), seg


@pytest.mark.slow
def test_same_machine_same_threads_same_bpb(tmp_path, cache):
    "The demo record's promise: one command on one machine with one thread count gives the same figures, bit for bit."
    a, b = tmp_path / "a", tmp_path / "b"
    run(train_args(a, cache)); run(train_args(b, cache))
    ma, mb = (json.loads((x / "metrics.json").read_text()) for x in (a, b))
    assert losses(a) == losses(b) and ma["heldout_bpb"] == mb["heldout_bpb"]
    assert ma["threads"] == mb["threads"] == 1 and ma["omp_wait_policy"].upper() == "PASSIVE"
    e = tmp_path / "engram"                       # numba's pool must not raise torch's thread count behind its back
    run(train_args(e, cache, "engram.enabled=true", "engram.rows=4096"))
    assert json.loads((e / "metrics.json").read_text())["threads"] == 1
