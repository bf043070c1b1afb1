# the fused BankMuon step, call 2 of 2: the 16 GB card benchmark, every lever side by side (records in bench_card/)
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1
mkdir -p $OUT/r; T0=$(date +%s)
timeout 400 env PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python3 tests/dormouse_cli.py bench card --out $OUT/r/bench_card --budget-s 270 > $OUT/r/bench_card.txt 2>&1
echo "bench_card rc=$? $(( $(date +%s)-T0 ))s"; tail -5 $OUT/r/bench_card.txt; cat $OUT/r/bench_card/card.csv
cd $OUT && tar czf r.tgz r && rm -rf r
