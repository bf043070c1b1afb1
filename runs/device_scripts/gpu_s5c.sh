# session 5, call 3: the banks' Newton–Schulz, torch's batched iteration vs the symmetric Triton kernels
# (`dormouse bench ns`), then the Newton–Schulz chapter's GPU test cells.
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
T0=$(date +%s)
timeout 170 python3 tests/dormouse_cli.py bench ns --out $OUT/bench_ns > $OUT/bench_ns.log 2>&1; echo "bench ns rc=$? $(( $(date +%s)-T0 ))s"; tail -15 $OUT/bench_ns.log
timeout 150 nbdev-test --flags gpu --do-print nbs/1_model/14_newton_schulz.ipynb > $OUT/nb14_gpu.log 2>&1; echo "nb14 gpu rc=$? $(( $(date +%s)-T0 ))s"; tail -30 $OUT/nb14_gpu.log
