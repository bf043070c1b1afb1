#!/usr/bin/env bash
# `make test`: the README's test command, timed from its first line to its last (the bootstrap included).
#   tools/test.sh          everything but the slow tests (CI runs this)
#   tools/test.sh slow     what `make test` leaves out: the notebooks with their `#| slow` cells, pytest's `slow` tests
#                          (the docs site in Chromium among them)
# One OpenMP thread per process unless OMP_NUM_THREADS is set: two notebooks and two pytest workers at once on a
# 2-core box are much faster with one thread each than with two fighting.
set -uo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
BIN=${VENV:-.venv}/bin
WORKERS=${TEST_WORKERS:-2}
step() { local t=$(date +%s) rc; echo "== $*"; "$@"; rc=$?; echo "   ($(( $(date +%s) - t )) s)"; return $rc; }
run() {
  step bash tools/bootstrap.sh || return
  if [ "${1:-}" = slow ]; then
    step "$BIN/nbdev-test" --flags slow --n-workers "$WORKERS" --timing || return
    WITH_CHROMIUM=1 step bash tools/bootstrap.sh || return
    step "$BIN/python" -m pytest -q -m slow -n "$WORKERS" --dist loadfile tests
  else
    step bash tools/check_export.sh || return
    step "$BIN/python" tools/readme.py --check || return
    # every chapter once, as nbdev-test runs it, kept for the site `make docs`/the browser test build (dormouse docs --run-only);
    # nbdev-test itself for the papermill templates, which are not chapters
    step "$BIN/dormouse" docs --run-only || return
    step "$BIN/nbdev-test" --n-workers "$WORKERS" --timing --file-re '^(arm|report)\.ipynb$' || return
    step "$BIN/python" -m pytest -q -m "not slow" -n "$WORKERS" --dist loadfile --durations=12 tests
  fi
}
run "$@"; rc=$?
s=$(( $(date +%s) - t0 ))
echo "make test${1:+-$1}: exit $rc after $((s / 60)) min $((s % 60)) s"
exit $rc
