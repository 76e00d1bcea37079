#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: once in Release, once under
# AddressSanitizer and UndefinedBehaviorSanitizer. Non-zero on any failure. A test that runs past
# 20 minutes fails (a test that starts fxc once per model pays about 0.4 s a start under ASan on
# these machines: such loops over ONNX's 1,072 test models run in one process instead, in the unit
# tests): a hang names itself instead of stopping CI at its limit.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
echo "== build (Release, -Werror)" >&2
./scripts/build.sh build -DFXC_WERROR=ON
(cd build && ctest -j2 --output-on-failure --timeout 1200)
if [ "${FXC_SKIP_SANITIZERS:-0}" != 1 ]; then
  echo "== build (ASan + UBSan)" >&2
  ./scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFXC_SANITIZE=ON -DFXC_WERROR=ON
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1:protect_shadow_gap=0 UBSAN_OPTIONS=print_stacktrace=1 ctest -j2 --output-on-failure --timeout 1200)
fi
