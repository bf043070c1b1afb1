"""The GPU machine's kit (tools/gpu_kit.py, `make gpu-kit`). tools/gpu_run.sh names each piece a copy lacks before it
runs anything. A kit for `tiny` built for this Python with only torch and numpy counted as present installs with
`pip --no-index` into a fresh venv that holds only those two (and torch's own dependencies), `pip check` finds its
closure complete, its dict-gcide .deb holds the corpus, and `dormouse train` runs two steps from it. The same kit built
for the GPU machine (Python 3.12, its packages left out) is refused past 64 MiB with the tree."""
import os, shutil, subprocess, sys, time
from pathlib import Path

import pytest
from helpers import ROOT, env

SPEC = """name: kit_smoke
question: does gpu_run.sh name what the kit lacks?
base:
  preset: tiny
  overrides:
    data: {source: linux, max_bytes: 4096}
control: control
arms:
  control: {}
  other: {}
seeds: [0, 1]
steps: 2
metric: heldout_bpb
goal: lower
rule: kill_if_inside_control_spread
ood: {file: /nonexistent/quips, package: no-such-quips}
"""


def test_gpu_run_names_what_the_kit_lacks(tmp_path):
    tree = tmp_path / "tree"
    for d in ("dormouse", "tests", "tools", "experiments"):
        shutil.copytree(ROOT / d, tree / d, ignore=shutil.ignore_patterns("__pycache__"))
    (tree / ".whl").mkdir()
    (tree / ".whl" / "kit.txt").write_text("python 2.7\n")
    spec = tmp_path / "kit_smoke.yaml"
    spec.write_text(SPEC)
    e = env(OUT=str(tmp_path / "out"), PYTHON=sys.executable, SITE=str(tmp_path / "site"),
            DORMOUSE_CACHE=str(tmp_path / "cache"))
    run = lambda: subprocess.run(["bash", "tools/gpu_run.sh", str(spec)], cwd=tree, env=e, capture_output=True,
                                 text=True, timeout=300)
    r = run()   # wheels built for another Python are refused before they are installed
    assert r.returncode == 2 and "the wheels in .whl/ are for Python 2.7" in r.stderr, r.stderr
    (tree / ".whl" / "kit.txt").unlink()
    r = run()
    assert r.returncode == 2, r.stdout + r.stderr
    assert "no-such-quips (Debian package: its .deb belongs in .deb/)" in r.stderr
    assert "the linux corpus (corpus-" in r.stderr and "--pack .corpus" in r.stderr
    assert "make gpu-kit FOR='kit_smoke'" in r.stderr
    assert not (tmp_path / "out" / "kit_smoke.tgz").exists()


@pytest.mark.slow   # a venv with torch, two wheel downloads, 60-odd wheels installed, numba's first compile
def test_kit_installs_into_a_bare_venv_and_trains(tmp_path):
    t0 = time.time()
    py = f"{sys.version_info.major}.{sys.version_info.minor}"
    kit = lambda dest, *a: subprocess.run([sys.executable, "tools/gpu_kit.py", "tiny", "--dest", str(dest), *a],
                                          cwd=ROOT, env=env(), capture_output=True, text=True, timeout=900)
    gpu = kit(tmp_path / "gpu")   # the GPU machine's kit, beside the whole tree: past 64 MiB, refused
    assert gpu.returncode == 1 and "of 64 MiB" in gpu.stdout and "refused" in gpu.stderr, gpu.stdout + gpu.stderr
    whl = sorted(p.name for p in (tmp_path / "gpu" / ".whl").glob("*.whl"))
    assert any(w.startswith("fastcore-") for w in whl) and any(w.startswith("papermill-") for w in whl)
    own = ("torch-", "numpy-", "numba-", "pandas-", "jinja2-")   # the machine's own builds
    assert not any(w.startswith(own) for w in whl)
    assert all("cp312" in w or "-py3-" in w or "-py2.py3-" in w or "abi3" in w for w in whl), whl

    here = tmp_path / "here"   # this Python, a machine with nothing but torch and numpy
    r = kit(here, "--python", py, "--have", "torch,numpy", "--limit-mib", "400")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    print(r.stdout.replace(" ".join(p.name for p in (here / ".whl").glob("*.whl")), "..."))
    names = {p.name.split("-")[0].lower() for p in (here / ".whl").glob("*.whl")}
    assert {"numba", "pandas", "pyyaml", "fastcore", "papermill", "ipykernel", "nbdev"} <= names
    assert not names & {"torch", "numpy"}
    assert [p.name.split("_")[0] for p in (here / ".deb").glob("*.deb")] == ["dict-gcide"]   # tiny reads GCIDE only
    assert (here / ".dormouse-commit").read_text().strip() == subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin/python"), "-m", "pip", "install", "-q"]
    r = subprocess.run([*pip, "torch==2.13.0", "numpy==2.4.6"], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    r = subprocess.run([*pip, "--no-index", "--no-deps", *map(str, (here / ".whl").glob("*.whl"))],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    r = subprocess.run([str(venv / "bin/python"), "-m", "pip", "check"], capture_output=True, text=True)
    assert r.returncode == 0 and "No broken requirements" in r.stdout, r.stdout + r.stderr

    root = tmp_path / "root"   # the .deb unpacked as gpu_run.sh does (into / there)
    subprocess.run(["dpkg", "-x", str(next((here / ".deb").glob("dict-gcide_*.deb"))), str(root)], check=True)
    gcide = root / "usr/share/dictd/gcide.dict.dz"
    assert gcide.stat().st_size > 10_000_000

    e = {k: v for k, v in env().items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    e.update(PYTHONPATH=str(ROOT), DORMOUSE_CACHE=str(tmp_path / "cache"))
    out = tmp_path / "run"
    train = [str(venv / "bin/python"), "tests/dormouse_cli.py", "train", "--preset", "tiny", "--out", str(out),
             "--set", "train.steps=2", "--set", f"data.sources=['{gcide}']"]
    r = subprocess.run(train, cwd=ROOT, env=e, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    steps = [l.split(",")[0] for l in (out / "log.csv").read_text().splitlines()[1:]]
    assert steps[-1] == "2", steps
    print(f"kit test: {time.time() - t0:.0f} s")
