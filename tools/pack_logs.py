"""Pack the step logs of landed A/B experiments with xz: python3 tools/pack_logs.py runs/EXPERIMENT ...

Each ARM/seedN/log.csv becomes log.csv.xz, the same bytes (checked), and its SHA-256 goes into EXPERIMENT/logs.sha256
(`dormouse.decision.pack_logs`); a log packed earlier with gzip (log.csv.gz) is repacked. The step logs are most of
the records' size (tests/test_runs_budget.py): tools/gpu_run.sh runs this on the records it packs; run it on records
that land any other way."""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from dormouse.decision import pack_logs

if __name__ == "__main__":
    if len(sys.argv) < 2: sys.exit(__doc__)
    for d in sys.argv[1:]:
        if not Path(d).is_dir(): sys.exit(f"pack_logs: {d} is not a folder")
        packed = pack_logs(d)
        a, b = sum(p["csv_bytes"] for p in packed), sum(p["packed_bytes"] for p in packed)
        print(f"{d}: {len(packed)} logs packed, {a / 2**20:.2f} MiB -> {b / 2**20:.2f} MiB")
