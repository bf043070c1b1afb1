# Source this on an offline GPU box that has torch but no nbdev/papermill and no corpus package:
# installs wheels carried in .whl/ into /tmp/site
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    && export PYTHONPATH=/tmp/site:$PWD${PYTHONPATH:+:$PYTHONPATH} && export PATH=/tmp/site/bin:$PATH
fi
# and unpacks each carried .deb from .deb/ (dict-gcide, the corpus; fortunes, the experiments' out-of-domain text).
for f in .deb/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
