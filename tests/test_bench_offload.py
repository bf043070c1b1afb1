"The offload benchmark runner end to end through `dormouse bench offload`, on the CPU (tiny preset, host tensors offloadable)."
import json, subprocess, sys
import pandas as pd
import pytest

DORMOUSE = [sys.executable, "-c", "import sys; from dormouse.cli import main; sys.exit(main(sys.argv[1:]))"]


@pytest.mark.slow
def test_bench_offload_cli(tmp_path):
    out = tmp_path / "bench"
    cmd = DORMOUSE + ["bench", "offload", "--out", str(out), "--preset", "tiny", "--batch", "2",
                      "--seq", "32", "--warmup", "0", "--steps", "1", "--device", "cpu", "--offload-host",
                      "--set", "offload.min_bytes=1024"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    t = pd.read_csv(out / "table.csv")
    assert len(t) == 16 and (t.status == "ok").all(), t[["method", "target", "status"]]
    moved = t[t.path.notna()]
    assert (moved.offloaded_gib_step > 0).all()            # every offload arm packed something
    assert (t[t.path.isna()].offloaded_gib_step == 0).all()  # none and checkpoint move nothing
    assert set(t.method) == {"none", "checkpoint", "save_on_cpu", "ours sync", "ours pinned", "ours both"}
    s = json.loads((out / "summary.json").read_text())
    assert s["preset"] == "tiny" and len(s["table"]) == 16
    man = json.loads((out / "manifest.json").read_text())
    assert "bench offload" in man["command"] and man["machine"]["device"] == "cpu"


def test_bench_offload_bad_args(tmp_path):
    r = subprocess.run(DORMOUSE + ["bench", "offload"], capture_output=True, text=True)
    assert r.returncode == 2 and "--out" in r.stderr, r.stderr
