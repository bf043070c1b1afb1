# session 4, call 3: the split bank / int8 momentum GPU cells, then the 16 GB card emulated (bench card)
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
pack() { (cd $OUT && tar czf r.tgz r); }
t() { n=$1; shift; timeout $TO "$@" > $R/$n.txt 2>&1; echo "$n rc=$? $(( $(date +%s)-T0 ))s: $(tail -n 1 $R/$n.txt)"; pack; }
for nb in 0_foundations/06_bits 1_model/10_model 1_model/11_optim 1_model/12_check; do
  TO=90 t nbdev_test_gpu_$(basename $nb) nbdev-test --flags gpu --do-print nbs/$nb.ipynb; done
TO=420 t bench_card env PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python3 tests/dormouse_cli.py bench card --out $R/bench_card --budget-s 330
cd $OUT && tar czf r.tgz r && rm -rf r
