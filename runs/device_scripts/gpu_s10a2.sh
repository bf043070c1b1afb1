# session 10, call 2, as sent (after call 1, gpu_s10a.sh, fit only rows4M/2: that run took 301 s by gpu_ab_fit.sh's "took", papermill's start included, 292 s by run.json, and rows16M/1 was skipped).
# Each engram_rows run is now ~270-300 s, so one per call unless the first is quick; GUESS from call 1.
export DORMOUSE_GIT_COMMIT=7419243c6c5b846ad37aedee0c349ccd7c94b787; export CALL_T0=$(date +%s); source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_DIRTY=0; END=585 GUESS=300 bash tools/gpu_ab_fit.sh engram_rows rows16M/1 rows16M/2 2>&1 | tail -12; ls -laR $OUT
