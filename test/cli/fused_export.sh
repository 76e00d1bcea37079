#!/usr/bin/env bash
# conv-relu, conv-add-relu, conv-act and bn-relu export back to plain ONNX ops: the fused model
# written with -o passes ONNX's checker, reads back as the same Conv/Add/Relu/activation pattern
# as the conv-bn-only model (fusing it again fuses as many), and computes what the original
# computes. The MobileNets' ReLU6 (Clip with constant bounds; read back as torch.clamp) and
# Hardswish (HardSigmoid · x at opset 13) go through conv-act; DenseNet's BatchNorm → ReLU on
# each concatenation through bn-relu. Then linear-act on the transformer layers (Linear → ReLU;
# linear-bias first: their attention's in_proj, MatMul then Add of the bias) and on an MLP of
# Linear → GELU/ReLU (written back as MatMul, Add and the activation's ops: GELU's erf formula),
# the same checks.
#   fused_export.sh FXC NPY_COMPARE
set -u
fxc=$1
compare=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
passes="--pass conv-add-relu --pass conv-relu --pass conv-act --pass bn-relu"
for model in resnet18_narrow squeezenet1_1_narrow mobilenet_v2_narrow mobilenet_v3_small_narrow \
  densenet_tiny; do
  src=testdata/models/$model.onnx
  "$fxc" fuse -q "$src" --pass conv-bn -o "$work/bn.onnx" || fail "$model: conv-bn"
  "$fxc" fuse -q "$src" --pass conv-bn $passes --verify --check -o "$work/fused.onnx" ||
    fail "$model: fusing"
  # The exported fused model fuses again exactly as the conv-bn-only export does, and each
  # fusion of the read-back ops (torch.clamp, HardSigmoid · x, ...) computes what they did.
  "$fxc" fuse "$work/bn.onnx" $passes --verify 2>"$work/bn.txt" >/dev/null ||
    fail "$model: fusing the conv-bn export"
  "$fxc" fuse "$work/fused.onnx" $passes --verify 2>"$work/again.txt" >/dev/null ||
    fail "$model: fusing the fused export"
  grep -q "fused" "$work/bn.txt" || fail "$model: nothing fused: $(cat "$work/bn.txt")"
  [ $model != densenet_tiny ] || grep -q "bn-relu: fused" "$work/bn.txt" ||
    fail "$model: bn-relu fused nothing: $(cat "$work/bn.txt")"
  # Not for mobilenet_v3: at its opset (13) a Hardswish is written as HardSigmoid · x, ops that
  # are a Hardswish module only inside the module scope the export's node names no longer give.
  [ $model = mobilenet_v3_small_narrow ] ||
    cmp -s <(grep -v verify "$work/bn.txt") <(grep -v verify "$work/again.txt") ||
    fail "$model: the round trip changed what fuses: $(cat "$work/bn.txt" "$work/again.txt")"
  # The written fused model against the original as written (op by op, reference kernels).
  rm -rf "$work/a" "$work/b"
  "$fxc" run -q "$src" --no-recognize --backend reference --output-dir "$work/a" >/dev/null ||
    fail "$model: run original"
  "$fxc" run -q "$work/fused.onnx" --output-dir "$work/b" >/dev/null || fail "$model: run fused"
  "$compare" "$work/b/output.npy" "$work/a/output.npy" 1e-5 1e-4 >"$work/cmp.txt" ||
    fail "$model: the fused export computes another function: $(cat "$work/cmp.txt")"
done
for model in activation_mlp activation_mlp_folded transformer_encoder_layer \
  transformer_encoder_layer_unfolded transformer_decoder_layer; do
  src=testdata/models/$model.onnx
  "$fxc" fuse "$src" --pass simplify --pass linear-bias --pass linear-act --verify --check \
    -o "$work/fused.onnx" 2>"$work/fuse.txt" >/dev/null || fail "$model: fusing: $(cat "$work/fuse.txt")"
  grep -q "linear-act: fused" "$work/fuse.txt" || fail "$model: nothing fused: $(cat "$work/fuse.txt")"
  # MultiheadAttention's in_proj (MatMul, then Add of the bias): once per attention block.
  case $model in
    transformer_encoder_layer) want="linear-bias: fused 1" ;;
    transformer_decoder_layer) want="linear-bias: fused 3" ;;
    *) want="linear-bias: nothing matched" ;;
  esac
  grep -q "$want" "$work/fuse.txt" || fail "$model: expected '$want': $(cat "$work/fuse.txt")"
  "$fxc" fuse "$work/fused.onnx" --pass linear-act --verify 2>"$work/again.txt" >/dev/null ||
    fail "$model: fusing the fused export: $(cat "$work/again.txt")"
  rm -rf "$work/a" "$work/b"
  "$fxc" run -q "$src" --no-recognize --backend reference --output-dir "$work/a" >/dev/null ||
    fail "$model: run original"
  "$fxc" run -q "$work/fused.onnx" --output-dir "$work/b" >/dev/null || fail "$model: run fused"
  for out in "$work"/a/*.npy; do
    "$compare" "$work/b/${out##*/}" "$out" 1e-5 1e-4 >"$work/cmp.txt" ||
      fail "$model: the fused export computes another function: $(cat "$work/cmp.txt")"
  done
done
echo ok
