"""A count table is data a run depends on, and is treated like a checkpoint (the counts chapter): a table file cut to
half or with a block zeroed is rebuilt when it is the corpus cache's own and refused in one line naming the file when
`counts.path` names it; a run resumed against another table is refused like any other change of the run."""
import json
from pathlib import Path
import numpy as np
import pytest
from helpers import CLI, run, train_cmd

SETS = ["counts.enabled=true", "counts.orders=[1,2,4]", "counts.rows=2^10", "train.eval_bytes=1024", "train.progress=false",
        "model.d_model=32", "data.seq_len=32", "data.batch_size=2"]


@pytest.fixture()
def corpus(tmp_path):
    "A small code-like corpus file and a cache folder of its own; the `--set`s that name them."
    rng = np.random.default_rng(0)
    stmts = [f"\tx{i} = f{i % 9}(y, {i % 4});\n".encode() for i in range(60)]
    (tmp_path / "c.txt").write_bytes(b"".join(stmts[j] for j in rng.integers(0, 60, 3000)))
    return tmp_path, [f"data.sources=[{tmp_path / 'c.txt'}]", f"data.cache_dir={tmp_path / 'cache'}"]


def _damage(path: Path, how: str):
    n = path.stat().st_size
    if how == "half": path.write_bytes(path.read_bytes()[: n // 2])
    else:
        with open(path, "r+b") as f: f.seek(n // 4); f.write(bytes(n // 4))


def _one_line(r, *says):
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr[-2000:]
    line = r.stderr.strip()
    assert all(s in line for s in says) and "\n" not in line and "Traceback" not in line, line


@pytest.mark.parametrize("how, says", [("half", "truncated or replaced"), ("zero", "does not match the sha256")])
def test_damaged_table(corpus, how, says):
    d, data = corpus
    run(train_cmd(d / "a", [*data, *SETS, "train.steps=1"]))
    [table] = list((d / "cache").rglob("counts-*.u16"))
    _damage(table, how)
    r = run(train_cmd(d / "b", [*data, *SETS, "train.steps=1"]))            # the cache's own table: rebuilt, one line says so
    assert f"counts: count table {table}" in r.stdout and "building it again" in r.stdout, r.stdout
    _damage(table, how)
    r = run(train_cmd(d / "c", [*data, *SETS, "train.steps=1", f"counts.path={table}"]), check=False)
    _one_line(r, str(table), says, "rebuild it")                             # a file the user named: refused, not overwritten


def test_resume_against_another_table(corpus):
    d, data = corpus
    from dormouse.config import make_config
    from dormouse.counts import build_counts
    from dormouse.data import load_corpus
    table = d / "t.u16"
    c = load_corpus(make_config("tiny", sets=data).data)
    build = lambda seed: build_counts(c.train, [1, 2, 4], 1 << 10, table, seed=seed, corpus_sha256=c.manifest["sha256"]).sha256
    first = build(0)
    sets = [*data, *SETS, f"counts.path={table}", "train.ckpt_every=2"]
    run(train_cmd(d / "r", [*sets, "train.steps=2"]))
    other = build(1)                                                          # same corpus, orders and rows; other hash words
    assert other != first
    r = run(train_cmd(d / "r", [*sets, "train.steps=4"]), check=False)
    _one_line(r, "cannot resume from", "the count table: sha256", first[:12], other[:12], "--allow-change")
    run([*train_cmd(d / "r", [*sets, "train.steps=4"]), "--allow-change"])
    seg = json.loads((d / "r" / "metrics.json").read_text())["segments"]
    assert [s["counts_sha256"] for s in seg] == [first, other] and "the count table" in seg[-1]["changes"][0]
