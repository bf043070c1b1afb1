# session 3, call 7: CUDA tests and GPU cells after the review mends (one crc, Engram drains its server, update_step at the source)
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 OMP_WAIT_POLICY=PASSIVE
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
t() { n=$1; shift; timeout $TO "$@" > $R/$n.txt 2>&1; echo "$n rc=$? $(( $(date +%s)-T0 ))s: $(tail -n 1 $R/$n.txt)"; }
TO=130 t test_prefetch_resume_cuda env DORMOUSE_TEST_DEVICE=cuda python3 -m pytest -q tests/test_prefetch.py tests/test_engram_resume.py
for nb in 05_engram 07_prefetch; do TO=60 t nbdev_test_gpu_$nb nbdev-test --flags gpu --do-print nbs/$nb.ipynb; done
