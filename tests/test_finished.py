"""A finished run counts as finished: real `tiny` runs stopped by `dormouse ab`'s own stopper, one after its
`metrics.json` holds the final step with its final and out-of-domain evaluations (a notebook whose kernel then
hangs, as a time budget can end one during its shutdown: ok, and the decision says why), one before its final
evaluation (not ok)."""
import contextlib, io, json, threading, time
from pathlib import Path
import pytest
import yaml
from dormouse.ab import Stopper, _print_result, execute, plan
from dormouse.decision import decide, load_runs
from dormouse.records import run_status
from dormouse.spec import load_spec

ROOT = Path(__file__).resolve().parents[1]
TINY = {"data": {"seq_len": 32, "batch_size": 2}, "model": {"d_model": 32, "n_heads": 2, "d_expert": 32},
        "train": {"log_every": 1}}
OOD = {"file": "/usr/share/games/fortunes/computers", "package": "fortunes", "bytes": 2048}

def experiment(d: Path):
    "A spec of two arms: `short` (4 steps, stopped after it is done) and `long` (400 steps, stopped early)."
    spec = dict(name="finished", base={"preset": "tiny", "overrides": TINY}, control="short",
                arms={"short": {}, "long": {"train": {"steps": 400}}}, seeds=[0, 1], steps=4, eval_bytes=512,
                eval_every=2, metric="heldout_bpb", rule="kill_if_inside_control_spread", ood=OOD)
    (d/"finished.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    spec = load_spec(d/"finished.yaml")
    exp_dir = d/"runs"/spec.name
    exp_dir.mkdir(parents=True)
    (exp_dir/"spec.yaml").write_text(spec.text)
    return spec, exp_dir, {r.key: r for r in plan(spec, exp_dir, checkpoints=False)}

def hanging_template(d: Path) -> Path:
    "The arm notebook with a last cell that never ends: a kernel that hangs after the run wrote everything."
    nb = json.loads((ROOT/"nbs"/"4_experiments"/"arm.ipynb").read_text())
    nb["cells"].append(dict(cell_type="code", execution_count=None, id="hang0000", metadata={}, outputs=[],
                            source=["import time\n", "time.sleep(600)"]))
    (d/"hang.ipynb").write_text(json.dumps(nb))
    return d/"hang.ipynb"

def stopped_when(run, engine: str, ready, template=None, timeout: float = 300) -> dict:
    "`execute` the run in a thread and stop it with a `Stopper` (as Ctrl-C of `dormouse ab` does) once `ready(dir)`."
    stopper, out = Stopper(grace=5), {}
    t = threading.Thread(target=lambda: out.update(rec=execute(run, engine, template, stopper=stopper)))
    t.start()
    deadline = time.time() + timeout
    while not ready(run.dir):
        assert t.is_alive(), f"{run.key} ended before it was stopped: {out}"
        assert time.time() < deadline, f"{run.key} was not ready in {timeout} s"
        time.sleep(0.2)
    stopper.stop()
    t.join(120)
    return out["rec"]

def metrics(d: Path) -> dict:
    try: return json.loads((d/"metrics.json").read_text())
    except (OSError, ValueError): return {}

def log_rows(d: Path) -> int:
    f = d/"log.csv"
    return len(f.read_text().splitlines()) - 1 if f.exists() else 0

def test_a_run_stopped_after_its_metrics_is_finished_and_one_stopped_before_is_not(tmp_path):
    spec, exp_dir, runs = experiment(tmp_path)
    after = stopped_when(runs["short/seed0"], "papermill", lambda d: "ood_bpb" in metrics(d),
                         hanging_template(tmp_path))
    before = stopped_when(runs["long/seed0"], "python", lambda d: log_rows(d) >= 3)
    assert after["status"] == "interrupted" and before["status"] == "interrupted", (after, before)   # the stopper's
    done, cut = runs["short/seed0"].dir, runs["long/seed0"].dir
    assert metrics(done)["heldout_step"] == 4 and metrics(done)["ood_bpb"] > 0
    assert metrics(cut).get("heldout_step") != 400                      # no final evaluation
    note = "finished: metrics.json holds step 4 with its final and out-of-domain evaluation; run.json says interrupted"
    assert run_status(done, 4, ood=True) == ("ok", note)
    assert run_status(cut, 400, ood=True) == ("interrupted", None)
    # `ab` runs the second again, not the first
    assert runs["short/seed0"].status == "ok" and runs["long/seed0"].status == "interrupted"
    table, logs, _ = load_runs(exp_dir, spec)
    by = table.set_index(["arm", "seed"])
    assert (by.loc[("short", 0), "status"], by.loc[("short", 0), "status_note"]) == ("ok", note)
    assert by.loc[("short", 0), "heldout_bpb"] == metrics(done)["heldout_bpb"]
    assert by.loc[("long", 0), "status"] == "interrupted" and not isinstance(by.loc[("long", 0), "status_note"], str)
    d = decide(spec, table, logs, pool=None)
    assert d["finished_by_metrics"] == {"short/seed0": note}
    assert f"short/seed0 counts as finished ({note})" in d["text"]
    assert "long/seed0 interrupted" in d["arms"]["long"]["reason"]
    printed = io.StringIO()                                  # what `dormouse ab --report-only` prints per run
    with contextlib.redirect_stdout(printed):
        _print_result(spec, {"runs": {k: r.record for k, r in runs.items()}}, exp_dir)
    line = next(l for l in printed.getvalue().splitlines() if "short/seed0" in l)
    assert line.split()[1] == "ok" and f"({note})" in printed.getvalue(), printed.getvalue()
