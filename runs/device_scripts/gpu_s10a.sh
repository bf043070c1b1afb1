# session 10: sent as call 1 with DORMOUSE_GIT_COMMIT=7419243c6c5b846ad37aedee0c349ccd7c94b787; only rows4M/2 fit (292 s by its run.json's wall_s; gpu_ab_fit.sh's "took" and the time left were in the device tool's reply, not committed), rows16M/1 was skipped.
# next session, call 1 (written in session 9, before any run): engram_rows' rows4M/2 and rows16M/1, one after the
# other, each started only if it can finish (a run took 245-266 s in session 9). bash runs/device_scripts/gpu_s10a.sh
export CALL_T0=$(date +%s); source tools/gpu_setup.sh
export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
END=585 GUESS=270 bash tools/gpu_ab_fit.sh engram_rows rows4M/2 rows16M/1 2>&1 | tail -12; ls -laR $OUT
