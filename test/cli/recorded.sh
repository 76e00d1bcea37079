#!/usr/bin/env bash
# `fxc run` against PyTorch's own output, recorded by scripts/record_outputs.py: every element
# within 1e-5 + 1e-4·|y|, with recognition (the traced graph) and without (every op as written).
#   recorded.sh FXC NPY_COMPARE NAME [RUN_OPTIONS...]   (scripts/bench_gpu.sh: --backend cudnn)
set -u
fxc=$1
compare=$2
name=$3
shift 3
# The model's input and output: x and y in record_outputs.py's models, input and output in
# export_testdata.py's CNNs (which share one input file, narrow_cnns.x.npy).
input=x output=y x=testdata/recorded/$name.x.npy
case $name in *_narrow) input=input output=output x=testdata/recorded/narrow_cnns.x.npy ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for mode in "" --no-recognize; do
  rm -rf "$work/out"
  "$fxc" run -q testdata/models/$name.onnx $mode --input $input=$x \
    --output-dir "$work/out" "$@" >/dev/null || { echo "FAIL: $name $mode does not run"; exit 1; }
  "$compare" "$work/out/$output.npy" testdata/recorded/$name.y.npy 1e-5 1e-4 ||
    { echo "FAIL: $name $mode differs from PyTorch"; status=1; }
done
[ $status = 0 ] && echo ok
exit $status
