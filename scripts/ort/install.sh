#!/usr/bin/env bash
# ONNX Runtime's CPU library for the benchmarks: npm's onnxruntime-node (no install scripts),
# installed once into DIR (default build/ort); the scripts run scripts/ort/*.js with
# NODE_PATH=DIR/node_modules.
#   scripts/ort/install.sh [DIR]
set -euo pipefail
dir=${1:-build/ort}
if [ ! -d "$dir/node_modules/onnxruntime-node" ]; then
  mkdir -p "$dir"
  (cd "$dir" && npm install --silent --ignore-scripts onnxruntime-node >/dev/null)
fi
