#!/usr/bin/env bash
# Installs what fxc needs, from Debian's packages; only what is missing.
#   scripts/setup.sh              what the build, the demo and the tests need
#   scripts/setup.sh torch        + PyTorch, torchvision and ONNX for Python (model export, fidelity)
#   scripts/setup.sh node         + Node.js and npm (ONNX Runtime, npm onnxruntime-node, as a baseline)
#   scripts/setup.sh python       + Python 3 alone (the fuzzer, JSON in the benchmark scripts)
#   scripts/setup.sh images       + scikit-image's photographs and Pillow (natural-image inputs)
#   scripts/setup.sh fuzz         + clang and libFuzzer (scripts/fuzz.sh)
# The scripts that need an extra group call this themselves.
set -euo pipefail
packages=(
  g++ cmake ninja-build ccache
  libonnx-dev libprotobuf-dev protobuf-compiler
  libcli11-dev nlohmann-json3-dev libspdlog-dev doctest-dev
  libdnnl-dev  # oneDNN: the fast CPU kernels (found without its CMake config: no OpenCL needed)
  libonnx-testdata  # ONNX's backend test models, traced by the tests
  graphviz  # dot: `--svg` draws graphs (optional for fxc itself; the tests render the demo model)
)
for group in "$@"; do
  case "$group" in
    torch) packages+=(python3 python3-numpy python3-torch python3-torchvision python3-onnx) ;;
    node) command -v npm >/dev/null || packages+=(nodejs npm) ;;  # or a node with its own npm
    python) packages+=(python3) ;;
    images) packages+=(python3 python3-numpy python3-pil python3-skimage) ;;
    fuzz) packages+=(clang libclang-rt-14-dev) ;;
    *) echo "setup: unknown group '$group' (torch, node, python, images, fuzz)" >&2; exit 2 ;;
  esac
done
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "setup: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
