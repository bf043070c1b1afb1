# On a lent GPU machine (the loop of runs/device_scripts/gpu_s7b.sh, for any experiment): runs of one experiment one after another, each through
# tools/gpu_ab.sh (papermill, no checkpoints, records packed into $OUT/NN/EXPERIMENT.tgz), each started only if the
# time left before END seconds (counted from CALL_T0, the call's start, else this script's) exceeds the longest run
# so far (before the first: GUESS seconds) by 15 s, so that no run is cut off half done.
#   export CALL_T0=$(date +%s); source tools/gpu_setup.sh; END=585 GUESS=260 bash tools/gpu_ab_fit.sh loop_offload loop_offload/1 loop_offload/2
# GUESS from the records: a dormouse-1b run at 8 x 512 without checkpoints took 248 s and 239 s (run.json's wall_s of
# runs/loop_offload/loop_offload/seed0 and no_offload/seed1); the margin is for papermill's start.
set -u; exp=$1; shift; T0=${CALL_T0:-$(date +%s)}; END=${END:-585}; longest=${GUESS:-260}; i=0
for r in "$@"; do
  left=$(( END - $(date +%s) + T0 ))
  if [ $left -lt $(( longest + 15 )) ]; then echo "skip $r: ${left}s left, longest run ${longest}s"; continue; fi
  i=$((i+1)); d=$OUT/$(printf "%02d" $i); mkdir -p $d; t=$(date +%s)
  OUT=$d bash tools/gpu_ab.sh "$exp" $left "$r"
  took=$(( $(date +%s) - t )); echo "$r took ${took}s"; [ $took -gt $longest ] && longest=$took
done
