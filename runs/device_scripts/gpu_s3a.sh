# session 3, call 1: 1 GiB pages for the flatness sweep (reserved first, on a fresh host), then the GPU checks
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 OMP_WAIT_POLICY=PASSIVE
R=$OUT/r; mkdir -p $R/flat; T0=$(date +%s)
P=/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages
{ echo "before $(cat $P)"; sync; echo 3 > /proc/sys/vm/drop_caches; echo 1 > /proc/sys/vm/compact_memory
  echo 40 > $P; echo "after compaction + echo 40: $(cat $P) free $(cat ${P%nr_hugepages}free_hugepages)"; grep -i "memfree\|memavail" /proc/meminfo; } > $R/flat/giant.txt 2>&1
cat $R/flat/giant.txt
timeout 120 python3 -m dormouse.bench_engram --out $R/flat/flat_1g --no-host --flatness --flat-sizes 16,24,25 --prefetches 8 --rounds 4 --flat-reps 20 --pages 1g > $R/flat/flat_1g.log 2>&1; echo "flat_1g rc=$? $(( $(date +%s)-T0 ))s"
echo 0 > $P
timeout 90 python3 -m dormouse.bench_engram --out $R/flat/flat_2m --no-host --flatness --flat-sizes 16,24,25 --prefetches 8 --rounds 4 --flat-reps 20 --pages 2m > $R/flat/flat_2m.log 2>&1; echo "flat_2m rc=$? $(( $(date +%s)-T0 ))s"
tail -5 $R/flat/flat_1g.log $R/flat/flat_2m.log
t() { n=$1; shift; timeout 150 "$@" > $R/$n.txt 2>&1; echo "$n rc=$? $(( $(date +%s)-T0 ))s: $(tail -1 $R/$n.txt)"; (cd $OUT && tar czf r.tgz r); }
t test_offload_gpu python3 -m pytest -q tests/test_offload_gpu.py
t check python3 -m dormouse.train check --out $R/check
t test_prefetch_cuda env DORMOUSE_TEST_DEVICE=cuda python3 -m pytest -q tests/test_prefetch.py
t test_engram_resume_cuda env DORMOUSE_TEST_DEVICE=cuda python3 -m pytest -q tests/test_engram_resume.py
for nb in 03_model 06_offload 05_engram; do t nbdev_test_gpu_$nb nbdev-test --flags gpu nbs/$nb.ipynb; done
cd $OUT && tar czf r.tgz r && rm -rf r
