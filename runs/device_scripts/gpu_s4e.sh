# session 4, call 6: the loop-offload experiment's first run (control, seed 0), through the plain engine (no papermill
# on the GPU machine); the report is rendered later where papermill is, once every run is in
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1
mkdir -p $OUT/r; T0=$(date +%s)
timeout 400 python3 tests/dormouse_cli.py ab experiments/loop_offload.yaml --engine python --only no_offload/0 --runs-dir $OUT/r/runs --no-report --no-progress > $OUT/r/ab.log 2>&1
echo "ab rc=$? $(( $(date +%s)-T0 ))s"; tail -5 $OUT/r/ab.log
cd $OUT && tar czf r.tgz --exclude=ckpt r && rm -rf r
