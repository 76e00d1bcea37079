#!/usr/bin/env bash
# If, Loop and Scan executed: the six outputs of testdata/models/control_flow.onnx (a Loop with
# scan outputs whose body holds an If that reads values from two scopes out; a Scan reading its
# input backwards and prepending an output), element by element, against numpy's step-by-step
# computation recorded by scripts/make_control_flow.py; for a loop its body's cond ends and one M
# ends; with the run's pipeline, as written (-O0), on the reference kernels, and after an export
# by `fxc fuse` (the subgraphs written back, loaded and traced again).
#   control_flow.sh FXC NPY_COMPARE
set -u
fxc=$1
compare=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rec=testdata/recorded
model=testdata/models/control_flow.onnx
status=0
"$fxc" fuse -q "$model" --pass simplify -o "$work/exported.onnx" ||
  { echo "FAIL: fuse --pass simplify -o"; exit 1; }
check() {  # LABEL MODEL LIMIT [RUN_OPTIONS...]
  local label=$1 file=$2 limit=$3
  shift 3
  rm -rf "$work/out"
  if ! "$fxc" run -q "$file" --input x=$rec/control_flow.x.npy \
       --input limit=$rec/control_flow.limit_$limit.npy --output-dir "$work/out" "$@" \
       >"$work/stdout"; then
    echo "FAIL: $label (limit $limit) does not run"
    status=1
    return
  fi
  grep -q "^steps: int64 " "$work/stdout" || { echo "FAIL: $label (limit $limit): steps is not int64"; status=1; }
  for output in acc accs steps total sums doubled; do
    "$compare" "$work/out/$output.npy" $rec/control_flow.limit_$limit.$output.npy 1e-6 1e-6 \
      >/dev/null || { echo "FAIL: $label (limit $limit): output $output differs"; status=1; }
  done
}
for limit in 2 100; do
  check run "$model" $limit
  check "run -O0" "$model" $limit -O0
  check "run --backend reference" "$model" $limit --backend reference
  check "the exported model" "$work/exported.onnx" $limit
done
[ $status = 0 ] && echo ok
exit $status
