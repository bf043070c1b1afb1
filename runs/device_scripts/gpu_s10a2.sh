# session 10, call 2, as sent (after call 1, gpu_s10a.sh, fit only rows4M/2: 292 s by its run.json's wall_s, and rows16M/1 was skipped).
# engram_rows runs took 245-292 s by run.json's wall_s in sessions 9-10 (a call adds papermill's start), so one per call
# unless the first is quick; GUESS from call 1's gpu_ab_fit.sh "took" (in the device tool's reply, not committed).
export DORMOUSE_GIT_COMMIT=7419243c6c5b846ad37aedee0c349ccd7c94b787; export CALL_T0=$(date +%s); source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_DIRTY=0; END=585 GUESS=300 bash tools/gpu_ab_fit.sh engram_rows rows16M/1 rows16M/2 2>&1 | tail -12; ls -laR $OUT
