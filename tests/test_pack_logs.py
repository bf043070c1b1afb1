"""`tools/pack_logs.py`, as run on landed records: every run's log.csv becomes log.csv.xz with the same bytes, the
originals' SHA-256 go into logs.sha256 (checkable with `sha256sum -c` after unpacking), and the A/B reader reads the
packed logs as it read the csv files."""
import hashlib, lzma, shutil, subprocess, sys
from pathlib import Path
from dormouse.decision import load_runs
from helpers import ROOT, env


def test_pack_logs_cli(tmp_path):
    exp = tmp_path / "demo"
    shutil.copytree(ROOT / "runs" / "demo", exp, ignore=shutil.ignore_patterns("*.ipynb"))
    logs = sorted(exp.glob("*/seed*/log.csv"))
    assert len(logs) == 6
    before, raw = load_runs(exp), {p: p.read_bytes() for p in logs}
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "pack_logs.py"), str(exp)], env=env(), capture_output=True,
                         text=True, check=True).stdout
    assert out.startswith(f"{exp}: 6 logs packed, ")
    for p, b in raw.items():
        assert not p.exists() and lzma.decompress(p.with_name("log.csv.xz").read_bytes()) == b
    lines = (exp / "logs.sha256").read_text().splitlines()
    assert lines == [f"{hashlib.sha256(raw[p]).hexdigest()}  {p.relative_to(exp)}" for p in logs]
    after = load_runs(exp)
    assert after[1].equals(before[1]) and after[2].equals(before[2])
    again = subprocess.run([sys.executable, str(ROOT / "tools" / "pack_logs.py"), str(exp)], env=env(), capture_output=True, text=True)
    assert again.returncode == 0 and "0 logs packed" in again.stdout                 # nothing left to pack, nothing lost
    bad = subprocess.run([sys.executable, str(ROOT / "tools" / "pack_logs.py"), str(tmp_path / "nowhere")], env=env(),
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "is not a folder" in bad.stderr
