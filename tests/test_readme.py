"""README.md is written from nbs/index.ipynb and the records in `runs/` (tools/readme.py): its results table is computed
from the records, so `readme.py --check` (a step of `make test`) fails once a record changes and the README does not."""
import os, shutil, subprocess, sys, time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def tree_copy(dst: Path) -> Path:
    "The working tree as git sees it (tracked files, untracked ones git does not ignore), copied to `dst`."
    ls = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                        capture_output=True, check=True).stdout.decode().split("\0")
    for f in filter(None, ls):
        if (ROOT / f).is_file():
            (dst / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, dst / f)
    return dst


def readme_check(tree: Path):
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=str(tree))
    return subprocess.run([sys.executable, "tools/readme.py", "--check"], cwd=tree, env=env, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.slow   # the records read twice: 46 s on 2 busy cores
def test_readme_table_follows_the_records(tmp_path):
    t0 = time.time()
    tree = tree_copy(tmp_path / "tree")
    readme = (tree / "README.md").read_text()
    row = "| [Whether the Engram pays here at all](https://dormouse-ml.github.io/dormouse/records/engram_rate.html) |"
    assert row in readme
    r = readme_check(tree)
    assert r.returncode == 0, r.stderr[-2000:]
    shutil.rmtree(tree / "runs" / "engram_rate")   # a record gone: the headline that read it says something else now
    r = readme_check(tree)
    assert r.returncode == 1 and "README.md is not what nbs/index.ipynb and the records in runs/ give" in r.stderr
    print(f"readme check twice in {time.time() - t0:.1f} s")
