#!/usr/bin/env bash
# fxc's main job on a bundled model: trace torchvision's resnet18 (exported by torch.onnx, at a
# sixteenth of its width so that it fits in the repository) and show it as torch.fx would.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh build
model=testdata/models/resnet18_narrow.onnx
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }
step ./build/fxc trace "$model" --print-tabular
step ./build/fxc trace "$model" --code
step ./build/fxc lint "$model" testdata/models/mobilenet_v2_narrow.onnx
