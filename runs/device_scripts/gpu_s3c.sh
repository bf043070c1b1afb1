# session 3, call 3: offload benchmark with the static state counted; the GPU tests after the one-step refactor; Engram train arms
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 OMP_WAIT_POLICY=PASSIVE
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
t() { n=$1; shift; timeout $TO "$@" > $R/$n.txt 2>&1; echo "$n rc=$? $(( $(date +%s)-T0 ))s: $(tail -n 1 $R/$n.txt)"; (cd $OUT && tar czf r.tgz r); }
TO=150 t bench_offload python3 -m dormouse.bench_offload --out $R/bench_offload --warmup 2 --steps 5 --budget-s 130
grep -h "besides\|pinned copies" $R/bench_offload.txt
TO=60 t test_offload_gpu python3 -m pytest -q tests/test_offload_gpu.py
TO=60 t check python3 -m dormouse.train check --out $R/check
TO=150 t test_prefetch_resume_cuda env DORMOUSE_TEST_DEVICE=cuda python3 -m pytest -q tests/test_prefetch.py tests/test_engram_resume.py
TO=150 t nbdev_test_gpu_03_04_07_09 nbdev-test --flags gpu --n-workers 1 --file-re '^(03_model|04_optim|07_prefetch|09_train)\.ipynb$'
TO=150 t bench_engram_train python3 -m dormouse.bench_engram --out $R/bench_engram_train --no-host --train --modes-check --steps 30
