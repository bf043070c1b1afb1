"""The faults a user meets that need a real process: Ctrl-C on `dormouse ab`, a full disk under `dormouse train`, a
resume with no step left whose `metrics.json` is missing or incomplete. Each checks the one line, the exit status and
the disk: nothing lost, nothing left behind."""
import errno, json, os, shutil, signal, subprocess, time
from pathlib import Path
import pytest
from dormouse.checkpoint import list_checkpoints, verify_checkpoint
from dormouse.lock import run_lock
from helpers import CLI, ROOT, digest, env, losses, run


def files(d):
    "Every file under `d` with its sha256 (the disk as a user would check it)."
    return {str(p.relative_to(d)): digest(p) for p in sorted(Path(d).rglob("*")) if p.is_file()}


def one_line(stderr):
    lines = [l for l in stderr.strip().splitlines() if l.strip()]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr[-3000:]
    return lines[0]


# ---------------------------------------------------------------- Ctrl-C on dormouse ab

SPEC = """name: stop
question: does Ctrl-C stop an experiment cleanly?
base: {{preset: tiny, overrides: {{data: {{seq_len: 32, batch_size: 2, cache_dir: {cache}}}, train: {{ckpt_every: 4}}}}}}
control: control
arms: {{control: {{}}, other: {{optim: {{adam_lr: 0.002}}}}}}
seeds: [0, 1, 2]
steps: 40
eval_bytes: 1024
metric: heldout_bpb
rule: kill_if_inside_control_spread
"""


def status(d, seed):
    try: return json.loads((d / f"control/seed{seed}/run.json").read_text()).get("status")
    except (OSError, ValueError): return None


@pytest.fixture(scope="module")
def cache(tmp_path_factory): return tmp_path_factory.mktemp("corpus")      # one corpus for every test here


@pytest.mark.slow
def test_ctrl_c_stops_ab_keeps_what_finished(tmp_path, cache):
    (tmp_path / "spec.yaml").write_text(SPEC.format(cache=cache))
    exp = tmp_path / "runs" / "stop"
    cmd = [*CLI, "ab", "spec.yaml", "--engine", "python", "--only", "control", "--no-report", "--no-progress"]
    p = subprocess.Popen(cmd, cwd=tmp_path, env=env(PYTHONPATH=str(ROOT)), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True,        # its own process group, as a shell gives a job,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))   # started with SIGINT ignored, as a
    try:                                                           # shell starts a background job: Ctrl-C must stop it all the same
        t0 = time.time()
        while not (status(exp, 0) == "ok" and list((exp / "control/seed1/ckpt").glob("step_*"))):   # seed 0 done, seed 1 mid-run
            assert p.poll() is None and time.time() - t0 < 400, (p.poll(), status(exp, 0), status(exp, 1))
            time.sleep(0.1)
    except BaseException:
        os.killpg(p.pid, signal.SIGKILL); raise
    seed0 = files(exp / "control/seed0")
    os.killpg(p.pid, signal.SIGINT)                                # Ctrl-C: the whole group
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130, (p.returncode, out[-2000:], err[-2000:], status(exp, 1))
    msg = one_line(err)
    assert msg.startswith("dormouse ab: interrupted by SIGINT: 1 of 3 runs finished and kept, 1 stopped (control/seed1), "
                          "1 not started; the same command again runs the 2 left"), msg
    assert files(exp / "control/seed0") == seed0 and not (exp / "control/seed0/ckpt").exists()   # finished: intact, no ckpt/
    assert status(exp, 1) == "interrupted" and not (exp / "control/seed2").exists()                # stopped; never started
    ck = list_checkpoints(exp / "control/seed1/ckpt")
    assert ck and verify_checkpoint(ck[-1]) and not list((exp / "control/seed1/ckpt").glob(".tmp-*"))
    for d in (exp, exp / "control/seed1"):                          # no process holds the experiment or the run
        with run_lock(d, announce_now=False): pass
    before = files(exp)
    time.sleep(2); assert files(exp) == before                      # nothing runs on behind our back


@pytest.mark.slow
def test_sigterm_to_ab_alone_stops_its_runs(tmp_path, cache):
    "SIGTERM to the parent only (not its group): the run in flight is stopped by the parent itself."
    (tmp_path / "spec.yaml").write_text(SPEC.format(cache=cache))
    exp = tmp_path / "runs" / "stop"
    cmd = [*CLI, "ab", "spec.yaml", "--engine", "python", "--only", "control/0", "--no-report", "--no-progress"]
    p = subprocess.Popen(cmd, cwd=tmp_path, env=env(PYTHONPATH=str(ROOT)), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    try:
        t0 = time.time()
        while not list((exp / "control/seed0/ckpt").glob("step_*")):
            assert p.poll() is None and time.time() - t0 < 400, p.poll()
            time.sleep(0.2)
    except BaseException:
        os.killpg(p.pid, signal.SIGKILL); raise
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 128 + signal.SIGTERM, (p.returncode, err)
    assert "interrupted by SIGTERM: 0 of 1 runs finished and kept, 1 stopped (control/seed0)" in one_line(err)
    assert status(exp, 0) == "interrupted"
    with run_lock(exp / "control/seed0", announce_now=False): pass      # its child is gone


# ---------------------------------------------------------------- a resume with no step left

SETS = ["train.steps=6", "train.ckpt_every=2", "train.eval_bytes=4096", "train.progress=false", "train.metrics_warmup=1",
        "engram.enabled=true", "engram.rows=4096", "engram.lr_schedule=follow"]


def train_args(out, cache, *sets):
    return [*CLI, "train", "--out", str(out), *[a for s in [*SETS, f"data.cache_dir={cache}", *sets] for a in ("--set", s)]]


def comparable(m):
    "Every field an uninterrupted run and a rebuilt record must agree on: all but the clocks (and the code state, which others may change meanwhile)."
    m = {k: v for k, v in m.items() if k not in ("wall_s", "rebuilt_from", "git_commit", "git_dirty", "code_hash")}
    m["segments"] = [{k: v for k, v in s.items() if k not in ("wall_s",)} for s in m["segments"]]
    return m


@pytest.mark.slow
def test_resume_with_no_step_left_rebuilds_metrics(tmp_path, cache):
    out = tmp_path / "run"
    run(train_args(out, cache))
    whole = json.loads((out / "metrics.json").read_text())
    kept = [c.name for c in list_checkpoints(out / "ckpt")]
    assert whole["final_loss"] is not None and whole["engram_lr_last"] is not None and kept == ["step_000004", "step_000006"]
    (out / "metrics.json").unlink()                                  # killed between the last checkpoint and metrics.json
    shutil.copytree(out / "ckpt" / "step_000004", out / "ckpt" / "step_000002")   # ... and before the last save pruned
    r = run(train_args(out, cache))
    m = json.loads((out / "metrics.json").read_text())
    assert m["rebuilt_from"].endswith("step_000006") and comparable(m) == comparable(whole), \
        {k: (whole.get(k), m.get(k)) for k in set(m) | set(whole) if m.get(k) != whole.get(k)}
    assert [c.name for c in list_checkpoints(out / "ckpt")] == kept and not list((out / "ckpt").glob(".tmp-*"))
    incomplete = dict(whole, final_loss=None, ms_per_step=None, bytes_per_s=None, engram_lr_last=None)   # what a rebuild without the log wrote
    (out / "metrics.json").write_text(json.dumps(incomplete))
    run(train_args(out, cache))
    assert comparable(json.loads((out / "metrics.json").read_text())) == comparable(whole)
    r = run(train_args(out, cache))                                  # now complete: the same command changes nothing
    assert "nothing changed" in r.stdout


# ---------------------------------------------------------------- a full disk, read-only folders

@pytest.fixture
def small_disk(tmp_path):
    "A 1.5 MiB tmpfs: room for one tiny checkpoint (0.9 MiB) and its log, not for two."
    d = tmp_path / "disk"; d.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1536k", "tmpfs", str(d)]).returncode:
        pytest.skip("mounting a size-limited tmpfs needs root (mount -t tmpfs)")
    yield d
    subprocess.run(["umount", "-l", str(d)])


@pytest.mark.slow
def test_full_disk_loses_nothing_and_leaves_nothing(small_disk, cache):
    out = small_disk / "run"
    args = [*CLI, "train", "--out", str(out), *[a for s in ["train.steps=6", "train.ckpt_every=2", "train.eval_bytes=4096",
            "train.progress=false", f"data.cache_dir={cache}"] for a in ("--set", s)]]
    for attempt in (1, 2):                                             # the run, then the same command again in place
        r = run(args, check=False)
        msg = one_line(r.stderr)
        assert r.returncode == 1 and msg == (f"dormouse train: No space left on device while saving {out}/ckpt/step_000004 (removed; "
            f"the last checkpoint is {out}/ckpt/step_000002); free some space (or point --out elsewhere) and run the same command "
            "again: it goes on from the last checkpoint"), (attempt, msg)
        assert [c.name for c in list_checkpoints(out / "ckpt")] == ["step_000002"] and verify_checkpoint(out / "ckpt" / "step_000002")
        assert (out / "ckpt" / "latest").read_text() == "step_000002\n"
        assert not list(out.rglob(".tmp-*")) and not list(out.glob(".lock.*")) and not (out / "metrics.json").exists()
        assert [s for s, _ in losses(out)] == [str(i) for i in range(1, 5)]   # the steps trained, logged
    subprocess.run(["mount", "-o", "remount,size=8m", str(small_disk)], check=True)   # space freed
    r = run(args)
    assert "resuming from" in r.stdout and "at step 2" in r.stdout
    assert [s for s, _ in losses(out)] == [str(i) for i in range(1, 7)]
    assert json.loads((out / "metrics.json").read_text())["status"] == "ok"


@pytest.mark.slow
def test_read_only_folders_are_one_line(small_disk, cache, tmp_path):
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    base = ["train", "--set", "train.steps=2", "--set", "train.progress=false", "--set", "train.eval_bytes=4096"]
    cases = [([*CLI, *base, "--out", str(small_disk / "run"), "--set", f"data.cache_dir={cache}"], {}, str(small_disk / "run")),
             ([*CLI, *base, "--out", str(tmp_path / "a"), "--set", f"data.cache_dir={small_disk}/corpus"], {}, f"{small_disk}/corpus"),
             ([*CLI, *base, "--out", str(tmp_path / "b"), "--set", f"data.cache_dir={cache}", "--set", "engram.enabled=true",
               "--set", "engram.rows=4096"], dict(DORMOUSE_KERNEL_CACHE=str(small_disk / "kernels")), str(small_disk / "kernels"))]
    for args, extra, where in cases:
        r = run(args, check=False, **extra)
        msg = one_line(r.stderr)
        assert r.returncode == 1 and msg.startswith(f"dormouse train: Read-only file system: {where}") and "read-only: give a writable" in msg, msg
    assert not list(small_disk.iterdir())


@pytest.mark.slow
def test_bad_thread_counts_are_one_warning():
    for v in ("0", "-2", "abc"):
        r = run([*CLI, "--help"], check=False, OMP_NUM_THREADS=v)
        assert r.returncode == 0 and "COMMAND" in r.stdout, r.stderr
        assert r.stderr.strip() == f"dormouse: OMP_NUM_THREADS={v!r} is not a whole number >= 1; ignored (the default thread count is used)", r.stderr
