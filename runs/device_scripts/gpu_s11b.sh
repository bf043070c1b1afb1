# session 12, call 5, the whole command line as sent: export DORMOUSE_GIT_COMMIT=4cdd2f061f7284b0a1c032cb2937ffc1c6300f6e; BUDGET=300 bash runs/device_scripts/gpu_s11b.sh (timeout_s 330; call wall 194.0 s)
# session 11: sent as call 4 with the whole command line: export DORMOUSE_GIT_COMMIT=ee8fc1da7f43b5eb1c352362709d82679db621ff; BUDGET=180 bash runs/device_scripts/gpu_s11b.sh (timeout_s 200; call wall 185.3 s by the device tool's reply)
# session 11 (written before any run): the GPU checks of session 10's code, in the device time left after card16's
# calls, BUDGET seconds in all (gpu_s11a.sh's 570 s of timeouts did not fit beside three card16 runs). In the order
# of what they check: the training chapter's GPU cells (engram.prefetch=auto runs the pipeline on the GPU: the Engram
# log test; the out-of-memory stop under an allocator cap, oomgpu01), then the prefetch and step chapters' GPU cells,
# then the CUDA prefetch tests. A check the budget cuts off says so in its log (rc 124).
#   BUDGET=300 bash runs/device_scripts/gpu_s11b.sh
export CALL_T0=$(date +%s); source tools/gpu_setup.sh
export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
mkdir -p $OUT/check
within() {   # within LOG CMD...: CMD under the time left of BUDGET, its output in $OUT/check/LOG; skipped when none is left
  local log=$1 t=$(( ${BUDGET:-300} - $(date +%s) + CALL_T0 )); shift
  if [ $t -lt 10 ]; then echo "skipped: ${t}s left" > $OUT/check/$log; echo "$log skipped"; return; fi
  local t0=$(date +%s); timeout $t "$@" > $OUT/check/$log 2>&1; local rc=$?
  echo "rc=$rc $(( $(date +%s) - t0 ))s: $*" | tee -a $OUT/check/$log
}
within nb_gpu_30_train.log nbdev-test --flags gpu --do-print --file-re 30_train
within nb_gpu_27_30_step.log nbdev-test --flags gpu --do-print --file-re "27_prefetch|30_step"
within test_prefetch_cuda.log env DORMOUSE_TEST_DEVICE=cuda python3 -m pytest -q tests/test_prefetch.py
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/check/gpu.txt 2>&1; python3 -c "import torch; print(torch.__version__)" >> $OUT/check/gpu.txt
tail -n 3 $OUT/check/*.log; ls -la $OUT/check
