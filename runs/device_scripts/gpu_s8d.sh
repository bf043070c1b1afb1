# session 8, call 4, as sent (the command line of the call, committed afterwards): engram_rows' no_engram/0, in the
# device time left (END=330).
export CALL_T0=$(date +%s); source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=22751d030d5796cd57accb8350ad5b0e06a6c16f DORMOUSE_GIT_DIRTY=0; END=330 GUESS=260 bash tools/gpu_ab_fit.sh engram_rows no_engram/0 2>&1 | tail -30; ls -laR $OUT
