# session 5, call 4 (the session's last device minutes): BankMuon eager vs fused (torch.compile) on dormouse-1b's
# banks (fused_check.py); the throughput benchmark for dormouse-1b, today's path and the larger micro-batch at
# effective batches 8, 64 and 256; the 16 GB card benchmark for the fp32, split and split+int8 levers.
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
R=$OUT/r; mkdir -p $R $OUT/bench_throughput; T0=$(date +%s)
timeout 100 python3 runs/device_scripts/fused_check.py > $R/fused_check.txt 2>&1; echo "fused_check rc=$? $(( $(date +%s)-T0 ))s"; tail -8 $R/fused_check.txt
timeout 250 python3 tests/dormouse_cli.py bench throughput --out $OUT/bench_throughput --presets dormouse-1b --effective 8 64 256 --levers today micro --budget-s 150 > $OUT/bench_throughput/run.log 2>&1
echo "throughput rc=$? $(( $(date +%s)-T0 ))s"; tail -4 $OUT/bench_throughput/run.log
timeout 225 env PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python3 tests/dormouse_cli.py bench card --out $R/bench_card --levers fp32,split,split+int8 --budget-s 120 > $R/bench_card.txt 2>&1
echo "card rc=$? $(( $(date +%s)-T0 ))s"; tail -3 $R/bench_card.txt
cd $OUT && tar czf r.tgz r && rm -rf r
