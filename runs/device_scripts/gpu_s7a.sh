# session 7, call 1: ns_method's 18 small runs (9 at once, two waves) through papermill without checkpoints, then the
# 30_train chapter's GPU cells (the repeatable cell among them) in what is left of the call.
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
T0=$(date +%s)
bash tools/gpu_ab.sh ns_method ${BUDGET:-500}
mkdir -p $OUT/v; left=$(( 575 - $(date +%s) + T0 )); echo "left for 30_train: ${left}s"
timeout $left nbdev-test --flags gpu --do-print nbs/3_training/30_train.ipynb > $OUT/v/gpu_30_train.txt 2>&1; echo "30_train rc=$? $(( $(date +%s)-T0 ))s"; tail -3 $OUT/v/gpu_30_train.txt
(cd $OUT && tar czf gpu_30_train.tgz v && rm -rf v); ls -la $OUT
