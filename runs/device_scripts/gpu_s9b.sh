# next session, call 2 (written in session 8): the prefetch benchmark again on today's code (#17: the pipelined host
# tables must still cost <= 1.03x device tables), the prefetch chapter's GPU cells, the CUDA tests of the pipeline,
# then one engram_rows run if it still fits (the benchmark's budget is 140 s, not the last run's 240 s, to leave room:
# its rounds give each ratio an interval; fewer rounds, a wider one).   bash runs/device_scripts/gpu_s9b.sh
export CALL_T0=$(date +%s); source tools/gpu_setup.sh
export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
R=$OUT/p; mkdir -p $R
timeout 200 python3 tests/dormouse_cli.py bench prefetch --out $R/bench_prefetch --rounds 30 --steps 4 --warmup 3 --budget-s 140 \
  > $R/bench_prefetch.log 2>&1; echo "bench prefetch rc=$? $(( $(date +%s) - CALL_T0 ))s"; tail -15 $R/bench_prefetch.log
timeout 90 nbdev-test --flags gpu --do-print nbs/2_host_ram/28_bench_prefetch.ipynb > $R/nb28_gpu.log 2>&1; echo "28 rc=$?"; tail -3 $R/nb28_gpu.log
timeout 120 env DORMOUSE_TEST_DEVICE=cuda python3 -m pytest -q tests/test_prefetch.py > $R/test_cuda.txt 2>&1; echo "pytest rc=$?"; tail -3 $R/test_cuda.txt
(cd $OUT && tar czf prefetch.tgz p && rm -rf p)
END=585 GUESS=260 bash tools/gpu_ab_fit.sh engram_rows rows4M/1
ls -laR $OUT
