# next session (written in session 11, before any run): bank_levers, its 12 runs at once in one call
# (experiments/bank_levers.yaml: small at micro-batch 4 x accum 2, 2,000 steps; engram_lr's 12 at once took 297-366 s a
# run by run.json; this estimate is not measured). A run the budget cuts off is lost: then run it as two calls of six,
# RUNS="fp32_state/0 fp32_state/1 ...", since gpu_ab.sh takes ARM/SEED lists.
#   When the records land (untarred into runs/bank_levers/): python3 tools/pack_logs.py runs/bank_levers (runs/README.md: step logs packed).
#   export DORMOUSE_GIT_COMMIT=<the full hash, typed out>; bash runs/device_scripts/gpu_s12b.sh
export CALL_T0=$(date +%s); source tools/gpu_setup.sh
export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
bash tools/gpu_ab.sh bank_levers $(( 590 - $(date +%s) + CALL_T0 )) $RUNS; ls -laR $OUT
