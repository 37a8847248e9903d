#!/usr/bin/env bash
# rlvr GRPO against TRL's GRPOTrainer on one CUDA GPU (bench/gpu_vs_trl.py), in one command.
#
# Two steps, because a GPU box may have no package index:
#   bash bench/gpu_vs_trl.sh fetch     # where pip reaches PyPI: wheels the GPU box lacks -> .whl/
#   bash bench/gpu_vs_trl.sh [ARGS]    # on the GPU box, with .whl/ beside the tree: installs what
#                                      # is missing from .whl/, runs bench/gpu_vs_trl.py ARGS
#   bash bench/gpu_vs_trl.sh sampler [ARGS]   # the same set-up, then bench/sampler_vs_generate.py
#                                      # (rlvr's sampler against plain generate; about 3 minutes)
# Default ARGS: the 0.5B shape, rlvr, TRL and rlvr with async_sampling, 6 steps each (about 5
# minutes on an H200, under 8 with the installs). rlvr runs from this tree (PYTHONPATH).
# Results: $OUT/gpu_vs_trl.json and .log when $OUT is set, else runs/gpu_vs_trl/.
#
# The GPU box is expected to hold Python 3.12 with CUDA torch, transformers and accelerate; the
# wheels add TRL and its datasets stack, and rlvr's pydantic and jsonschema.
set -euo pipefail
cd "$(dirname "$0")/.."

WHEELS=(
  trl==1.16.0 datasets==5.2.0 dill==0.4.1 multiprocess==0.70.19 pyarrow==25.0.1
  fsspec==2026.9.0 pydantic==2.14.4 pydantic_core==2.50.5 annotated-types==0.8.0
  typing-inspection==0.4.5 typing-extensions==4.16.0 jsonschema==4.26.0
  jsonschema-specifications==2025.9.1 referencing==0.37.0 rpds-py==2026.9.1
)

if [ "${1:-}" = fetch ]; then
  . bench/fetch_wheels.sh  # the script runs from the repository root (cd above)
  fetch_wheels bench/gpu_vs_trl.sh "${WHEELS[@]}"
  exit 0
fi

export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONUNBUFFERED=1
PY="${PYTHON:-python3}"
"$PY" -c "import torch; assert torch.cuda.is_available()" ||
  { echo "error: $PY has no torch with CUDA (fix: set PYTHON)"; exit 1; }
if ! "$PY" -c "import trl, pydantic, jsonschema" 2>/dev/null; then
  [ -d .whl ] || { echo "error: TRL or pydantic missing and no .whl/ here (fix: run 'bash bench/gpu_vs_trl.sh fetch' where pip works, carry .whl)"; exit 1; }
  # pip keeps what the box already satisfies and takes the rest from .whl/ alone
  "$PY" -m pip install -q --no-index --find-links .whl trl==1.16.0 "pydantic>=2.6" "jsonschema>=4.21" ||
    { "$PY" -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl &&
      export PYTHONPATH="$PYTHONPATH:/tmp/site"; }
fi
"$PY" -c "import torch, transformers, trl, accelerate; print('torch', torch.__version__, '| transformers', transformers.__version__, '| trl', trl.__version__, '| accelerate', accelerate.__version__)"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true

dest="${OUT:-runs/gpu_vs_trl}"
mkdir -p "$dest"
if [ "${1:-}" = sampler ]; then
  shift
  set -o pipefail
  timeout 460 "$PY" bench/sampler_vs_generate.py "$@" 2>&1 | tee "$dest/sampler_vs_generate.log"
  exit
fi
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--sides rlvr,trl,rlvr-async --child-timeout 200)
set -o pipefail
timeout 460 "$PY" bench/gpu_vs_trl.py --out "$dest/gpu_vs_trl.json" "${args[@]}" 2>&1 |
  tee "$dest/gpu_vs_trl.log"
