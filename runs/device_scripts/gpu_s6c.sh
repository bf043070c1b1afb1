# session 6, call 3: loop_offload's seed-0 pair (calls 1-2) parted at step 39 on the H200, before any evaluation: is that
# CUDA's non-repeatable kernels or the offload? dormouse-1b, 100 steps each, no checkpoints (repeatable_check.py):
#   rep_a, rep_b: train.deterministic=true, the same run twice (repeatable?);  rep_off: the same with the loop block
#   offloaded (exact?);  plain: train.deterministic=false (what repeatability costs in ms/step);  plain_b: plain again.
# Then the 30_train chapter's GPU cells (the repeatable-runs cell among them).
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
mkdir -p $OUT/d; T0=$(date +%s); C=runs/device_scripts/repeatable_check.py; S=train.steps=${STEPS:-100}
for r in "rep_a train.deterministic=true" "rep_b train.deterministic=true" "rep_off train.deterministic=true offload.loop=offload" \
         "plain train.deterministic=false" "plain_b train.deterministic=false"; do
  timeout 120 python3 $C run /tmp/det $r $S > $OUT/d/${r%% *}.log 2>&1; echo "${r%% *} rc=$? $(( $(date +%s)-T0 ))s"; tail -2 $OUT/d/${r%% *}.log; done
python3 $C compare /tmp/det rep_a rep_b rep_off plain plain_b 2>&1 | tee $OUT/d/compare.txt
for n in rep_a rep_b rep_off plain plain_b; do cp /tmp/det/$n/log.csv $OUT/d/$n.csv; cp /tmp/det/$n/metrics.json $OUT/d/$n.json; done
left=$(( 560 - $(date +%s) + T0 )); [ $left -gt 30 ] && { timeout $left nbdev-test --flags gpu --do-print nbs/3_training/30_train.ipynb > $OUT/d/gpu_30_train.txt 2>&1; echo "30_train rc=$? $(( $(date +%s)-T0 ))s"; tail -3 $OUT/d/gpu_30_train.txt; }
(cd $OUT && tar czf repeatable.tgz d && rm -rf d); ls -la $OUT
