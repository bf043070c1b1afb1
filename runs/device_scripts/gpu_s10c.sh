# session 11: sent as call 1 (the device copy checked out at 4a663ca first: `git checkout -q 4a663ca...`) with DORMOUSE_GIT_COMMIT=4a663ca3a2b74484d6a8552fdd815dc2328545fb RUNS="fp32_state/1"; as call 2 at 7126c40 (DORMOUSE_GIT_COMMIT its full hash) with RUNS="card_levers/1".
# session 10: sent as call 4 with DORMOUSE_GIT_COMMIT=7419243c6c5b846ad37aedee0c349ccd7c94b787 RUNS="card_levers/0".
# next session, call 3 and on (written in session 9): card16's runs: fp32_state/0, the only run so far, took 437 s on one H200 (session 9; its run.json's wall_s).
# On nvidia-h200 one run per call:     RUNS="fp32_state/1" bash runs/device_scripts/gpu_s10c.sh
# On nvidia-h200-x2 two at once, one per GPU (dormouse ab --gpus all; the BPB question does not depend on it, ms/step
# is each run's own GPU's but the host is shared):   GPUS=all RUNS="fp32_state/1 card_levers/1" bash runs/device_scripts/gpu_s10c.sh
# Left after session 9: fp32_state/1 fp32_state/2 card_levers/0 card_levers/1 card_levers/2.
# Left after session 10: fp32_state/1 fp32_state/2 card_levers/1 card_levers/2.
export CALL_T0=$(date +%s); source tools/gpu_setup.sh
export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
bash tools/gpu_ab.sh card16 $(( 590 - $(date +%s) + CALL_T0 )) $RUNS; ls -laR $OUT
