# session 9, call 4, as sent (the command line of the call, committed afterwards): engram_rows' no_engram/1 in the
# device time left (END=330; a no-Engram run took 240 s in session 8).
export CALL_T0=$(date +%s); source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=402510428fa874657255eff5c2dbb6d10c6f9884 DORMOUSE_GIT_DIRTY=0; END=330 GUESS=245 bash tools/gpu_ab_fit.sh engram_rows no_engram/1 2>&1 | tail -5; ls -laR $OUT
