# session 6, calls 1-3: loop offload (experiments/loop_offload.yaml, dormouse-1b, batch 8 x 512) one seed per call,
# both arms one after the other (SEED=0|1|2), through papermill so each run's executed notebook is its record.
# The report is rendered here afterwards (--report-only) from the records that come back; checkpoints stay behind.
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
mkdir -p $OUT/r; T0=$(date +%s); S=${SEED:-0}
timeout ${BUDGET:-560} python3 tests/dormouse_cli.py ab experiments/loop_offload.yaml --only no_offload/$S --only loop_offload/$S \
  --engine papermill --runs-dir $OUT/r/runs --no-report --no-progress > $OUT/r/ab.log 2>&1
echo "ab rc=$? $(( $(date +%s)-T0 ))s"; tail -12 $OUT/r/ab.log
cd $OUT && tar czf loop_s$S.tgz --exclude=ckpt r && rm -rf r && ls -la $OUT
