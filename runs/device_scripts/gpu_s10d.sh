# session 12, call 4, the whole command line as sent: export DORMOUSE_GIT_COMMIT=4cdd2f061f7284b0a1c032cb2937ffc1c6300f6e; bash runs/device_scripts/gpu_s10d.sh   (call wall 362.1 s)
# after engram_rows and card16 are complete (written in session 9, before any run): engram_rate's 12 runs at once
# (the spec's parallel), without checkpoints; engram_lr's 12 at once took 297-366 s a run (its Engram arms 363-366 s). bash runs/device_scripts/gpu_s10d.sh
export CALL_T0=$(date +%s); source tools/gpu_setup.sh
export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
bash tools/gpu_ab.sh engram_rate $(( 580 - $(date +%s) + CALL_T0 ))
ls -la $OUT
