# session 3, call 4: the GPU cells and CUDA tests after the merges (train_step, row server, update_step, offload cells, bench_arm)
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 OMP_WAIT_POLICY=PASSIVE
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
t() { n=$1; shift; timeout $TO "$@" > $R/$n.txt 2>&1; echo "$n rc=$? $(( $(date +%s)-T0 ))s: $(tail -n 1 $R/$n.txt)"; (cd $OUT && tar czf r.tgz r); }
for nb in 06_offload 07_prefetch 05_engram 03_model 04_optim 09_train; do TO=100 t nbdev_test_gpu_$nb nbdev-test --flags gpu --n-workers 1 --do-print nbs/$nb.ipynb; done
TO=150 t test_prefetch_resume_cuda env DORMOUSE_TEST_DEVICE=cuda python3 -m pytest -q tests/test_prefetch.py tests/test_engram_resume.py
TO=80 t prefetch_bench_short python3 -m dormouse.prefetch bench --out $R/prefetch_short --presets small --rounds 3 --steps 4 --warmup 2 --budget-s 50
TO=120 t bench_train python3 -m dormouse.train bench --out $R/bench_train --presets small dormouse-1b --steps 20
