"""End to end through the command line, in subprocesses: train + eval on `tiny`, SIGKILL and resume
bit for bit, and damaged checkpoints refused with nothing overwritten."""
import json
from pathlib import Path
import pytest
import torch
from helpers import CLI, DEVICE, ROOT, digest, kill_paused, losses, run

STEPS, CKPT = 8, 4


@pytest.fixture(scope="session")
def cache(tmp_path_factory):
    "One corpus cache for the whole test run (the default GCIDE corpus, built once)."
    return tmp_path_factory.mktemp("corpus")


def train_args(out, cache, steps=STEPS, *extra):
    # rows are read back and written at log steps (every 3: rows 5-6 are in the log when step 6 pauses) and checkpoints
    return [*CLI, "train", "--preset", "tiny", "--out", str(out),
            "--set", f"train.steps={steps}", "--set", f"train.ckpt_every={CKPT}", "--set", "train.eval_bytes=4096",
            "--set", "train.log_every=3", "--set", "train.progress=false", "--set", f"data.cache_dir={cache}", *extra]


def final_weights(out):
    from dormouse.checkpoint import load_checkpoint, latest_checkpoint
    ck = load_checkpoint(latest_checkpoint(Path(out) / "ckpt"))
    return dict(step=ck["step"], model=ck["model"], optim=ck["optim"], rng=ck["train"]["rng"], evals=ck["train"]["evals"])


def same_state(a, b):
    def flat(x, pre=""):
        if isinstance(x, dict):
            for k, v in x.items(): yield from flat(v, f"{pre}.{k}")
        elif isinstance(x, (list, tuple)):
            for i, v in enumerate(x): yield from flat(v, f"{pre}.{i}")
        else: yield pre, x
    fa, fb = dict(flat(a)), dict(flat(b))
    assert fa.keys() == fb.keys()
    for k in fa:
        x, y = fa[k], fb[k]
        if isinstance(x, torch.Tensor): assert torch.equal(x, y), k
        else: assert x == y, k


def snapshot(d):
    return {str(p.relative_to(d)): (p.stat().st_mtime_ns, digest(p))
            for p in sorted(Path(d).rglob("*")) if p.is_file()}


@pytest.fixture(scope="session")
def straight(tmp_path_factory, cache):
    "The reference: STEPS steps in one process, checkpoints every CKPT."
    out = tmp_path_factory.mktemp("straight") / "run"
    r = run(train_args(out, cache))
    return out, r


def test_cli_train_then_eval(straight, tmp_path):
    out, r = straight
    assert "eval step 0: BPB 8.0000 on 4,096 held-out bytes" in r.stdout
    assert f"eval step {STEPS}: BPB" in r.stdout and "held-out BPB 8.0000 ->" in r.stdout
    m = json.loads((out / "metrics.json").read_text())
    for k in ("ms_per_step", "bytes_per_s", "heldout_bpb", "heldout_bytes", "seed", "config", "git_commit", "git_dirty",
              "torch", "device_name", "peak_allocated_gib", "mfu", "params_total", "params_active"):
        assert k in m, k
    assert m["heldout_bytes"] == 4096 and m["heldout_bpb"] < 8.0
    assert [s for s, _ in losses(out)] == [str(i) for i in range(1, STEPS + 1)]
    # eval on the run's held-out bytes reproduces the training run's final number exactly
    e = run([*CLI, "eval", "--ckpt", str(out), "--json"])
    j = json.loads(e.stdout.strip().splitlines()[-1])
    assert (j["bpb"], j["bytes"], j["step"]) == (m["heldout_bpb"], 4096, STEPS)
    # any byte file, first N bytes
    data = tmp_path / "some.bin"; data.write_bytes((ROOT / "pyproject.toml").read_bytes() * 4)
    e = run([*CLI, "eval", "--ckpt", str(out / "ckpt"), "--data", str(data), "--bytes", "1024"])
    n = len((ROOT / "pyproject.toml").read_bytes()) * 4
    assert f"on the first 1,024 of {n:,} bytes of" in e.stdout, e.stdout   # says how much of the file it scored
    # bad input: one clear line naming what is wrong
    e = run([*CLI, "eval", "--ckpt", str(tmp_path / "nope")], check=False)
    assert e.returncode != 0 and "nope" in e.stderr


# kill-and-resume without an Engram; tests/test_engram_resume.py does it with host tables in make test
@pytest.mark.slow
@pytest.mark.parametrize("pause", ["step:6", f"save:{STEPS}"])
def test_sigkill_and_resume_is_bit_exact(straight, tmp_path, cache, pause):
    """Killed after step 6 (checkpoint at 4, log rows 5-6 already written), or in the middle of writing
    the final checkpoint; resumed with the same command: identical per-step losses and weights."""
    ref, _ = straight
    out = tmp_path / "run"
    kill_paused(train_args(out, cache), pause, timeout=300)
    if pause == "step:6": assert [s for s, _ in losses(out)] == [str(i) for i in range(1, 7)]   # rows past the checkpoint
    from dormouse.checkpoint import latest_checkpoint
    assert latest_checkpoint(out / "ckpt").name == f"step_{CKPT:06d}"   # the kill left the last complete one
    r = run(train_args(out, cache))
    assert f"resuming from" in r.stdout and f"at step {CKPT}" in r.stdout
    assert losses(out) == losses(ref)
    same_state(final_weights(out), final_weights(ref))
    m = json.loads((out / "metrics.json").read_text())
    assert m["heldout_bpb"] == json.loads((ref / "metrics.json").read_text())["heldout_bpb"]
    assert [(s["start"], s["end"]) for s in m["segments"]] == [(0, CKPT), (CKPT, STEPS)]   # the whole run, both processes
    assert not list((out / "ckpt").glob(".tmp-*"))   # the killed save's debris is gone


@pytest.mark.slow
def test_damaged_checkpoint_is_refused_and_nothing_changes(straight, tmp_path, cache):
    """Truncated file, flipped bit, cut manifest: `train` (which would resume and train on) and `eval`
    both stop with one line naming the file, and no file under the run changes."""
    import shutil
    for damage in ("truncate", "flip", "manifest"):
        out = tmp_path / damage
        shutil.copytree(straight[0], out)
        ck = out / "ckpt" / f"step_{STEPS:06d}"
        f = ck / ("manifest.json" if damage == "manifest" else "model.pt")
        b = f.read_bytes()
        f.write_bytes(b[: len(b) // 2] if damage != "flip" else b[:200] + bytes([b[200] ^ 0x40]) + b[201:])
        before = snapshot(out)
        r = run(train_args(out, cache, STEPS + 4), check=False)   # would resume and train 4 more steps
        assert r.returncode != 0
        msg = r.stderr.strip().splitlines()[-1]
        assert f.name in msg and ("truncated" in msg or "corrupt" in msg), msg
        assert f"--resume-from step_{CKPT:06d}" in msg, msg            # the way out, not a hand edit of `latest`
        e = run([*CLI, "eval", "--ckpt", str(out)], check=False)
        assert e.returncode != 0 and f.name in e.stderr, e.stderr
        assert snapshot(out) == before
        if damage == "truncate":                                      # the way out the message names works
            r = run(train_args(out, cache, STEPS + 4, "--resume-from", f"step_{CKPT:06d}"))
            assert f"at step {CKPT}" in r.stdout and json.loads((out / "metrics.json").read_text())["heldout_step"] == STEPS + 4


ACCUM = [a for s in ("train.accum=2", "engram.enabled=true", "engram.mode=host", "engram.prefetch=true",
                     "engram.rows=4096", "engram.ram_reserve_gb=0.5") for a in ("--set", s)]


@pytest.mark.slow
def test_sigkill_and_resume_with_accumulation_is_bit_exact(tmp_path, cache):
    """`train.accum=2` with a host-mode Engram served by the prefetch pipeline, killed after step 6
    (checkpoint at 4) and resumed: the same per-step losses and gradient norms, weights, optimizer
    states, Engram tables, momentum and update count as a straight run."""
    from helpers import digest, log
    ref, out = tmp_path / "straight", tmp_path / "run"
    run(train_args(ref, cache, STEPS, *ACCUM))
    kill_paused(train_args(out, cache, STEPS, *ACCUM), "step:6", timeout=300)
    r = run(train_args(out, cache, STEPS, *ACCUM))
    assert f"at step {CKPT}" in r.stdout
    rows = lambda d: [(x["step"], x["loss"], x["grad_norm"], x["tokens"]) for x in log(d)]
    assert rows(out) == rows(ref) and len(rows(ref)) == STEPS
    m = json.loads((ref / "metrics.json").read_text())
    assert m["accum"] == 2 and int(log(ref)[0]["tokens"]) == m["tokens_per_step"] == 2 * m["batch_size"] * m["seq_len"]
    same_state(final_weights(out), final_weights(ref))
    for d in (f"step_{CKPT:06d}", f"step_{STEPS:06d}"):
        a, b = ref / "ckpt" / d, out / "ckpt" / d
        assert digest(a / "engram.bin") == digest(b / "engram.bin"), f"tables + momentum differ at {d}"
    t = [json.loads((d / "ckpt" / f"step_{STEPS:06d}" / "engram.json").read_text())["t"] for d in (ref, out)]
    assert t == [STEPS, STEPS]                                   # one update per optimizer step


# train.deterministic: on CUDA two runs of one seed are equal only with deterministic kernels (no number moves on the CPU)
CARD = [a for s in ("optim.bank_dtype=split", "optim.bank_state=int8", f"train.device={DEVICE}", "train.deterministic=true")
        for a in ("--set", s)]


@pytest.mark.slow
def test_sigkill_and_resume_with_the_card_levers_is_bit_exact(tmp_path, cache):
    """The 16 GB card's bank levers (split bank, int8 momentum), killed after step 6 (checkpoint at 4) and
    resumed: the same per-step losses, weights, low bits and int8 state as a straight run (on
    `$DORMOUSE_TEST_DEVICE=cuda`: through the optimizer's fused kernels, compiled again by the resumed process)."""
    ref, out = tmp_path / "straight", tmp_path / "run"
    run(train_args(ref, cache, STEPS, *CARD))
    kill_paused(train_args(out, cache, STEPS, *CARD), "step:6", timeout=300)
    r = run(train_args(out, cache, STEPS, *CARD))
    assert f"at step {CKPT}" in r.stdout
    assert losses(out) == losses(ref) and len(losses(ref)) == STEPS
    same_state(final_weights(out), final_weights(ref))
    assert any(k.endswith("_low") for k in final_weights(ref)["model"])   # the split bank's low bits are in the state
