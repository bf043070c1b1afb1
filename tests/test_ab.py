"`dormouse ab` end to end through papermill: arms × seeds, a failing arm, the report, kill and resume; an arm on two torchrun ranks (`nproc`) and the refusals of an `nproc` that cannot run."
import json, os, signal, subprocess, sys, time
from pathlib import Path
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DORMOUSE = [sys.executable, "-c", "import sys; from dormouse.cli import main; sys.exit(main())"]
TINY = {"data": {"seq_len": 32, "batch_size": 2}, "model": {"d_model": 32, "n_heads": 2, "d_expert": 32},
        "train": {"log_every": 1}}

def write_spec(path: Path, arms: dict, steps=3, seeds=(0, 1), gates=()):
    "The demo spec with tiny sizes and the given arms."
    d = yaml.safe_load((ROOT/"experiments"/"demo.yaml").read_text())
    d.update(name=path.stem, arms=arms, seeds=list(seeds), steps=steps, eval_bytes=512, eval_every=2, gates=list(gates), parallel=1)
    d["base"] = {"preset": "tiny", "overrides": TINY}
    path.write_text(yaml.safe_dump(d, sort_keys=False))
    return path

def ab(*args, **kw):
    return subprocess.run([*DORMOUSE, "ab", *map(str, args)], cwd=ROOT, capture_output=True, text=True, timeout=600, **kw)

def record(runs: Path, key: str) -> dict: return json.loads((runs/key/"run.json").read_text())

def status(runs: Path, key: str) -> str:
    return record(runs, key)["status"] if (runs/key/"run.json").exists() else "new"

KEYS = [f"{a}/seed{s}" for a in ("control", "top1", "huge") for s in (0, 1)]

@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """One experiment, killed mid-way and run again to the end: 2 arms × 2 seeds that train, plus an
    arm the RAM guard refuses (papermill runs cost seconds each on 2 cores: run them once)."""
    d = tmp_path_factory.mktemp("ab")
    spec = write_spec(d/"mini.yaml", {"control": {}, "top1": {"model": {"top_k": 1}},
                                      "huge": {"engram": {"enabled": True, "mode": "host", "rows": 2**40}}},
                      gates=[{"arm": "top1", "check": "loss > 0", "why": "the arm trained"}])
    runs, args = d/"runs"/"mini", [*DORMOUSE, "ab", str(spec), "--runs-dir", str(d/"runs"), "--parallel", "2"]
    t0 = time.time()
    p = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.time() + 300
        while status(runs, "control/seed0") != "ok":
            assert p.poll() is None, "dormouse ab ended before it could be killed"
            assert time.time() < deadline, "the first run did not finish in 300 s"
            time.sleep(0.5)
        time.sleep(1)   # the next run has started
    finally:
        os.killpg(p.pid, signal.SIGKILL); p.wait(timeout=30)   # the whole process group, papermill included
    killed = {k: status(runs, k) for k in KEYS}
    first = record(runs, "control/seed0")
    time.sleep(2)   # an orphaned kernel notices its parent is gone within a second
    q = ab(spec, "--runs-dir", d/"runs", "--parallel", "2")
    return dict(dir=d, runs=runs, proc=q, killed=killed, first=first, seconds=time.time() - t0)

@pytest.mark.slow
def test_resume_after_kill(demo):
    runs, killed = demo["runs"], demo["killed"]
    assert killed["control/seed0"] == "ok" and "running" in killed.values() and list(killed.values()).count("ok") < 4, killed
    assert record(runs, "control/seed0") == demo["first"]      # a finished run is skipped, not redone
    for k, st in killed.items():
        if st == "running": assert record(runs, k)["status"] in ("ok", "failed") and record(runs, k)["started"] > demo["first"]["started"]
    print(f"killed at {killed}; whole experiment {demo['seconds']:.0f} s")

@pytest.mark.slow
def test_demo_end_to_end(demo):
    runs, p = demo["runs"], demo["proc"]
    assert p.returncode == 1, p.stdout + p.stderr   # one arm failed: the exit status says so
    for arm in ("control", "top1"):
        for seed in (0, 1):
            r = runs/arm/f"seed{seed}"
            rec = record(runs, f"{arm}/seed{seed}")
            assert rec["status"] == "ok", rec
            assert rec["git_commit"] and rec["git_dirty"] in (True, False) and rec["wall_s"] > 0 and rec["device_name"]
            nb = json.loads((r/"run.ipynb").read_text())
            assert nb["metadata"]["papermill"]["parameters"]["arm"] == arm and not nb["metadata"]["papermill"]["exception"]
            m = json.loads((r/"metrics.json").read_text())
            assert m["arm"] == arm and m["seed"] == seed and m["heldout_bpb"] > 0 and m["heldout_bpb_start"] > 0
            # the "python3" kernel is this environment's interpreter
            assert Path(m["python"]).resolve() == Path(sys.executable).resolve(), m["python"]
            assert (r/"log.csv").read_text().startswith("step,") and not (r/"ckpt").exists()
    report = runs/"report.ipynb"
    assert report.exists() and not json.loads(report.read_text())["metadata"]["papermill"]["exception"]
    text = report.read_text()
    assert text.count("image/png") >= 2 and "top1 vs control" in text
    dec = json.loads((runs/"decision.json").read_text())
    assert dec["arms"]["top1"]["verdict"] in ("keep", "kill")
    assert "control/seed0" in p.stdout and "BPB" in p.stdout and "->" in p.stdout
    print(f"demo experiment: {demo['seconds']:.0f} s")

@pytest.mark.slow
def test_failing_arm_recorded_while_others_finish(demo):
    runs = demo["runs"]
    for seed in (0, 1):
        rec = record(runs, f"huge/seed{seed}")
        assert rec["status"] == "failed" and "RamGuardError" in rec["error"] and "do not fit" in rec["error"], rec
        nb = json.loads((runs/"huge"/f"seed{seed}"/"run.ipynb").read_text())
        assert nb["metadata"]["papermill"]["exception"]      # the notebook keeps its traceback
        assert any(o.get("output_type") == "error" for c in nb["cells"] for o in c.get("outputs", []))
    dec = json.loads((runs/"decision.json").read_text())
    assert dec["arms"]["huge"]["verdict"] == "no verdict" and "RamGuardError" in dec["arms"]["huge"]["reason"]
    assert "huge/seed0" in demo["proc"].stdout and "failed" in demo["proc"].stdout

def test_bad_spec_names_the_field(tmp_path):
    import argparse
    from dormouse.ab import add_ab_args, cli_ab
    def run(*a):
        ap = argparse.ArgumentParser(); add_ab_args(ap)
        with pytest.raises(SystemExit) as e: cli_ab(ap.parse_args([str(x) for x in a]))
        return str(e.value.code)
    e = run(write_spec(tmp_path/"bad.yaml", {"control": {}, "b": {"model": {"top_kk": 1}}}), "--runs-dir", tmp_path/"runs")
    assert "arms.b" in e and "model.top_kk" in e, e
    e = run(write_spec(tmp_path/"good.yaml", {"control": {}, "b": {}}), "--only", "nope", "--runs-dir", tmp_path/"runs")
    assert "no arm 'nope'" in e, e
    assert not (tmp_path/"runs").exists()   # nothing is written before the spec is known good

@pytest.mark.slow
def test_python_engine_without_papermill(tmp_path):
    "The GPU machine's path: plain subprocesses (no papermill, no notebook), the same record."
    spec = write_spec(tmp_path/"plain.yaml", {"control": {}, "top1": {"model": {"top_k": 1}}}, steps=2)
    p = ab(spec, "--runs-dir", tmp_path/"runs", "--engine", "python", "--parallel", "2", "--no-report", "--only", "top1")
    assert p.returncode == 0, p.stdout + p.stderr
    assert not (tmp_path/"runs"/"plain"/"control").exists()    # --only ran one arm
    for k in ("top1/seed0", "top1/seed1"):
        rec = record(tmp_path/"runs"/"plain", k)
        assert rec["status"] == "ok" and rec["engine"] == "python" and not (tmp_path/"runs"/"plain"/k/"run.ipynb").exists()
        assert json.loads((tmp_path/"runs"/"plain"/k/"metrics.json").read_text())["heldout_bpb"] > 0

@pytest.mark.slow
def test_an_arm_on_two_ranks(tmp_path):
    """An arm with `nproc: 2` beside a single-process control: its runs train on two torchrun ranks, started from the
    arm notebook's kernel (papermill), and record it (`world_size`, `parallel`, `nproc`, each segment's world size);
    the decision and the report take them. The control runs first through the plain engine (faster)."""
    spec = write_spec(tmp_path/"ranks.yaml", {"control": {}, "ranks": {"nproc": 2}}, steps=2,
                      gates=[{"arm": "ranks", "check": "world_size == 2", "why": "the arm ran on two ranks"}])
    runs = tmp_path/"runs"/"ranks"
    for args in (["--engine", "python", "--only", "control", "--no-report"], []):
        p = ab(spec, "--runs-dir", tmp_path/"runs", "--no-progress", *args)
        assert p.returncode == 0, p.stdout + p.stderr
    assert record(runs, "control/seed0")["engine"] == "python" and record(runs, "ranks/seed0")["engine"] == "papermill"
    for arm, world in (("control", None), ("ranks", 2)):
        for seed in (0, 1):
            rec, m = record(runs, f"{arm}/seed{seed}"), json.loads((runs/arm/f"seed{seed}"/"metrics.json").read_text())
            assert rec["status"] == "ok" and rec["params"]["nproc"] == (world or 1) and m["nproc"] == (world or 1), rec
            assert m.get("world_size") == world and [s.get("world_size") for s in m["segments"]] == [world]
            if world: assert m["parallel"] == "ddp" and "resuming" not in (runs/arm/f"seed{seed}"/"run.ipynb").read_text()
    dec = json.loads((runs/"decision.json").read_text())
    assert dec["arms"]["ranks"]["verdict"] in ("keep", "kill"), dec["arms"]["ranks"]
    assert not json.loads((runs/"report.ipynb").read_text())["metadata"]["papermill"]["exception"]
    print(f"\n{dec['arms']['ranks']['verdict']}: {dec['arms']['ranks'].get('reason', '')}")

def test_an_nproc_that_does_not_split_the_batch_is_refused(tmp_path):
    import argparse
    from dormouse.ab import add_ab_args, cli_ab
    ap = argparse.ArgumentParser(); add_ab_args(ap)
    for arms, want in (({"control": {}, "ranks": {"nproc": 3}}, "arms.ranks: nproc 3 does not divide data.batch_size=2"),
                       ({"control": {}, "ranks": {"nproc": 0}}, "'arms.ranks.nproc' must be a positive integer")):
        with pytest.raises(SystemExit) as e: cli_ab(ap.parse_args([str(write_spec(tmp_path/"odd.yaml", arms)), "--runs-dir", str(tmp_path/"runs")]))
        assert want in str(e.value.code) and len(str(e.value.code).splitlines()) == 1, e.value.code
    with pytest.raises(SystemExit) as e:
        cli_ab(ap.parse_args([str(write_spec(tmp_path/"gpus.yaml", {"control": {}, "ranks": {"nproc": 2}})), "--gpus", "0",
                              "--runs-dir", str(tmp_path/"runs")]))
    assert "arm ranks runs on nproc=2 ranks" in str(e.value.code), e.value.code
    assert not (tmp_path/"runs").exists()   # refused before anything is written
