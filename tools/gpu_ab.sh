# On a lent GPU machine, after `source tools/gpu_setup.sh`: some runs of one experiment through papermill, without
# checkpoints (the machine's disk goes back with it), at the spec's `parallel` (one after another for 1), then their records (never checkpoints)
# packed into $OUT/EXPERIMENT.tgz for `tar xzf` here and `dormouse ab experiments/EXPERIMENT.yaml --report-only`.
#   bash tools/gpu_ab.sh EXPERIMENT BUDGET_S ARM/SEED...      e.g. bash tools/gpu_ab.sh loop_offload 560 loop_offload/0 no_offload/1
# A dormouse-1b run at 8 x 512 (2,000 steps) took 303 s with its two checkpoints and the out-of-domain score read back
# from disk (runs/loop_offload/no_offload/seed0/run.json, wall_s 303.41): two such runs (606 s) are over a 560 s budget.
# Without checkpoints two fit one call: 248 s and 239 s (runs/loop_offload/loop_offload/seed0 and no_offload/seed1,
# run.json's wall_s, one call of session 7).
# A run the budget cuts off is lost; the ones before it are kept.
# On a machine of several GPUs (nvidia-h200-x2), GPUS=all runs one run per GPU at a time (`dormouse ab --gpus all`):
#   GPUS=all bash tools/gpu_ab.sh card16 580 fp32_state/1 card_levers/1     (two runs side by side, one per GPU)
set -u; exp=$1; budget=$2; shift 2
only=(); for r in "$@"; do only+=(--only "$r"); done
mkdir -p "$OUT/r"; t0=$(date +%s)
timeout "$budget" python3 tests/dormouse_cli.py ab "experiments/$exp.yaml" ${only[@]+"${only[@]}"} --engine papermill --no-checkpoints ${GPUS:+--gpus "$GPUS"} \
  --runs-dir "$OUT/r/runs" --no-report --no-progress > "$OUT/r/ab.log" 2>&1
echo "ab rc=$? $(( $(date +%s) - t0 ))s"; tail -"$(( $# + 2 ))" "$OUT/r/ab.log"
(cd "$OUT" && tar czf "$exp.tgz" --exclude=ckpt --exclude=.lock r && rm -rf r)
