"""The named corpus and the count tables end to end through the `dormouse` command: a packed linux corpus found
without the package, its figures recorded; bad input one line and exit 1; `dormouse bench counts` writing its
record; `dormouse train --set counts.enabled=true` on tiny; the tables' RAM in `dormouse mem`."""
import io, json, tarfile
from pathlib import Path
import numpy as np
import pytest
from helpers import CLI, run
from dormouse.data import build_named_corpus, pack_corpus


def _tar(path, files: dict):
    with tarfile.open(path, "w:xz") as tf:
        for name, b in files.items():
            ti = tarfile.TarInfo(f"top/{name}"); ti.size = len(b); tf.addfile(ti, io.BytesIO(b))


@pytest.fixture(scope="module")
def carried(tmp_path_factory):
    "A cache folder holding only a packed linux corpus (as a machine without the package gets it), and its manifest."
    d = tmp_path_factory.mktemp("corpus")
    rng = np.random.default_rng(0)
    stmts = [f"\tx{i} = f{i % 9}(y, {i % 4});\n".encode() for i in range(60)]
    files = {f"drivers/f{i:03d}.c": b"".join(stmts[j] for j in rng.integers(0, 60, 40 + i % 30)) for i in range(200)}
    _tar(d / "k.tar.xz", files)
    c = build_named_corpus("linux", d / "built", max_bytes=150_000, archive=d / "k.tar.xz", verbose=False)
    pack_corpus(c, d / "carry")
    return d, c.manifest


@pytest.mark.slow
def test_corpus_from_a_carried_copy(carried, tmp_path):
    d, man = carried
    out = run([*CLI, "corpus", "--source", "linux", "--max-bytes", "150000", "--cache-dir", str(d / "carry"), "--out", str(tmp_path / "rec")],
              ).stdout
    rec = json.loads((tmp_path / "rec" / "corpus.json").read_text())
    assert rec["sha256"] == man["sha256"] and rec["n_files"] == man["n_files"] and "files" not in rec
    assert rec["heldout_files"] >= 1 and rec["train_bytes"] + rec["heldout_bytes"] == rec["bytes"] <= 150_000
    assert 0 < rec["compressed"]["xz"] < rec["bytes"] and (tmp_path / "rec" / "manifest.json").exists()
    assert "train" in out


@pytest.mark.parametrize("args, says", [
    (["corpus", "--max-bytes", "1Mi"], "--max-bytes caps a named --source"),
    (["corpus", "--source", "linux", "--max-bytes", "lots"], "bad --max-bytes 'lots'"),
    (["bench", "counts", "--out", "OUT", "--rows", "1000"], "'counts.rows': 1000; must be a power of two"),
    (["bench", "counts", "--out", "OUT", "--orders", "4,2"], "increasing context lengths"),
    (["train", "--out", "OUT", "--set", "counts.enabled=true", "--set", "counts.train_bytes=1000"], "needs counts.train_bytes=0"),
])
def test_bad_input(args, says, tmp_path):
    args = [a.replace("OUT", str(tmp_path / "out")) for a in args]
    r = run([*CLI, *args, "--set", f"data.cache_dir={tmp_path / 'cache'}"] if args[0] in ("train",) else [*CLI, *args],
            check=False)
    assert r.returncode == 1, r.stdout + r.stderr
    line = r.stderr.strip()
    assert says in line and "\n" not in line and "Traceback" not in line, line


@pytest.mark.slow
def test_bench_counts_and_train_with_counts(carried, tmp_path):
    d, _ = carried
    cache = f"data.cache_dir={d / 'carry'}"
    sets = ["--set", "data.source=linux", "--set", "data.max_bytes=150000", "--set", cache, "--set", "data.heldout_frac=0.05"]
    run([*CLI, "bench", "counts", *sets, "--orders", "1,2;1,2,4", "--rows", "2^10", "--train-bytes", "0",
         "--eval-bytes", "2048", "--out", str(tmp_path / "bench")])
    r = json.loads((tmp_path / "bench" / "counts.json").read_text())
    assert [c["orders"] for c in r["cells"]] == [[1, 2], [1, 2, 4]] and all(0 < c["bpb"] < 8 for c in r["cells"])
    assert r["compressors"]["xz"] > 0 and not list((tmp_path / "bench").glob("*.u16"))
    mem = run([*CLI, "mem", "--rows", "2^10", "--orders", "3", "--counts-bench", str(tmp_path / "bench" / "counts.json"), "--json"]).stdout
    assert json.loads(mem)["counts"][0]["bytes"] == 3 * 1024 * 514
    run([*CLI, "train", "--preset", "tiny", "--out", str(tmp_path / "run"), *sets, "--set", "counts.enabled=true",
         "--set", "counts.orders=[1,2,4]", "--set", "counts.rows=2^10", "--set", "train.steps=3", "--set", "train.eval_bytes=1024",
         "--set", "train.progress=false"])
    m = json.loads((tmp_path / "run" / "metrics.json").read_text())
    assert m["config"]["counts"]["enabled"] and 0 < m["heldout_bpb"] < 8
