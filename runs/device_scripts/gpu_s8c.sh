# session 8, call 3, as sent (the command line of the call, committed afterwards): engram_rows' seed 0 of the two
# table sizes, one after another without checkpoints, each started only if it could finish.
export CALL_T0=$(date +%s); source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=22751d030d5796cd57accb8350ad5b0e06a6c16f DORMOUSE_GIT_DIRTY=0; END=585 GUESS=270 bash tools/gpu_ab_fit.sh engram_rows rows4M/0 rows16M/0 2>&1 | tail -30; ls -laR $OUT
