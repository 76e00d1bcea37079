#!/usr/bin/env bash
# conv-relu and conv-add-relu export back to plain ONNX ops: the fused model written with -o
# passes ONNX's checker, reads back as the same Conv/Add/Relu pattern as the conv-bn-only model
# (fusing it again fuses as many), and computes what the original computes.
#   fused_export.sh FXC
set -u
fxc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for model in resnet18_narrow squeezenet1_1_narrow; do
  src=testdata/models/$model.onnx
  "$fxc" fuse -q "$src" --pass conv-bn -o "$work/bn.onnx" || fail "$model: conv-bn"
  "$fxc" fuse -q "$src" --pass conv-bn --pass conv-add-relu --pass conv-relu --verify --check \
    -o "$work/fused.onnx" || fail "$model: fusing"
  # The exported fused model fuses again exactly as the conv-bn-only export does.
  "$fxc" fuse "$work/bn.onnx" --pass conv-add-relu --pass conv-relu 2>"$work/bn.txt" >/dev/null ||
    fail "$model: fusing the conv-bn export"
  "$fxc" fuse "$work/fused.onnx" --pass conv-add-relu --pass conv-relu 2>"$work/again.txt" \
    >/dev/null || fail "$model: fusing the fused export"
  grep -q "fused" "$work/bn.txt" || fail "$model: nothing fused: $(cat "$work/bn.txt")"
  cmp -s "$work/bn.txt" "$work/again.txt" ||
    fail "$model: the round trip changed what fuses: $(cat "$work/bn.txt" "$work/again.txt")"
  "$fxc" run "$src" >"$work/a.txt" || fail "$model: run original"
  "$fxc" run "$work/fused.onnx" >"$work/b.txt" || fail "$model: run fused"
  paste "$work/a.txt" "$work/b.txt" | awk '{
    for (i = 1; i <= NF; i++) if ($i == "mean") { if (!m) m = $(i + 1); else n = $(i + 1) }
    d = m - n; if (d < 0) d = -d; exit !(d < 1e-5) }' || fail "$model: outputs differ: $(cat "$work/a.txt" "$work/b.txt")"
done
echo ok
