#!/usr/bin/env bash
# The working tree without the records a GPU machine does not need, for as long as a copy of it is sent there:
#
#   bash tools/slim_tree.sh on [EXPERIMENT...]   runs/ leaves the working tree, except runs/EXPERIMENT/ for each one named
#   bash tools/slim_tree.sh off                  every record back (git sparse-checkout disable)
#
# Nothing is deleted from git: `on` is `git sparse-checkout set --no-cone` with the patterns "everything but runs/,
# plus runs/EXPERIMENT/", so the files of the other records only leave the working tree, and `off` checks them out
# again. `git status` stays clean in between. `on` refuses while runs/ holds changes or untracked files (sparse
# checkout would leave them where they are, and they would travel). It changes the working tree for everyone who
# works in it: use it in a clone of your own.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
case ${1:-} in
on)
  shift
  for e in "$@"; do [ -d "runs/$e" ] || git ls-files --error-unmatch "runs/$e" >/dev/null 2>&1 \
    || { echo "slim_tree: no record runs/$e" >&2; exit 2; }; done
  if [ -n "$(git status --porcelain -- runs)" ]; then
    echo "slim_tree: runs/ holds changes or untracked files; commit or move them first:" >&2
    git status --short -- runs | head -n 10 >&2; exit 2
  fi
  patterns=('/*' '!/runs/'); for e in "$@"; do patterns+=("/runs/$e/"); done
  git sparse-checkout set --no-cone "${patterns[@]}"
  echo "slim_tree: runs/ holds $( (cd runs 2>/dev/null && ls -A) | tr '\n' ' ')(tools/slim_tree.sh off restores the rest)";;
off)
  git sparse-checkout disable
  echo "slim_tree: every record is back";;
*)
  sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2;;
esac
