# Source this on an offline GPU box that has torch but no nbdev/papermill and no corpus package:
# installs wheels carried in .whl/ into /tmp/site and unpacks a carried dict-gcide .deb from .deb/.
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    && export PYTHONPATH=/tmp/site:$PWD${PYTHONPATH:+:$PYTHONPATH} && export PATH=/tmp/site/bin:$PATH
fi
[ -f /usr/share/dictd/gcide.dict.dz ] || { ls .deb/dict-gcide_*.deb >/dev/null 2>&1 && dpkg -x .deb/dict-gcide_*.deb /; }
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
