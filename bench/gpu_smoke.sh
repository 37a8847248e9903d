#!/usr/bin/env bash
# GPU smoke test for the built-in GRPO learner: a few steps on a Qwen2-0.5B-sized model with
# random weights (no download), bf16 autocast, on one CUDA GPU. Prints tokens/s, seconds per
# step and peak memory. Budget: under 8 minutes including a venv install when one is needed.
#
#   bash bench/gpu_smoke.sh              # defaults: 4 steps, G=8, 8 prompts, 256 new tokens
#   bash bench/gpu_smoke.sh --steps 3    # any bench/gpu_smoke.py option
#
# Python: $PYTHON if set; else python3 when it already has torch with CUDA; else .venv-gpu/,
# created with pip (needs a package index; torch must be a CUDA build).
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false

has_cuda_torch() { "$1" -c "import torch, transformers, pydantic, sympy; assert torch.cuda.is_available()" 2>/dev/null; }

PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  if has_cuda_torch python3; then
    PY=python3
  else
    if [ ! -x .venv-gpu/bin/python ]; then
      python3 -m venv .venv-gpu
      .venv-gpu/bin/pip install -q --upgrade pip
      .venv-gpu/bin/pip install -q torch "transformers>=4.51" tokenizers safetensors \
        "pydantic>=2.6" typer rich sympy jsonschema matplotlib
    fi
    PY=.venv-gpu/bin/python
  fi
fi
has_cuda_torch "$PY" || { echo "error: $PY has no torch with CUDA (fix: set PYTHON)"; exit 1; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
timeout 420 "$PY" bench/gpu_smoke.py "$@"
