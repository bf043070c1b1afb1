#!/usr/bin/env bash
# Brings a fresh machine to a working state: the Debian corpus package, a .venv with torch,
# the pinned dependencies and the package itself (editable, with its dev extras).
# Called by `make` before anything else; cheap when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
PY=${PYTHON:-python3}

as_root() { [ "$(id -u)" = 0 ]; }
apt_install() {  # apt_install PKG...: install Debian packages when root, else say what is missing
  if as_root && command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "$@" >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q "$@" >/dev/null; }
  else
    echo "bootstrap: please install the Debian package(s) $* (needs root)" >&2
  fi
}

# The default corpus: Debian's dict-gcide (/usr/share/dictd/gcide.dict.dz).
[ -f /usr/share/dictd/gcide.dict.dz ] || { echo "bootstrap: installing dict-gcide (the default corpus)"; apt_install dict-gcide; }
# The experiments' out-of-domain text: Debian's fortunes (/usr/share/games/fortunes/computers).
# Only the experiments that name it need it (they stop with the package's name when it is missing), so a failed
# install does not stop `make`.
[ -f /usr/share/games/fortunes/computers ] || { echo "bootstrap: installing fortunes (the experiments' out-of-domain text)"
  apt_install fortunes || echo "bootstrap: could not install fortunes; experiments with an 'ood' file will ask for it" >&2; }
# The docs browser test needs Chromium; only `make test-slow`/`make docs-check` ask for it (`make test` leaves that test out).
if [ "${WITH_CHROMIUM:-0}" = 1 ] && ! [ -x /usr/bin/chromium ]; then
  echo "bootstrap: installing chromium + chromium-driver (docs browser test)"; apt_install chromium chromium-driver
fi

# The stamp holds a hash of what was installed from: content, not mtimes (nbdev-export rewrites
# pyproject.toml unchanged, which must not trigger a reinstall).
stamp="$VENV/.installed"
want=$(cat pyproject.toml requirements.lock | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi

if ! [ -x "$VENV/bin/python" ]; then
  # A CUDA torch already importable (a GPU box) is reused; otherwise the CPU build is pinned.
  if "$PY" -c 'import torch,sys; sys.exit(0 if torch.version.cuda else 1)' 2>/dev/null; then
    echo "bootstrap: reusing the CUDA torch of $PY"; "$PY" -m venv --system-site-packages "$VENV"
  else
    "$PY" -m venv "$VENV"
  fi
fi
P="$VENV/bin/python"
"$P" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
if ! "$P" -c 'import torch' 2>/dev/null; then
  echo "bootstrap: installing torch==2.13.0 (CPU build)"; "$P" -m pip install -q --no-compile torch==2.13.0
fi
echo "bootstrap: installing dormouse and its pinned dependencies into $VENV"
"$P" -m pip install -q --no-compile -c requirements.lock -e ".[dev]"
# pip compiles the bytecode file by file; compileall does it on every core (about half the time on 2 cores). It must be
# done here: where PYTHONDONTWRITEBYTECODE is set, no import would write it later.
"$P" -m compileall -q -j 0 "$("$P" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" >/dev/null 2>&1 || true
echo "$want" > "$stamp"
