#!/usr/bin/env bash
# Run every page's code blocks on this machine's GPU and write its verification record,
# verification/<machine-class>-<fingerprint>.json (for example rocm-gfx1102-1a2b3c4d.json), the file
# `ruota-docs contribute` sends.
#
#   scripts/run_on_gpu.sh [PYTEST ARGS…]
#
# PYTHON   interpreter with a GPU build of torch (default: .venv/bin/python, else python3)
# INSTALL  0 to skip `pip install -e .[snippets]` (offline machines that already have the packages)
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_MKDOCS_2_WARNING=1 KERAS_BACKEND=torch PYTHONUNBUFFERED=1
PY=${PYTHON:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 )}

if ! "$PY" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
  echo "run_on_gpu: $PY has no torch that sees a GPU." >&2
  echo "  Install the ROCm (or CUDA) build of torch for your card first; see README.md." >&2
  exit 2
fi
if [ "${INSTALL:-1}" != 0 ]; then
  "$PY" -m pip install -q -e ".[snippets]"
  scripts/ensure-bwrap  # the pages' sandbox, with the GPU's device nodes bound in
fi
# the record's path as the run names it (ruota_docs.run.settings.Settings.record_path)
RECORD=$("$PY" -c 'from ruota_docs.run.device import probe; from ruota_docs.run.settings import from_environment
import os; print(os.path.relpath(from_environment().record_path(probe().machine_id)))')
"$PY" - "$RECORD" <<'PY'
import sys
from ruota_docs.run.device import probe
d = probe()
print(f"run_on_gpu: {d.describe()} ({d.arch}), torch {d.torch}; record: {sys.argv[1]}", flush=True)
PY
status=0
"$PY" -m pytest docs -p no:cacheprovider -q -rs "$@" || status=$?
"$PY" -m ruota_docs.cli status || true
# what CI will say of the record before it is accepted
"$PY" -m ruota_docs.cli record check "$RECORD" || status=1
exit $status
