#!/usr/bin/env bash
# The module must be exactly what the notebooks export: export afresh, fail on any difference.
set -euo pipefail
cd "$(dirname "$0")/.."
before=$(find dormouse -name '*.py' -type f | sort | xargs sha256sum)
.venv/bin/nbdev-export
after=$(find dormouse -name '*.py' -type f | sort | xargs sha256sum)
if [ "$before" != "$after" ]; then
  echo "check_export: dormouse/ differed from what nbs/ exports (now re-exported):" >&2
  diff <(echo "$before") <(echo "$after") >&2 || true
  echo "Edit the notebook, run nbdev-export, commit both." >&2
  exit 1
fi
echo "check_export: dormouse/ is what nbs/ exports"
