# session 12, call 1 (the last card16 run), the whole command line as sent: export DORMOUSE_GIT_COMMIT=4cdd2f061f7284b0a1c032cb2937ffc1c6300f6e; RUNS="card_levers/2" bash runs/device_scripts/gpu_s10c.sh
#   (call wall 457.2 s by the device tool's reply; run.json wall_s 447)
# session 11, the commands as sent (each call's whole command line):
#   call 1: export DORMOUSE_GIT_COMMIT=4a663ca3a2b74484d6a8552fdd815dc2328545fb; git stash -q 2>/dev/null; git checkout -q 4a663ca3a2b74484d6a8552fdd815dc2328545fb 2>/dev/null; git log --oneline -1; RUNS="fp32_state/1" bash runs/device_scripts/gpu_s10c.sh
#   call 2: export DORMOUSE_GIT_COMMIT=7126c40$(git rev-parse HEAD 2>/dev/null | cut -c8-); git log --oneline -1; git status --short | head -5; RUNS="card_levers/1" bash runs/device_scripts/gpu_s10c.sh
#           (a faulty hash: the device copy's .git stood at 4a663ca from call 1, so run.json says 7126c403a2b7...; runs/card16/README.md)
#   call 3: export DORMOUSE_GIT_COMMIT=ee8fc1da7f43b5eb1c352362709d82679db621ff; RUNS="fp32_state/2" bash runs/device_scripts/gpu_s10c.sh
# Left after session 11: card_levers/2 (the same, RUNS="card_levers/2", with the sending commit's full hash typed out).
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
