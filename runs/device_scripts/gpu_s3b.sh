# session 3, call 2: the offload benchmark with the measured static state and bus, then larger batches
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 OMP_WAIT_POLICY=PASSIVE
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
t() { n=$1; shift; timeout $TO "$@" > $R/$n.log 2>&1; echo "$n rc=$? $(( $(date +%s)-T0 ))s: $(tail -n 1 $R/$n.log)"; (cd $OUT && tar czf r.tgz r); }
TO=200 t bench_offload python3 -m dormouse.bench_offload --out $R/bench_offload --warmup 2 --steps 5 --budget-s 170
for b in 32 64; do TO=130 t b$b python3 -m dormouse.bench_offload --out $R/batches/b$b --batch $b --warmup 2 --steps 5 --cap-gib 0 --only "checkpoint,ours pinned,ours both" --budget-s 110; done
grep -h "besides\|pinned copies" $R/*.log $R/batches/*.log 2>/dev/null; ls $R/batches/*
