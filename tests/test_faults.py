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


def test_ctrl_c_stops_ab_keeps_what_finished(tmp_path, cache):
    (tmp_path / "spec.yaml").write_text(SPEC.format(cache=cache))
    exp = tmp_path / "runs" / "stop"
    cmd = [*CLI, "ab", "spec.yaml", "--engine", "python", "--only", "control", "--no-report", "--no-progress"]
    p = subprocess.Popen(cmd, cwd=tmp_path, env=env(PYTHONPATH=str(ROOT)), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)        # its own process group, as a shell gives a job
    try:
        t0 = time.time()
        while not (status(exp, 0) == "ok" and list((exp / "control/seed1/ckpt").glob("step_*"))):   # seed 0 done, seed 1 mid-run
            assert p.poll() is None and time.time() - t0 < 400, (p.poll(), status(exp, 0), status(exp, 1))
            time.sleep(0.1)
    except BaseException:
        os.killpg(p.pid, signal.SIGKILL); raise
    seed0 = files(exp / "control/seed0")
    os.killpg(p.pid, signal.SIGINT)                                # Ctrl-C: the whole group
    out, err = p.communicate(timeout=120)
    msg = one_line(err)
    assert p.returncode == 130, (p.returncode, err)
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
