# Sourced by the GPU scripts: `fetch_wheels SCRIPT WHEEL...` downloads the pinned wheels a GPU
# box lacks (Python 3.12, x86_64 manylinux) into .whl/ (kept out of git), then says how to go on.
fetch_wheels() {
  local script="$1"
  shift
  local PIP="${PYTHON:-python3} -m pip"
  local exclude
  exclude="$(git rev-parse --git-path info/exclude)"
  grep -qx '/.whl/' "$exclude" 2>/dev/null || echo '/.whl/' >>"$exclude"
  mkdir -p .whl
  $PIP download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
    --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    --platform manylinux1_x86_64 -d .whl "$@"
  du -sh .whl
  echo "carry .whl to the GPU box and run: bash $script"
}
