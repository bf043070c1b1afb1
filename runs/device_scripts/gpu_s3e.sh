# session 3, call 5: the U sweep (naive vs fused, copy bandwidth) on the current kernel; no size sweeps
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 OMP_WAIT_POLICY=PASSIVE
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
timeout 240 python3 -m dormouse.bench_engram --out $R/u_sweep --sizes 16-16 --lever-sizes 16 --reps 15 > $R/u_sweep.log 2>&1; echo "rc=$? $(( $(date +%s)-T0 ))s"
tail -n 30 $R/u_sweep.log; cd $OUT && tar czf r.tgz r
