# session 6, call 2: loop offload's offload arm, seed 0 (with call 1's no_offload/0: the loss-identity pair), then the
# GPU cells of 11_optim (fused int8 bound, fused save/load) and 30_train that the last session could not finish.
# Call 1 (gpu_s6a.sh, SEED=0) showed one dormouse-1b run of 2,000 steps takes about 335 s through papermill
# (305 s in run_arm: 207 s of steps, a 16 s first step that compiles the fused optimizer, 9 evaluations, 2 checkpoints,
# the OOD score), so a 10-minute call holds one run, not two: its second run was cut off at 560 s.
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
mkdir -p $OUT/r $OUT/v; T0=$(date +%s)
timeout 420 python3 tests/dormouse_cli.py ab experiments/loop_offload.yaml --only loop_offload/0 \
  --engine papermill --runs-dir $OUT/r/runs --no-report --no-progress > $OUT/r/ab.log 2>&1
echo "ab rc=$? $(( $(date +%s)-T0 ))s"; tail -5 $OUT/r/ab.log
(cd $OUT && tar czf loop_offload_s0.tgz --exclude=ckpt r && rm -rf r)
for nb in nbs/1_model/11_optim.ipynb nbs/3_training/30_train.ipynb; do n=$(basename $nb .ipynb); left=$(( 575 - $(date +%s) + T0 ))
  [ $left -gt 20 ] || { echo "$n: not run, no time left"; continue; }
  timeout $left nbdev-test --flags gpu --do-print $nb > $OUT/v/gpu_$n.txt 2>&1; echo "$n rc=$? $(( $(date +%s)-T0 ))s"; tail -3 $OUT/v/gpu_$n.txt; done
(cd $OUT && tar czf gpu_cells.tgz v && rm -rf v); ls -la $OUT
