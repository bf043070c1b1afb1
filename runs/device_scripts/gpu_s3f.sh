# session 3, call 6: the offload benchmark with the forward+backward / optimizer split and none at batch 1; the offload chapter's GPU cells
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 OMP_WAIT_POLICY=PASSIVE
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
timeout 200 python3 -m dormouse.bench_offload --out $R/bench_offload --warmup 2 --steps 5 --budget-s 150 > $R/bench_offload.txt 2>&1; echo "bench rc=$? $(( $(date +%s)-T0 ))s"
grep -h "besides\|pinned copies\|wrote" $R/bench_offload.txt
timeout 80 nbdev-test --flags gpu --do-print nbs/06_offload.ipynb > $R/nbdev_test_gpu_06_offload.txt 2>&1; echo "06 rc=$? $(( $(date +%s)-T0 ))s: $(tail -n 1 $R/nbdev_test_gpu_06_offload.txt)"
cd $OUT && tar czf r.tgz r
