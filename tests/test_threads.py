"""The thread policy lives in the code: an Engram arm run through `dormouse ab` straight from a shell
(no Makefile, so no OMP_WAIT_POLICY and no OMP_NUM_THREADS) runs at the speed it runs under `make`.

Without the policy numba's and torch's OpenMP pools spin against each other; on this 2-core box that
made the arm about 3x slower (on other machines up to 55x), so the 2x bound below can fail."""
import json, os, subprocess, sys
import pytest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = """name: threads
question: does an Engram arm run at full speed without the Makefile's environment?
prediction: yes
base: {preset: tiny, overrides: {data: {seq_len: 64, batch_size: 8}}}
control: control
arms: {control: {}, engram: {engram: {enabled: true, mode: host, rows: 4096}}}
seeds: [0, 1]
steps: 30
eval_bytes: 4096
metric: heldout_bpb
goal: lower
rule: kill_if_inside_control_spread
parallel: 1
"""

def ms_per_step(tmp: Path, name: str, **env) -> float:
    "Run the engram arm's seed 0 through the `dormouse` console script with exactly `env` on top of a shell's."
    e = {k: v for k, v in os.environ.items() if not k.startswith("OMP_")} | env | {"PYTHONPATH": str(ROOT)}
    d = tmp / name; d.mkdir()
    (d / "spec.yaml").write_text(SPEC)
    dormouse = Path(sys.executable).with_name("dormouse")
    r = subprocess.run([str(dormouse), "ab", "spec.yaml", "--engine", "python", "--only", "engram/0", "--no-report",
                        "--no-progress"], cwd=d, env=e, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return json.loads((d / "runs/threads/engram/seed0/metrics.json").read_text())["ms_per_step"]

@pytest.mark.slow
def test_ab_runs_at_full_speed_without_the_makefile(tmp_path):
    bare = ms_per_step(tmp_path, "bare")                                  # as a user types it
    made = ms_per_step(tmp_path, "make", OMP_WAIT_POLICY="PASSIVE")       # what the Makefile exports
    print(f"engram arm: {bare:.1f} ms/step from a bare shell, {made:.1f} ms/step with the Makefile's policy")
    assert bare < 2 * made, (bare, made)
