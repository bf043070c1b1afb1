# session 8, call 2: loop_offload's last run (no_offload/2), then the Newton-Schulz schedules timed side by side
# (torch's iteration), then 30_train's GPU cells, each bounded so the call ends before 590 s.
#   bash runs/device_scripts/gpu_s8b.sh
export CALL_T0=$(date +%s); source tools/gpu_setup.sh
export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
END=585 GUESS=260 bash tools/gpu_ab_fit.sh loop_offload no_offload/2
mkdir -p $OUT/ns $OUT/check
timeout 100 python3 tests/dormouse_cli.py bench ns --out $OUT/ns --impls torch \
  --schedules quintic:5,quintic:4,quintic:3,polar_express:5,polar_express:4,polar_express:3 2>&1 | tee $OUT/ns/run.log | tail -20
left=$(( 585 - $(date +%s) + CALL_T0 )); echo "30_train: ${left}s left"
timeout $left nbdev-test --flags gpu --do-print nbs/3_training/30_train.ipynb 2>&1 | tee $OUT/check/nb30_gpu.log | tail -30
echo "30_train rc=${PIPESTATUS[0]}"
(cd $OUT && tar czf ns_check.tgz ns check && rm -rf ns check); ls -laR $OUT
