#!/usr/bin/env bash
# The smoke check of the count tables' zero gate (counts.mixer=zero) against the first design (geomean) and no table:
# tiny on the linux corpus, 300 steps of 8 x 128 bytes, seeds 0 and 1, one thread a run, one run at a time.
# From the repository root: bash runs/counts_mixer_smoke/run.sh [ARM...]; checkpoints removed after each run.
set -euf   # -f: the orders lists are not globs
out=runs/counts_mixer_smoke
base=(--set data.source=linux --set data.seq_len=128 --set data.batch_size=8 --set train.steps=300 --set train.eval_bytes=65536
      --set train.eval_every=150 --set train.log_every=10 --set train.device=cpu --set train.progress=false)
tables=(--set counts.enabled=true --set "counts.orders=[1,2,3,4]" --set counts.rows=262144)
arm() {
  case $1 in
    no_table) echo "";;
    geomean)  echo "${tables[*]} --set counts.mixer=geomean";;
    zero)     echo "${tables[*]} --set counts.mixer=zero";;
    sa_zero)  echo "--set counts.enabled=true --set counts.method=sa --set counts.orders=[1,2,3,4,6,8,12] --set counts.mixer=zero";;
  esac
}
arms=("$@"); [ ${#arms[@]} -gt 0 ] || arms=(no_table geomean zero)
for a in "${arms[@]}"; do
  mkdir -p "$out/$a"
  for seed in 0 1; do
    OMP_NUM_THREADS=1 dormouse train --preset tiny --out "$out/$a/$seed" "${base[@]}" --set train.seed=$seed $(arm "$a") > "$out/$a/$seed.log" 2>&1
    rm -rf "$out/$a/$seed/ckpt"
  done
done
