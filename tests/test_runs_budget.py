"""The records stay small. A GPU machine receives a copy of the working tree (64 MiB at most with the wheels, Debian
packages and corpus carried beside it), but not the records: tools/slim_tree.sh sends it the tree without runs/. What
the budget bounds is every clone of the repository: the files git tracks under runs/ may take 48 MB in all. The ten
largest are printed, the first places to look when it grows (step logs are packed with xz by tools/pack_logs.py;
the executed run notebooks and reports are the records themselves)."""
import subprocess
from helpers import ROOT

BUDGET = 48_000_000   # bytes


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
