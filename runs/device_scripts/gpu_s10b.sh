# session 10: not sent as written; call 3 sent gpu_s10b2.sh (the same runs, END=592 GUESS=270).
# next session, call 2 (written in session 9): engram_rows' last two runs, rows16M/2 and no_engram/2; with them the
# experiment is complete (9/9). bash runs/device_scripts/gpu_s10b.sh
export CALL_T0=$(date +%s); source tools/gpu_setup.sh
export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
END=585 GUESS=270 bash tools/gpu_ab_fit.sh engram_rows rows16M/2 no_engram/2 2>&1 | tail -12; ls -laR $OUT
