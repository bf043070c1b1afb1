# session 8, call 1: loop_offload's two runs left of the offload arm, one after another without checkpoints
# (tools/gpu_ab_fit.sh: a run starts only if it can finish before END).   bash runs/device_scripts/gpu_s8a.sh
export CALL_T0=$(date +%s); source tools/gpu_setup.sh
export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
END=585 GUESS=260 bash tools/gpu_ab_fit.sh loop_offload loop_offload/1 loop_offload/2
ls -laR $OUT
