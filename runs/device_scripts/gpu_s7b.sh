# session 7, calls 2 and 3: loop_offload runs one after another without checkpoints, each packed on its own
# ($OUT/a, $OUT/b, ...); a run starts only if the time left in the call exceeds the longest run so far by 15 s,
# so no run is cut off half done.   RUNS="loop_offload/0 no_offload/1" bash runs/device_scripts/gpu_s7b.sh
T0=$(date +%s); source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=${DORMOUSE_GIT_COMMIT:-unknown} DORMOUSE_GIT_DIRTY=0
END=${END:-585}; longest=${FIRST_GUESS:-290}; i=0
for r in $RUNS; do
  left=$(( END - $(date +%s) + T0 ))
  if [ $left -lt $(( longest + 15 )) ]; then echo "skip $r: ${left}s left, longest run ${longest}s"; continue; fi
  i=$((i+1)); d=$OUT/$(printf "%02d" $i); mkdir -p $d; t=$(date +%s)
  OUT=$d bash tools/gpu_ab.sh loop_offload $left $r
  took=$(( $(date +%s) - t )); echo "$r took ${took}s"; [ $took -gt $longest ] && longest=$took
done
ls -laR $OUT
