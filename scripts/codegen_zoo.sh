#!/usr/bin/env bash
# On demand (needs Debian's torch and the zoo from scripts/zoo.py): fxc codegen on every zoo
# model, each generated module run by PyTorch against fxc run (test/cli/codegen_torch.sh).
#   scripts/codegen_zoo.sh [ZOO_DIR]     default: build/zoo
set -u
cd "$(dirname "$0")/.."
zoo=${1:-build/zoo}
exec test/cli/codegen_torch.sh build/fxc \
  "$zoo"/*.onnx
