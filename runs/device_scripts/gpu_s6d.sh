# session 6, call 4: the 30_train chapter's GPU cells (after the compile check's CUDA tolerance), then the first
# repeatable loop_offload run (train.deterministic=true in the spec since call 3): no_offload/0, if the time left allows.
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
mkdir -p $OUT/v $OUT/r; T0=$(date +%s)
timeout 60 nbdev-test --flags gpu --do-print nbs/3_training/30_train.ipynb > $OUT/v/gpu_30_train.txt 2>&1; echo "30_train rc=$? $(( $(date +%s)-T0 ))s"; tail -3 $OUT/v/gpu_30_train.txt
(cd $OUT && tar czf gpu_30_train.tgz v && rm -rf v)
left=$(( ${BUDGET:-380} - $(date +%s) + T0 )); echo "left for the run: ${left}s"
timeout $left python3 tests/dormouse_cli.py ab experiments/loop_offload.yaml --only no_offload/0 \
  --engine papermill --runs-dir $OUT/r/runs --no-report --no-progress > $OUT/r/ab.log 2>&1
echo "ab rc=$? $(( $(date +%s)-T0 ))s"; tail -3 $OUT/r/ab.log
(cd $OUT && tar czf loop_det_s0.tgz --exclude=ckpt r && rm -rf r); ls -la $OUT
