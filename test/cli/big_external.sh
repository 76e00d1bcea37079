#!/usr/bin/env bash
# A model past protobuf's 2 GB limit (a 2.3 GB weight as external data, made sparse so that the
# test writes little of it): fuse → export --check writes every tensor once (the model file small,
# the weights in OUT.onnx.data), ONNX's own checker accepts the files, and fxc reads them back.
#   big_external.sh FXC MAKE_SYNTHETIC
set -u
fxc=$1
make=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
bytes=2300000000
"$make" big $bytes "$work/big.onnx" || fail "cannot make the model"
"$fxc" fuse -q "$work/big.onnx" --pass identity -o "$work/out.onnx" --check 2>"$work/err" ||
  fail "fuse -o --check failed: $(cat "$work/err")"
model_size=$(stat -c %s "$work/out.onnx")
data_size=$(stat -c %s "$work/out.onnx.data")
[ "$model_size" -lt 65536 ] || fail "the model file holds the weights too ($model_size bytes)"
[ "$data_size" -ge $bytes ] && [ "$data_size" -lt $((bytes + 4096)) ] ||
  fail "the data file is $data_size bytes, the weights $bytes"
"$fxc" trace "$work/out.onnx" --code | grep -q "onnx.Shape\|torch.Tensor.size\|shape" ||
  fail "the written model does not trace: $("$fxc" trace "$work/out.onnx" --code 2>&1)"
echo ok
