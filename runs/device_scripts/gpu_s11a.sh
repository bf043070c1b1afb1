# next session (written in session 10, before any run): the GPU checks of this session's code, at most 9.5 minutes of tests (the timeouts below, 420 + 150 s), plus gpu_setup.sh: the
# training and prefetch chapters' GPU cells (engram.prefetch=auto runs the pipeline on the GPU: 30_train's Engram log
# test; the out-of-memory stop under an allocator cap, oomgpu01), and the CUDA prefetch tests. bash runs/device_scripts/gpu_s11a.sh
export CALL_T0=$(date +%s); source tools/gpu_setup.sh
export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
mkdir -p $OUT/check
timeout 420 nbdev-test --flags gpu --do-print --file-re "30_train|27_prefetch|30_step" > $OUT/check/nb_gpu.log 2>&1; echo "nbdev-test rc=$?"
DORMOUSE_TEST_DEVICE=cuda timeout 150 python3 -m pytest -q tests/test_prefetch.py > $OUT/check/test_prefetch_cuda.log 2>&1; echo "pytest rc=$?"
tail -3 $OUT/check/*.log; ls -la $OUT/check
