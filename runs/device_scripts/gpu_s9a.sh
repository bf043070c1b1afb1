# next session, call 1 (written in session 8, before any run): engram_lr's 12 runs at once (the spec's parallel),
# without checkpoints, records packed into $OUT/engram_lr.tgz.   bash runs/device_scripts/gpu_s9a.sh
export CALL_T0=$(date +%s); source tools/gpu_setup.sh
export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
bash tools/gpu_ab.sh engram_lr $(( 580 - $(date +%s) + CALL_T0 ))
free -g; ls -la $OUT
