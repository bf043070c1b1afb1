# The two commands a newcomer needs: `make demo` and `make test`. Each bootstraps a .venv first.
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
export PYTHONUNBUFFERED := 1
# numba's and torch's OpenMP pools spin against each other unless idle threads sleep
export OMP_WAIT_POLICY ?= PASSIVE
# No global OMP_NUM_THREADS: `make demo`'s `dormouse ab` splits the cores between its parallel arms
# itself (an OMP_NUM_THREADS in the environment wins). Only `make test` pins one thread per process.

.PHONY: setup demo test test-slow test-gpu export lab docs docs-check corpus-linux gpu-kit

setup:
	@bash tools/bootstrap.sh

# The main job on the embedded default (the GCIDE dictionary corpus).
demo: setup
	$(BIN)/dormouse demo

# The code corpus, only when asked (`make demo` stays on GCIDE): Debian's linux-source-6.12 (an apt download of
# about 150 MB) as root, then its text files in a seeded order, capped, into the corpus cache (the data chapter).
corpus-linux: setup
	@[ -f /usr/src/linux-source-6.12.tar.xz ] || { [ "$$(id -u)" = 0 ] || { echo "corpus-linux: as root, or apt-get install linux-source-6.12 first" >&2; exit 1; }; \
	  export DEBIAN_FRONTEND=noninteractive; apt-get install -y -q linux-source-6.12 >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q linux-source-6.12 >/dev/null; }; }
	$(BIN)/dormouse corpus --source linux

# The kit a GPU machine without internet needs beside the tree (tools/gpu_kit.py): .whl/ .deb/ .corpus/
# .dormouse-commit for the experiments or presets in FOR (default every one), the machine's Python in PY and its wheel
# platforms in PLATFORMS (default 3.12, manylinux x86_64), the packages it has in HAVE (comma-separated); it refuses a
# tree + kit past LIMIT_MIB (64). Needs the network (pip download, apt-get download).
gpu-kit: setup
	$(BIN)/python tools/gpu_kit.py $(FOR) $(if $(PY),--python $(PY)) $(foreach p,$(PLATFORMS),--platform $(p)) \
	  $(if $(HAVE),--have $(HAVE)) $(if $(LIMIT_MIB),--limit-mib $(LIMIT_MIB))

# The module is what the notebooks export; the notebooks' tests; then pytest, two workers, the slow tests left
# out; its wall time, bootstrap included, printed last (tools/test.sh says how).
test:
	@bash tools/test.sh

# What `make test` leaves out: the notebooks' `#| slow` cells and pytest's `slow` tests.
test-slow:
	@bash tools/test.sh slow

# GPU and slow cells too (run this on the GPU machine).
test-gpu: setup
	$(BIN)/nbdev-test --flags "gpu slow" --n-workers 1

export: setup
	$(BIN)/nbdev-export && $(BIN)/nbdev-clean && $(BIN)/python tools/readme.py

# JupyterLab on nbs/, bound to localhost, token on (it prints the URL with the token).
lab: setup
	$(BIN)/jupyter lab --no-browser --ip=127.0.0.1 --port=$${LAB_PORT:-8888} --notebook-dir=nbs $$( [ "$$(id -u)" = 0 ] && echo --allow-root ) --ServerApp.token=$${JUPYTER_TOKEN:-$$(python3 -c 'import secrets;print(secrets.token_hex(16))')}

# The docs site, offline, into _docs/ (see the README for the Quarto build).
docs: setup
	$(BIN)/nbdev-export && $(BIN)/dormouse docs

# The docs site in headless Chromium: links, images, screenshots under runs/docs/screenshots.
docs-check: setup
	WITH_CHROMIUM=1 bash tools/bootstrap.sh && DOCS_SCREENSHOTS=runs/docs/screenshots $(BIN)/python -m pytest -q -s tests/test_docs_browser.py
