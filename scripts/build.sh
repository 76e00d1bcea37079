#!/usr/bin/env bash
# Configures and builds fxc with Ninja (and ccache when present); quiet unless it fails.
#   scripts/build.sh [BUILD_DIR] [CMAKE_ARGS...]     default: build/, Release
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >"$log" 2>&1 ||
   ! ninja -C "$dir" -j "${FXC_JOBS:-2}" >"$log" 2>&1; then
  tail -n 60 "$log" >&2
  echo "build failed in $dir" >&2
  exit 1
fi
