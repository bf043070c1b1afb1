# session 4, call 5: the bank levers' GPU cell (three steps: step 1 moves only the head), how far three steps of each
# bank lever land from fp32 + fp32, then the 16 GB card emulated again (the cache emptied before the cap is set)
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
pack() { (cd $OUT && tar czf r.tgz r); }
t() { n=$1; shift; timeout $TO "$@" > $R/$n.txt 2>&1; echo "$n rc=$? $(( $(date +%s)-T0 ))s: $(tail -n 1 $R/$n.txt)"; pack; }
TO=90 t nbdev_test_gpu_11_optim nbdev-test --flags gpu --do-print nbs/1_model/11_optim.ipynb
TO=60 t step_diff python3 runs/device_scripts/step_diff.py
cat $R/step_diff.txt
TO=330 t bench_card env PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python3 tests/dormouse_cli.py bench card --out $R/bench_card --budget-s 270
cd $OUT && tar czf r.tgz r && rm -rf r
