# session 12, the whole command lines as sent:
#   call 2: export DORMOUSE_GIT_COMMIT=4cdd2f061f7284b0a1c032cb2937ffc1c6300f6e; RUNS="fp32_state/0 fp32_rerun/0 split/0 int8/0 fp32_state/1 fp32_rerun/1" bash runs/device_scripts/gpu_s12b.sh   (call wall 255.1 s)
#   call 3: export DORMOUSE_GIT_COMMIT=4cdd2f061f7284b0a1c032cb2937ffc1c6300f6e; RUNS="split/1 int8/1 fp32_state/2 fp32_rerun/2 split/2 int8/2" bash runs/device_scripts/gpu_s12b.sh   (call wall 247.4 s)
# next session (written in session 11, before any run): bank_levers (experiments/bank_levers.yaml: small at micro-batch
# 4 x accum 2, 2,000 steps), six runs at once, in two calls (the spec says why six):
#   export DORMOUSE_GIT_COMMIT=<the full hash, typed out>; RUNS="fp32_state/0 fp32_rerun/0 split/0 int8/0 fp32_state/1 fp32_rerun/1" bash runs/device_scripts/gpu_s12b.sh
#   export DORMOUSE_GIT_COMMIT=<the full hash, typed out>; RUNS="split/1 int8/1 fp32_state/2 fp32_rerun/2 split/2 int8/2" bash runs/device_scripts/gpu_s12b.sh
# Runs the budget cuts off are lost (six at once finish together). When the records land (untarred into runs/bank_levers/):
# python3 tools/pack_logs.py runs/bank_levers (runs/README.md: step logs packed).
export CALL_T0=$(date +%s); source tools/gpu_setup.sh
export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
bash tools/gpu_ab.sh bank_levers $(( 590 - $(date +%s) + CALL_T0 )) $RUNS; ls -laR $OUT
