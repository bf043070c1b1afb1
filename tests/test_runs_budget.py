"""The records stay small: a GPU machine receives a copy of the whole working tree, records included, and that copy
(with the wheels and Debian packages carried beside it) may hold 64 MiB. The files git tracks under runs/ may take
40 MB in all; the ten largest are printed, the first places to look when it grows (pack step logs with
tools/pack_logs.py; tools/slim_tree.sh sends a tree without the records a run does not need)."""
import subprocess
from helpers import ROOT

BUDGET = 40_000_000   # bytes


def tracked_sizes(folder="runs"):
    out = subprocess.run(["git", "ls-files", "-z", "--", folder], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return {n: (ROOT / n).stat().st_size for n in filter(None, out.split("\0")) if (ROOT / n).is_file()}


def test_runs_within_budget():
    sizes = tracked_sizes()
    total = sum(sizes.values())
    largest = "\n".join(f"{b:>12,}  {n}" for n, b in sorted(sizes.items(), key=lambda x: -x[1])[:10])
    report = f"runs/: {total:,} bytes in {len(sizes)} tracked files (budget {BUDGET:,}); the ten largest:\n{largest}"
    print(report)
    assert sizes and total <= BUDGET, report
