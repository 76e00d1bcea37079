#!/usr/bin/env bash
# fxc codegen against PyTorch: for each MODEL, the package `fxc codegen` writes, run by PyTorch
# on the inputs `fxc run` drew, gives the outputs of `fxc run -O0` (the model as written; the
# default pipeline lowers Q/DQ to integer arithmetic, which the package does not) element-wise (|got - want| <= 1e-5 ·
# (|want| + max |want|); integers and booleans exactly). A model codegen refuses must be refused
# with one line naming the node or module and its op; --expect-refusal MODEL=TEXT says which.
# Needs Debian's torch: without it the test is skipped (exit 77) and says so.
#   codegen_torch.sh FXC [--expect-refusal MODEL=TEXT]... MODEL...
set -u
fxc=$1
shift
python=
for candidate in "${FXC_PYTHON:-}" python3 /usr/bin/python3; do
  if [ -n "$candidate" ] && "$candidate" -c 'import torch, numpy' 2>/dev/null; then
    python=$candidate
    break
  fi
done
if [ -z "$python" ]; then
  echo "SKIPPED: no python3 with torch and numpy (set FXC_PYTHON); codegen is not checked against PyTorch"
  exit 77
fi
declare -A refusals=()
models=()
while [ $# -gt 0 ]; do
  case $1 in
    --expect-refusal) refusals[${2%%=*}]=${2#*=}; shift 2 ;;
    *) models+=("$1"); shift ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0 refused=0
for model in "${models[@]}"; do
  stem=$(basename "$model" .onnx)
  package=pkg_$(echo "$stem" | tr -c 'A-Za-z0-9_\n' _)
  if ! "$fxc" codegen -q "$model" -o "$work/$package" 2>"$work/err"; then
    message=$(cat "$work/err")
    expected=${refusals[$stem]:-}
    if [ -z "$expected" ]; then
      echo "FAIL: $stem: codegen refused: $message"
      failed=1
    elif [ "$(wc -l <"$work/err")" != 1 ] || [[ $message != "fxc: error: "*"$expected"* ]]; then
      echo "FAIL: $stem: the refusal is not one line with \"$expected\": $message"
      failed=1
    else
      echo "refused as expected: $message"
      refused=$((refused + 1))
    fi
    continue
  fi
  if [ -n "${refusals[$stem]:-}" ]; then
    echo "FAIL: $stem: codegen wrote a package for a model it must refuse (${refusals[$stem]})"
    failed=1
    continue
  fi
  mkdir -p "$work/$stem.in" "$work/$stem.out"
  # A symbolic batch dimension gets 2.
  if ! "$fxc" run -q -O0 "$model" --save-inputs "$work/$stem.in" --output-dir "$work/$stem.out" \
       >/dev/null 2>"$work/err" &&
     ! { grep -q "symbolic dimension" "$work/err" &&
         "$fxc" run -q -O0 "$model" --batch 2 --save-inputs "$work/$stem.in" \
           --output-dir "$work/$stem.out" >/dev/null; }; then
    echo "FAIL: $stem: fxc run failed: $(cat "$work/err")"
    failed=1
    continue
  fi
  echo "$stem $package" >>"$work/packages"
done
# One PyTorch process checks every package (importing torch once).
if [ -s "$work/packages" ]; then
  "$python" - "$work" <<'PY' || failed=1
import importlib, os, re, sys
import numpy, torch
work = sys.argv[1]
sys.path.insert(0, work)
def file(directory, name):
    return os.path.join(directory, re.sub(r"[^A-Za-z0-9._-]", "_", name) + ".npy")
def check(stem, package):
    inputs_dir, outputs_dir = os.path.join(work, stem + ".in"), os.path.join(work, stem + ".out")
    module = importlib.import_module(package).load()
    fx = sys.modules[package + ".module"].FxModule
    inputs = [torch.from_numpy(numpy.load(file(inputs_dir, n))) for n in fx.onnx_inputs]
    with torch.no_grad():
        got = module(*inputs)
    if not isinstance(got, (tuple, list)):
        got = (got,)
    assert len(got) == len(fx.onnx_outputs), f"{len(got)} outputs, the model has {len(fx.onnx_outputs)}"
    worst = 0.0
    for name, value in zip(fx.onnx_outputs, got):
        want = numpy.load(file(outputs_dir, name))
        value = value.numpy()
        assert value.shape == want.shape, f"{name}: shape {value.shape}, fxc run {want.shape}"
        assert value.dtype == want.dtype, f"{name}: {value.dtype}, fxc run {want.dtype}"
        if want.dtype.kind in "fc":
            nan = numpy.isnan(want)  # out of the op's domain: NaN in both
            assert (numpy.isnan(value) == nan).all(), f"{name}: NaN where fxc run has none, or not"
            value, want = numpy.where(nan, 0, value), numpy.where(nan, 0, want)
            finite = numpy.abs(want[numpy.isfinite(want)])
            scale = float(finite.max()) if finite.size else 0.0
            # Equal infinities agree (their difference is NaN).
            with numpy.errstate(invalid="ignore"):
                error = numpy.where(value == want, 0.0,
                                    numpy.abs(value.astype(numpy.float64) - want))
            bound = 1e-5 * (numpy.abs(want) + scale)
            assert (error <= bound).all(), f"{name}: off by {error.max()} (bound {bound.max()})"
            worst = max(worst, float(error.max()) / scale if scale else 0.0)
        else:
            assert (value == want).all(), f"{name}: {int((value != want).sum())} elements differ"
    print(f"{stem}: {len(got)} output(s) equal fxc run (max error {worst:.2e} of the largest value)")
failed = 0
for line in open(os.path.join(work, "packages")):
    stem, package = line.split()
    try:
        check(stem, package)
    except Exception as error:  # a failure of the generated code or of the comparison
        print(f"FAIL: {stem}: the generated module differs from fxc run: {type(error).__name__}: {error}")
        failed += 1
print(f"{sum(1 for _ in open(os.path.join(work, 'packages'))) - failed} model(s) equal fxc run")
sys.exit(1 if failed else 0)
PY
fi
echo "$refused model(s) refused as expected"
exit $failed
