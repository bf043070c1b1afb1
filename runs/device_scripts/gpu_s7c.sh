# session 7, last call: the throughput benchmark of dormouse-1b at effective batches 8 and 256 x 512, with the
# micro-batch lever up to 256 (no accumulation at 256), compiled blocks, compiled blocks as CUDA graphs, and all
# together, side by side in one process (the Triton Newton-Schulz is left out: runs/bench_ns measured it slower).
# No cell starts after BUDGET seconds.   BUDGET=300 bash runs/device_scripts/gpu_s7c.sh
T0=$(date +%s); source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
mkdir -p $OUT/tp
timeout $(( ${END:-580} - $(date +%s) + T0 )) python3 tests/dormouse_cli.py bench throughput --out $OUT/tp --presets dormouse-1b \
  --effective 8 256 --levers today micro compile graphs all --micro-cap 256 --budget-s ${BUDGET:-300} > $OUT/tp/run.log 2>&1
echo "bench rc=$? $(( $(date +%s)-T0 ))s"; grep "^{" $OUT/tp/run.log | cut -c1-220
(cd $OUT && tar czf bench_throughput.tgz tp && rm -rf tp); ls -la $OUT
