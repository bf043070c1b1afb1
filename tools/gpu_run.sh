#!/usr/bin/env bash
# A GPU machine without internet, from the repository root of a copy of the working tree (tools/README.md):
#
#   OUT=DIR [BUDGET_S=S] bash tools/gpu_run.sh EXPERIMENT [ARM/SEED...]   runs of experiments/EXPERIMENT.yaml (or a .yaml path)
#   OUT=DIR [BUDGET_S=S] bash tools/gpu_run.sh check                      the GPU self-checks, CUDA tests and GPU cells
#                                                                         (CHAPTERS=REGEX: only those chapters' cells)
#   OUT=DIR [BUDGET_S=S] bash tools/gpu_run.sh bench NAME [ARGS...]       `dormouse bench NAME --out ... ARGS`
#   bash tools/gpu_run.sh land OUT/EXPERIMENT.tgz...                      (here) the records into runs/
#
# First it checks the kit the copy carries (tools/gpu_kit.py --check: every missing wheel, .deb and packed corpus
# named, exit 2; `make gpu-kit` builds the kit), then installs it: the wheels in .whl/ (pip --no-index into $SITE,
# default /tmp/site), the Debian packages in .deb/ (dpkg -x into /: dict-gcide is the default corpus, fortunes the
# experiments' out-of-domain text) and a packed corpus cache in .corpus/ (`dormouse corpus --source linux --pack .corpus`: copied into
# $DORMOUSE_CACHE/corpus, default /tmp/dormouse-cache, where the run unpacks it). `dormouse` runs from the copy itself
# (tests/dormouse_cli.py with the copy first on PYTHONPATH): nothing needs to be installed.
#
# The code version: a copy without git history claims the commit in .dormouse-commit at the tree's root, written before
# the tree is sent (`git rev-parse HEAD > .dormouse-commit`), or in DORMOUSE_GIT_COMMIT; every record names it beside
# the hash of the code that ran (`git_info`). The script checks the claim is one commit hash and prints it.
#
# A spec whose arms name `nproc` N > 1 runs each such run on N torchrun ranks, one GPU a rank from GPU 0 (README:
# "Several GPUs, several machines"): one run at a time, refused with GPUS or where the machine has fewer GPUs than N.
#
# BUDGET_S (optional): seconds for the whole script. Runs go in batches (PER_BATCH runs at once, default the spec's
# `parallel`); a batch starts only when the time left exceeds the longest batch so far (GUESS_S before the first,
# default 0) by MARGIN_S (default 15), and runs under `timeout` of the time left, so none is cut off half done
# unless GUESS_S was too low. Without BUDGET_S every run goes in one `dormouse ab`.
#
# What comes back: OUT/NAME.tgz, the records without checkpoints (`tar tzf` to look), step logs packed (xz) by
# tools/pack_logs.py with their SHA-256 in runs/NAME/logs.sha256.new (`land` appends them to runs/NAME/logs.sha256),
# and beside the records each command line exactly as it ran with its console: runs/NAME/ab_DATE.log (experiments),
# check/*.log, bench_NAME/run.log. Exit status 0 when everything asked for ran and passed.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY=${PYTHON:-python3}
MARGIN_S=${MARGIN_S:-15}
T0=$(date +%s)
die() { echo "gpu_run: $*" >&2; exit 2; }
usage() { sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
stamp() { date -u +%Y-%m-%dT%H-%M-%SZ; }
left() { [ -n "${BUDGET_S:-}" ] && echo $(( BUDGET_S - $(date +%s) + T0 )) || echo 0; }

land() {   # here: unpack each tarball's runs/ into the repository's runs/, refusing to overwrite a run's record
  [ $# -gt 0 ] || usage
  local t tmp d r name
  for t in "$@"; do
    [ -f "$t" ] || die "land: no such file: $t"
    tmp=$(mktemp -d); tar xzf "$t" -C "$tmp" || die "land: $t did not unpack"
    [ -d "$tmp/runs" ] || die "land: $t holds no runs/ (check and bench records are moved by hand: runs/README.md)"
    for r in "$tmp"/runs/*/*/seed*/; do
      [ -d "$r" ] || continue; r=${r#"$tmp"/}
      [ -e "$ROOT/${r}run.json" ] && die "land: $r already holds a record (records are never overwritten): move it away first"
    done
    for d in "$tmp"/runs/*/; do
      name=$(basename "$d"); mkdir -p "$ROOT/runs/$name"
      if [ -f "$d/logs.sha256.new" ]; then cat "$d/logs.sha256.new" >> "$ROOT/runs/$name/logs.sha256"; rm "$d/logs.sha256.new"; fi
      cp -a "$d". "$ROOT/runs/$name/"
      echo "landed $t into runs/$name/"
    done
    rm -rf "$tmp"
  done
}

[ $# -gt 0 ] || usage
case $1 in -h|--help) usage;; land) shift; cd "$ROOT" && land "$@"; exit;; esac
[ -n "${OUT:-}" ] || die "set OUT to the folder the records go to"
cd "$ROOT"; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
INVOKED="tools/gpu_run.sh $(printf '%q ' "$@")"; INVOKED=${INVOKED% }

# a spec that is not there is said before anything is installed
case $1 in check|bench) ;; *) s=$1; case $s in *.yaml|*.yml) ;; *) s=experiments/$s.yaml;; esac
  [ -f "$s" ] || die "no experiment spec $s";; esac

# what the copy carries (tools/gpu_kit.py, `make gpu-kit`, builds it): the wheels for this Python, then the check
if [ -f .whl/kit.txt ]; then
  want=$(sed -n 's/^python //p' .whl/kit.txt); have=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  [ "$want" = "$have" ] || die "the wheels in .whl/ are for Python $want, $PY is $have: make gpu-kit PY=$have"
fi
if ls .whl/*.whl >/dev/null 2>&1; then
  SITE=${SITE:-/tmp/site}
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" .whl/*.whl \
    || die "the wheels in .whl/ did not install"
  export PYTHONPATH=$SITE${PYTHONPATH:+:$PYTHONPATH} PATH=$SITE/bin:$PATH
fi
case $1 in check|bench) need=("$1");; *) need=(experiment "$s");; esac
PYTHONPATH=$ROOT${PYTHONPATH:+:$PYTHONPATH} "$PY" tools/gpu_kit.py --check "${need[@]}" || exit 2
for f in .deb/*.deb; do [ -f "$f" ] && { dpkg -x "$f" / || die "dpkg -x $f failed"; }; done
if ls .corpus/corpus-*.json >/dev/null 2>&1; then
  export DORMOUSE_CACHE=${DORMOUSE_CACHE:-/tmp/dormouse-cache}; mkdir -p "$DORMOUSE_CACHE/corpus"
  cp .corpus/corpus-* "$DORMOUSE_CACHE/corpus/" || die "copying .corpus/ into $DORMOUSE_CACHE/corpus failed"
fi
export PYTHONPATH=$ROOT${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1

# the code version
if [ -z "${DORMOUSE_GIT_COMMIT:-}" ] && [ -f .dormouse-commit ]; then
  c=$(tr -d '[:space:]' < .dormouse-commit)
  [[ $c =~ ^[0-9a-f]{7,40}$ ]] || die ".dormouse-commit must hold one commit hash (git rev-parse HEAD > .dormouse-commit), got '$c'"
  export DORMOUSE_GIT_COMMIT=$c
fi
COMMIT=${DORMOUSE_GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
[ "$COMMIT" = unknown ] && echo "gpu_run: no commit named (.dormouse-commit or DORMOUSE_GIT_COMMIT): the records will say so" >&2
DORMOUSE=("$PY" tests/dormouse_cli.py)
WORK=$OUT/.work-$$; mkdir -p "$WORK"
header() {   # the lines every log starts with
  echo "# $INVOKED${BUDGET_S:+   (BUDGET_S=$BUDGET_S)}"
  echo "# commit $COMMIT; $(date -u +%Y-%m-%dT%H:%M:%SZ); $(hostname)"
  command -v nvidia-smi >/dev/null && echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | paste -sd ';')"
}
logged() {   # logged LOG CMD...: CMD under the time left (if BUDGET_S), its command line and output in LOG; its exit status
  local log=$1 t=$(left) t0 rc; shift
  local cmd=("$@"); [ -n "${BUDGET_S:-}" ] && cmd=(timeout "$t" "$@")
  local line; line=$(printf '%q ' "${cmd[@]}"); { header; echo "\$ ${line% }"; } > "$log"
  t0=$(date +%s); "${cmd[@]}" >> "$log" 2>&1; rc=$?
  echo "# rc=$rc in $(( $(date +%s) - t0 )) s" >> "$log"
  return $rc
}
pack() {   # pack NAME DIR...: OUT/NAME.tgz of DIR... under WORK, never checkpoints
  (cd "$WORK" && tar czf "$OUT/$1.tgz" --exclude=ckpt --exclude=.lock "${@:2}") && rm -rf "$WORK" && echo "records: $OUT/$1.tgz"
}

case $1 in
check)
  shift; mkdir -p "$WORK/check"; fail=0
  step() {   # step LOG CMD...: one check, skipped when the budget has no time left for it
    if [ -n "${BUDGET_S:-}" ] && [ "$(left)" -lt "$MARGIN_S" ]; then echo "skipped: $(left) s left" > "$WORK/check/$1"; echo "$1 skipped"; fail=1; return; fi
    local log=$1 rc; shift; logged "$WORK/check/$log" "$@"; rc=$?
    echo "$log rc=$rc: $(tail -n 2 "$WORK/check/$log" | head -n 1)"; [ $rc = 0 ] || fail=1
  }
  step check.log "${DORMOUSE[@]}" check --out "$WORK/check"
  step test_cuda.log env DORMOUSE_TEST_DEVICE=cuda "$PY" -m pytest -q tests/test_prefetch.py tests/test_engram_resume.py
  step nb_gpu.log nbdev-test --flags gpu --do-print --n-workers 1 ${CHAPTERS:+--file-re "$CHAPTERS"}
  pack check check; exit $fail;;
bench)
  [ $# -ge 2 ] || usage; name=$2; shift 2; mkdir -p "$WORK/bench_$name"
  logged "$WORK/bench_$name/run.log" "${DORMOUSE[@]}" bench "$name" --out "$WORK/bench_$name" "$@"; rc=$?
  tail -n 5 "$WORK/bench_$name/run.log"; pack "bench_$name" "bench_$name"; exit $rc;;
esac

# an experiment
spec=$1; shift
case $spec in *.yaml|*.yml) ;; *) spec=experiments/$spec.yaml;; esac
[ -f "$spec" ] || die "no experiment spec $spec"
info=$("$PY" -c "import sys; from dormouse.spec import load_spec; s = load_spec(sys.argv[1])
print(s.name, s.parallel, max(s.nproc.values(), default=1), *[f'{a}/{x}' for a in s.arms for x in s.seeds])" "$spec") \
  || die "$spec did not load"
read -r name parallel nproc all <<< "$info"
units=("$@"); [ ${#units[@]} -gt 0 ] || read -r -a units <<< "$all"
ranks=()
if [ "$nproc" -gt 1 ]; then   # a run on N torchrun ranks takes GPUs 0..N-1 itself: one run at a time, no GPUS
  [ -n "${GPUS:-}" ] && die "GPUS=$GPUS gives each run one GPU, and $spec runs on nproc=$nproc ranks: leave GPUS out"
  ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  [ "$ngpu" -gt 0 ] && [ "$ngpu" -lt "$nproc" ] && die "$spec runs on nproc=$nproc ranks, one GPU each; this machine has $ngpu"
  parallel=1; ranks=(--parallel 1)
  echo "gpu_run: $spec runs on up to $nproc torchrun ranks a run (${ngpu:-0} GPUs here), one run at a time"
fi
per=${PER_BATCH:-$parallel}; [ -z "${BUDGET_S:-}" ] && per=${#units[@]}
exp=$WORK/runs/$name; mkdir -p "$exp"; longest=${GUESS_S:-0}; fail=0; i=0
while [ $i -lt ${#units[@]} ]; do
  batch=("${units[@]:i:per}"); i=$(( i + per ))
  if [ -n "${BUDGET_S:-}" ] && [ "$(left)" -lt $(( longest + MARGIN_S )) ]; then
    echo "skipped ${batch[*]}: $(left) s left, the longest batch took ${longest} s"; fail=1; continue; fi
  only=(); [ $# -gt 0 ] || [ -n "${BUDGET_S:-}" ] && for r in "${batch[@]}"; do only+=(--only "$r"); done
  log=$exp/ab_$(stamp).log; t=$(date +%s)
  logged "$log" "${DORMOUSE[@]}" ab "$spec" ${only[@]+"${only[@]}"} --engine papermill --no-checkpoints \
    ${GPUS:+--gpus "$GPUS"} ${ranks[@]+"${ranks[@]}"} --runs-dir "$WORK/runs" --no-report --no-progress; rc=$?
  took=$(( $(date +%s) - t )); [ $took -gt "$longest" ] && longest=$took
  echo "${batch[*]}: rc=$rc in ${took} s"; tail -n $(( ${#batch[@]} + 2 )) "$log" | head -n -1; [ $rc = 0 ] || fail=1
  sleep 1   # one log name per second
done
"$PY" tools/pack_logs.py "$exp" && { [ -f "$exp/logs.sha256" ] && mv "$exp/logs.sha256" "$exp/logs.sha256.new"; true; }
pack "$name" runs
exit $fail
