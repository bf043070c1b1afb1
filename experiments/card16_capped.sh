#!/usr/bin/env bash
# The plan of experiments/card16_capped.md as commands, one stage a call (each under ten minutes), from the root of a
# copy of the tree on a GPU machine that has run `tools/gpu_run.sh` once (the wheels in /tmp/site, the corpus in /):
#
#   OUT=DIR bash experiments/card16_capped.sh probe        the context, and the cap it leaves (runs-local/card16_cap)
#   OUT=DIR bash experiments/card16_capped.sh candidates   micro-batch x accumulation x offload under the cap, 30 steps each
#   OUT=DIR bash experiments/card16_capped.sh part1        the 2,000-step run, killed with SIGKILL once step 1,100 is logged
#   OUT=DIR bash experiments/card16_capped.sh part2        the same command again: the resume
#
# SETS="--set k=v ..." adds to the run's settings (a fallback of the plan). Records are copied to $OUT/card16_capped/.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PYTHONPATH=/tmp/site:$PWD${PYTHONPATH:+:$PYTHONPATH} PATH=/tmp/site/bin:$PATH PYTHONUNBUFFERED=1
# the commit the copy was made from (a copy's stale git folder would otherwise be read), as tools/gpu_run.sh names it
[ -z "${DORMOUSE_GIT_COMMIT:-}" ] && [ -f .dormouse-commit ] && export DORMOUSE_GIT_COMMIT=$(tr -d '[:space:]' < .dormouse-commit)
# the wheels (fastcore among them) where tools/gpu_run.sh has not installed them yet
[ -d /tmp/site/fastcore ] || ! ls .whl/*.whl >/dev/null 2>&1 || python3 -m pip install -q --no-index --no-deps --no-compile \
  --no-cache-dir --target /tmp/site .whl/*.whl
D=(python3 tests/dormouse_cli.py)
CARD=(--preset dormouse-1b-16g --set train.device=cuda --set train.eval_every=250 --set train.ckpt_every=250
      --set train.eval_bytes=393216 --set train.log_every=10 --set train.deterministic=true --set train.progress=false)
read -r -a EXTRA <<< "${SETS:-}"
R=runs-local; mkdir -p "$R" "${OUT:?set OUT}/card16_capped"
[ -d /usr/share/dictd ] || for f in .deb/*.deb; do dpkg -x "$f" /; done   # the corpus, where gpu_run.sh has not run yet
keep() { cp "$@" "$OUT/card16_capped/" 2>/dev/null; }   # what comes back
figures() {   # figures DIR...: status, ms/step and the peaks of each run
  python3 - "$@" <<'EOF'
import json, sys
from pathlib import Path
keys = ("status", "batch_size", "accum", "ms_per_step", "peak_allocated_gib", "peak_reserved_gib", "cuda_context_gib",
        "cuda_context_gib_end", "memory_cap_gib", "heldout_bpb")
for d in sys.argv[1:]:
    p = Path(d) / "metrics.json"
    m = json.loads(p.read_text()) if p.exists() else {"status": "no metrics"}
    print(Path(d).name, {k: (round(m[k], 3) if isinstance(m.get(k), float) else m.get(k)) for k in keys},
          {k: round(v, 3) for k, v in m.items() if k.startswith("peak_") and k.count("_") > 2 and v is not None},
          m.get("error", "")[:300])
EOF
}
cap() { cat "$R/card16_cap"; }

case ${1:-} in
probe)   # 20 steps under a generous cap: what lives outside the allocator once every kernel has loaded
  "${D[@]}" train "${CARD[@]}" --set train.steps=20 --set train.eval_every=10 --set train.ckpt_every=10 \
    --set train.memory_cap_gib=15 "${EXTRA[@]}" --out $R/card16_probe > $R/card16_probe.log 2>&1
  echo "probe: rc=$?"; tail -n 3 $R/card16_probe.log
  python3 -c "import json; m = json.load(open('$R/card16_probe/metrics.json')); \
print(f\"{int((16 - max(m['cuda_context_gib'], m['cuda_context_gib_end'])) * 100) / 100:.2f}\")" > $R/card16_cap
  echo "cap: $(cap) GiB"; figures $R/card16_probe
  cp $R/card16_probe/metrics.json "$OUT/card16_capped/probe_metrics.json"; keep $R/card16_probe.log;;
candidates)   # each candidate trains 30 steps with two evaluations and two checkpoints under the cap
  mkdir -p $R/card16_cand
  for c in "32 2 none" "16 4 none" "8 8 none" "32 2 both"; do
    read -r b a o <<< "$c"; name=b${b}x${a}_offload_$o
    "${D[@]}" train "${CARD[@]}" --set train.steps=30 --set train.eval_every=15 --set train.ckpt_every=15 \
      --set train.memory_cap_gib="$(cap)" --set data.batch_size="$b" --set train.accum="$a" \
      --set offload.moe="$o" --set offload.loop="$o" "${EXTRA[@]}" --out $R/card16_cand/$name > $R/card16_cand/$name.log 2>&1
    echo "$name: rc=$?"; mkdir -p "$OUT/card16_capped/candidates"; cp $R/card16_cand/$name/metrics.json "$OUT/card16_capped/candidates/$name.json" 2>/dev/null
  done
  figures $R/card16_cand/*/;;
part1)   # killed with SIGKILL once the log shows step 1,100 (steps 1,001-1,100 are lost by design)
  "${D[@]}" train "${CARD[@]}" --set train.steps=2000 --set train.memory_cap_gib="$(cap)" "${EXTRA[@]}" \
    --out $R/card16_capped > $R/card16_capped.part1.log 2>&1 &
  PID=$!
  until grep -q '^1100,' $R/card16_capped/log.csv 2>/dev/null; do sleep 2; kill -0 $PID 2>/dev/null || break; done
  kill -9 $PID; wait $PID; echo "killed: rc=$?"
  cp $R/card16_capped/log.csv $R/card16_capped.killed_log.csv
  tail -n 2 $R/card16_capped.killed_log.csv; ls $R/card16_capped
  keep $R/card16_capped.part1.log $R/card16_capped.killed_log.csv;;
part2)   # the same command: the resume
  "${D[@]}" train "${CARD[@]}" --set train.steps=2000 --set train.memory_cap_gib="$(cap)" "${EXTRA[@]}" \
    --out $R/card16_capped > $R/card16_capped.part2.log 2>&1
  echo "resumed: rc=$?"; tail -n 3 $R/card16_capped.part2.log; figures $R/card16_capped
  keep $R/card16_capped.part2.log $R/card16_capped/metrics.json $R/card16_capped/log.csv $R/card16_capped/run.json;;
*) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2;;
esac
