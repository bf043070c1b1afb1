# session 4, call 1: after the house redesign (notebooks in groups, one train_step, explicit offloader,
# one command line): every notebook's GPU cells, the CUDA tests, and the GPU self-checks and the
# training benchmark through `dormouse check` / `dormouse bench train` (records with manifest.json)
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
pack() { (cd $OUT && tar czf r.tgz r); }
t() { n=$1; shift; timeout $TO "$@" > $R/$n.txt 2>&1; echo "$n rc=$? $(( $(date +%s)-T0 ))s: $(tail -n 1 $R/$n.txt)"; pack; }
python3 -c "import torch; print(torch.__version__, torch.cuda.get_device_name())"
DORMOUSE="python3 tests/dormouse_cli.py"
TO=150 t check $DORMOUSE check --out $R/check
TO=240 t test_cuda env DORMOUSE_TEST_DEVICE=cuda python3 -m pytest -q tests/test_prefetch.py tests/test_engram_resume.py
for nb in 0_foundations/05_records 1_model/11_optim 1_model/12_check 2_host_ram/22_engram 2_host_ram/25_offload 2_host_ram/28_bench_prefetch 2_host_ram/24_bench_engram; do
  TO=120 t nbdev_test_gpu_$(basename $nb) nbdev-test --flags gpu --do-print nbs/$nb.ipynb; done
TO=150 t bench_train $DORMOUSE bench train --out $R/bench_train --presets small dormouse-1b --steps 20
cd $OUT && tar czf r.tgz r && rm -rf r
