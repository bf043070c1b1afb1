# session 5, call 1: the Engram capacity curve (experiments/engram_capacity.yaml, preset small, 7 arms x 3 seeds,
# 7 runs at once) through papermill, so each run's executed notebook is its record; the report is rendered here
# afterwards (--report-only) from the records that come back. Checkpoints stay behind (tar --exclude=ckpt).
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
python3 -c "import papermill, ipykernel; print('papermill', papermill.__version__, 'ipykernel', ipykernel.__version__)"
mkdir -p $OUT/r; T0=$(date +%s)
timeout ${BUDGET:-530} python3 tests/dormouse_cli.py ab experiments/engram_capacity.yaml --engine papermill --runs-dir $OUT/r/runs --no-report --no-progress > $OUT/r/ab.log 2>&1
echo "ab rc=$? $(( $(date +%s)-T0 ))s"; tail -25 $OUT/r/ab.log
cd $OUT && tar czf capacity.tgz --exclude=ckpt r && rm -rf r && ls -la $OUT
