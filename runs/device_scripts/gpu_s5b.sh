# session 5, call 2: the rest of the Engram capacity curve (rows18/seed2, rows20, rows22 and the no_engram arm: 10 runs
# at once, through papermill, into the repository's runs/ where the 14 finished runs already are, so `dormouse ab`
# skips those) and, beside it, `dormouse bench memory` (dormouse-1b, micro-batch 1 and 8; allocated bytes are per
# process, so the runs beside it do not change them) followed by the memory chapter's GPU test cells.
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
mkdir -p $OUT/logs; T0=$(date +%s)
( timeout 300 python3 tests/dormouse_cli.py bench memory --out $OUT/memory_trace > $OUT/logs/memory.log 2>&1; echo "bench memory rc=$?" >> $OUT/logs/memory.log
  rm -rf runs/memory_trace && cp -r $OUT/memory_trace runs/memory_trace \
  && timeout 200 nbdev-test --flags gpu --do-print nbs/3_training/33_memory_trace.ipynb >> $OUT/logs/memory.log 2>&1; echo "memory chapter gpu rc=$?" >> $OUT/logs/memory.log ) &
timeout ${BUDGET:-480} python3 tests/dormouse_cli.py ab experiments/engram_capacity.yaml --engine papermill --parallel 10 --runs-dir runs --no-report --no-progress > $OUT/logs/ab.log 2>&1
echo "ab rc=$? $(( $(date +%s)-T0 ))s"; wait; echo "all done $(( $(date +%s)-T0 ))s"; tail -3 $OUT/logs/memory.log
tar czf $OUT/capacity.tgz --exclude=ckpt --exclude=.lock runs/engram_capacity && (cd $OUT && tar czf logs.tgz logs && rm -rf logs) && ls -la $OUT $OUT/memory_trace
