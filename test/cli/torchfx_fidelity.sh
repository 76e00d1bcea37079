#!/usr/bin/env bash
# Compares fxc's tabular view of a torch.onnx export with torch.fx's print_tabular of the same
# torchvision model: the call_module rows (name and target, in order) and the call_function
# names must be equal. Modules that an ONNX export cannot contain (Dropout in eval mode is not
# exported) are named with --absent and skipped in the reference.
#   torchfx_fidelity.sh FXC MODEL REFERENCE [--absent TARGET]... [--modules-only]
set -u
fxc=$1 model=$2 reference=$3
shift 3
absent=()
modules_only=0
while [ $# -gt 0 ]; do
  case $1 in
    --absent) absent+=("$2"); shift 2 ;;
    --modules-only) modules_only=1; shift ;;
    *) echo "unknown option $1"; exit 2 ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$fxc" trace "$model" --print-tabular >"$work/fxc.txt" || exit 1
rows() {  # $1: file; prints "call_module NAME TARGET" and "call_function NAME" rows
  awk 'NR > 2 && $1 == "call_module" { print $1, $2, $3 } NR > 2 && $1 == "call_function" { print $1, $2 }' "$1"
}
rows "$work/fxc.txt" >"$work/fxc.rows"
rows "$reference" >"$work/ref.rows"
for target in "${absent[@]}"; do
  awk -v t="$target" '!($1 == "call_module" && $3 == t)' "$work/ref.rows" >"$work/tmp" && mv "$work/tmp" "$work/ref.rows"
done
if [ $modules_only = 1 ]; then
  grep '^call_module' "$work/fxc.rows" >"$work/tmp"; mv "$work/tmp" "$work/fxc.rows"
  grep '^call_module' "$work/ref.rows" >"$work/tmp"; mv "$work/tmp" "$work/ref.rows"
fi
if [ ! -s "$work/ref.rows" ]; then
  echo "FAIL: no rows in $reference"
  exit 1
fi
diff -u "$work/ref.rows" "$work/fxc.rows" && echo "$(wc -l <"$work/ref.rows") rows match torch.fx"
