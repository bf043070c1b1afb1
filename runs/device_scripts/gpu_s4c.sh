# session 4, call 4: after the split bank / int8 momentum and gradient accumulation landed: their GPU cells and
# the CUDA tests, how far one step of each bank lever lands from fp32 + fp32, then the 16 GB card emulated
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
pack() { (cd $OUT && tar czf r.tgz r); }
t() { n=$1; shift; timeout $TO "$@" > $R/$n.txt 2>&1; echo "$n rc=$? $(( $(date +%s)-T0 ))s: $(tail -n 1 $R/$n.txt)"; pack; }
for nb in 1_model/11_optim 2_host_ram/22_engram 2_host_ram/28_bench_prefetch; do
  TO=90 t nbdev_test_gpu_$(basename $nb) nbdev-test --flags gpu --do-print nbs/$nb.ipynb; done
TO=60 t step_diff python3 runs/device_scripts/step_diff.py
cat $R/step_diff.txt
TO=200 t test_cuda env DORMOUSE_TEST_DEVICE=cuda python3 -m pytest -q tests/test_prefetch.py tests/test_engram_resume.py
TO=330 t bench_card env PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python3 tests/dormouse_cli.py bench card --out $R/bench_card --budget-s 270
cd $OUT && tar czf r.tgz r && rm -rf r
