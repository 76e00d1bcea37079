#!/usr/bin/env bash
# Installs what fxc needs to build and test, from Debian's packages; only what is missing.
set -euo pipefail
packages=(
  g++ cmake ninja-build ccache
  libonnx-dev libprotobuf-dev protobuf-compiler
  libcli11-dev nlohmann-json3-dev libspdlog-dev doctest-dev
  libdnnl-dev  # oneDNN: the fast CPU kernels
  libonnx-testdata  # ONNX's backend test models, traced by the tests
)
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
