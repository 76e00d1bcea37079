#!/usr/bin/env bash
# Configures and builds fxc with Ninja (and ccache when present).
#   scripts/build.sh [BUILD_DIR] [CMAKE_ARGS...]     default: build/, Release
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
ninja -C "$dir" -j "${FXC_JOBS:-2}" >/dev/null
