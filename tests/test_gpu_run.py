"""tools/gpu_run.sh on the CPU: one run of a small spec from a copy of the tree with no wheels carried (an empty .whl/),
a packed corpus cache copied where the runs look for it,
the code version read from .dormouse-commit, the record packed without checkpoints and with the command line that ran,
then landed into runs/ (and refused a second time). tools/slim_tree.sh in a clone of its own: `on` leaves only the
named record under runs/, `off` brings every file back with `git status` clean."""
import hashlib, lzma, json, os, shutil, subprocess, sys, tarfile
import pytest
from pathlib import Path
from dormouse.records import code_hash
from helpers import ROOT, env

SPEC = """name: gpu_run_smoke
question: does tools/gpu_run.sh run what it is asked and pack its record?
base:
  preset: tiny
  overrides:
    data: {seq_len: 32, batch_size: 2}
    optim: {warmup_steps: 1}
    train: {log_every: 1}
control: control
arms:
  control: {}
  other: {}
seeds: [0, 1]
steps: 3
eval_bytes: 1024
eval_every: 0
metric: heldout_bpb
goal: lower
rule: kill_if_inside_control_spread
"""
COMMIT = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.slow
def test_gpu_run_one_run_then_land(tmp_path):
    tree = tmp_path / "tree"; tree.mkdir()             # the copy a GPU machine gets: code, no records, no git history
    for d in ("dormouse", "tests", "tools", "nbs", "experiments"):
        shutil.copytree(ROOT / d, tree / d, ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
    (tree / ".whl").mkdir()                            # no wheels carried: nothing installed
    (tree / ".corpus").mkdir()                         # a packed corpus cache (`dormouse corpus --pack`), here a stand-in
    for f in ("corpus-0123.json", "corpus-0123.u8.xz"): (tree / ".corpus" / f).write_text(f)
    (tree / ".dormouse-commit").write_text(f"{COMMIT}\n")
    spec, out = tmp_path / "smoke.yaml", tmp_path / "out"
    spec.write_text(SPEC)
    cache = tmp_path / "cache"
    e = env(OUT=str(out), PYTHON=sys.executable, BUDGET_S="500", SITE=str(tmp_path / "site"), DORMOUSE_CACHE=str(cache))
    for k in ("DORMOUSE_GIT_COMMIT", "DORMOUSE_GIT_DIRTY"): e.pop(k, None)
    r = subprocess.run(["bash", "tools/gpu_run.sh", str(spec), "control/0"], cwd=tree, env=e, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert sorted(p.name for p in out.iterdir()) == ["gpu_run_smoke.tgz"]      # the work folder is gone
    assert all((cache / "corpus" / f).read_text() == f for f in ("corpus-0123.json", "corpus-0123.u8.xz"))
    with tarfile.open(out / "gpu_run_smoke.tgz") as t:
        names = t.getnames()
        run_dir = "runs/gpu_run_smoke/control/seed0"
        assert {f"{run_dir}/{f}" for f in ("run.json", "run.ipynb", "metrics.json", "log.csv.xz")} <= set(names)
        assert not any("ckpt" in n.split("/") or n.endswith(".lock") for n in names), names
        assert not any("/other/" in n or "/seed1" in n for n in names), names      # only the run asked for
        assert "runs/gpu_run_smoke/logs.sha256.new" in names
        logs = [n for n in names if n.startswith("runs/gpu_run_smoke/ab_") and n.endswith(".log")]
        assert len(logs) == 1
        log = t.extractfile(logs[0]).read().decode()
    assert f"# tools/gpu_run.sh {spec} control/0   (BUDGET_S=500)" in log and f"# commit {COMMIT};" in log
    ran = next(l for l in log.splitlines() if l.startswith("$ "))
    assert ran.startswith("$ timeout ") and f" tests/dormouse_cli.py ab {spec} --only control/0 --engine papermill " \
           "--no-checkpoints --runs-dir " in ran
    assert log.rstrip().splitlines()[-1].startswith("# rc=0 in ")

    land = subprocess.run(["bash", "tools/gpu_run.sh", "land", str(out / "gpu_run_smoke.tgz")], cwd=tree, env=e,
                          capture_output=True, text=True)
    assert land.returncode == 0, land.stderr
    exp = tree / "runs" / "gpu_run_smoke"
    rec = json.loads((exp / "control/seed0/run.json").read_text())
    assert rec["status"] == "ok" and rec["git_commit"] == COMMIT and rec["git_dirty"] is None   # claimed, not known
    assert rec["code_hash"] == code_hash(tree)                                                  # what ran: the copy
    raw = lzma.decompress((exp / "control/seed0/log.csv.xz").read_bytes())
    assert (exp / "logs.sha256").read_text() == f"{hashlib.sha256(raw).hexdigest()}  control/seed0/log.csv\n"
    assert not (exp / "logs.sha256.new").exists()
    again = subprocess.run(["bash", "tools/gpu_run.sh", "land", str(out / "gpu_run_smoke.tgz")], cwd=tree, env=e,
                           capture_output=True, text=True)
    assert again.returncode == 2 and "already holds a record" in again.stderr
    assert (exp / "logs.sha256").read_text().count("\n") == 1          # nothing appended by the refused landing


def test_gpu_run_refuses_without_out_or_a_spec(tmp_path):
    e = env(PYTHON=sys.executable); e.pop("OUT", None)
    r = subprocess.run(["bash", str(ROOT / "tools/gpu_run.sh"), "demo"], env=e, capture_output=True, text=True)
    assert r.returncode == 2 and "set OUT" in r.stderr
    r = subprocess.run(["bash", str(ROOT / "tools/gpu_run.sh"), "no_such_experiment"], env=dict(e, OUT=str(tmp_path)),
                       capture_output=True, text=True)
    assert r.returncode == 2 and "no experiment spec experiments/no_such_experiment.yaml" in r.stderr


def tree_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and ".git" not in p.relative_to(root).parts)


def test_slim_tree_on_off(tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{ROOT}", str(clone)], check=True)
    git = lambda *a: subprocess.run(["git", *a], cwd=clone, capture_output=True, text=True, check=True).stdout
    files, size = git("ls-files").splitlines(), tree_bytes(clone)
    slim = lambda *a: subprocess.run(["bash", str(ROOT / "tools/slim_tree.sh"), *a], cwd=clone, capture_output=True, text=True)
    r = slim("on", "demo")
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(clone / "runs")) == ["demo"]
    assert (clone / "runs/demo/decision.json").exists() and (clone / "tools/pack_logs.py").exists()
    assert tree_bytes(clone) < size and git("status", "--porcelain") == ""
    assert slim("on", "no_such_record").returncode == 2
    r = slim("off")
    assert r.returncode == 0, r.stderr
    assert git("status", "--porcelain") == "" and all((clone / f).exists() for f in files) and tree_bytes(clone) == size


def _copy(tmp_path) -> Path:
    tree = tmp_path / "tree"
    for d in ("dormouse", "tests", "tools", "nbs", "experiments"):
        shutil.copytree(ROOT / d, tree / d, ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
    return tree


def test_gpu_run_refuses_gpus_for_an_nproc_spec(tmp_path):
    tree, spec = _copy(tmp_path), tmp_path / "ranks.yaml"
    spec.write_text(SPEC.replace("other: {}", "ranks: {nproc: 2}"))
    e = env(OUT=str(tmp_path / "out"), PYTHON=sys.executable, SITE=str(tmp_path / "site"), GPUS="all")
    r = subprocess.run(["bash", "tools/gpu_run.sh", str(spec)], cwd=tree, env=e, capture_output=True, text=True)
    assert r.returncode == 2 and "GPUS=all gives each run one GPU" in r.stderr and "nproc=2" in r.stderr, r.stderr


@pytest.mark.slow
def test_gpu_run_an_arm_on_two_ranks(tmp_path):
    "An arm with `nproc: 2`: its run goes through torchrun's two ranks (gloo on the CPU), one run at a time."
    tree, spec, out = _copy(tmp_path), tmp_path / "ranks.yaml", tmp_path / "out"
    spec.write_text(SPEC.replace("other: {}", "ranks: {nproc: 2}"))
    (tree / ".dormouse-commit").write_text(f"{COMMIT}\n")
    e = env(OUT=str(out), PYTHON=sys.executable, SITE=str(tmp_path / "site"), DORMOUSE_CACHE=str(tmp_path / "cache"))
    r = subprocess.run(["bash", "tools/gpu_run.sh", str(spec), "ranks/0"], cwd=tree, env=e, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "runs on up to 2 torchrun ranks a run" in r.stdout
    with tarfile.open(out / "gpu_run_smoke.tgz") as t:
        m = json.loads(t.extractfile("runs/gpu_run_smoke/ranks/seed0/metrics.json").read())
        log = t.extractfile(next(n for n in t.getnames() if n.endswith(".log"))).read().decode()
    assert m["nproc"] == 2 and m["world_size"] == 2, m
    assert " --only ranks/0 " in log and " --parallel 1 " in log
