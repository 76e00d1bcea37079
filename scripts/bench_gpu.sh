#!/usr/bin/env bash
# The GPU check, as one script for a machine with a CUDA device (the device tool's H200). Steps,
# each reported as ok or FAIL (a failing step does not hide the later ones; the exit status is 1
# if any failed):
#   unit      the backend unit tests: every cuDNN kernel against the reference kernels
#   e2e       test/cli/cudnn_backend.sh: four CNNs, fp32/tf32/fp16, element-wise against the CPU
#   models    every testdata model (and --models's zoo models) on cuDNN against the CPU,
#             element-wise (CPU fallbacks and the copies between them), and the outputs PyTorch
#             recorded, on cuDNN
#   timing    resnet18 and resnet50 at batch 1 and 32 in fp32, tf32 and fp16, unfused against fused
#             (conv-bn + conv-add-relu + conv-relu); vit_b_16 at batch 1 and 32
#   int8      cuDNN's int8 convolutions against its fp32 one (fxc-cudnn-int8-probe), then
#             resnet18 and resnet50 quantized with both presets: the integer run on cuDNN against
#             the CPU's (SQNR), and its time against the CPU's and the float model's on cuDNN
#   pytorch   PyTorch's CUDA time for the timing networks (cudnn.benchmark on), where torch has
#             CUDA
#   scripts/bench_gpu.sh [--build DIR] [--models DIR] [--runs N] [--steps LIST] [--timing ROWS]
#     --build DIR   use the build in DIR (scripts/gpu_bundle.sh packs one, with the libraries it
#                   needs in DIR/lib): no set-up, no build. Default: set up and build build/
#     --models DIR  resnet18, resnet50 and vit_b_16 as NAME.onnx, or NAME.skeleton.onnx (weights
#                   stripped by scripts/onnx_weights.py, filled here). Default: exported with
#                   Debian's torch into build/big
#     --steps LIST  some of unit,e2e,models,timing,int8,pytorch (default: all)
#     --timing ROWS the timing rows as MODEL:BATCH:PRECISION,... (default: every combination)
set -uo pipefail
cd "$(dirname "$0")/.."
build="" models="" runs=30 steps=unit,e2e,models,timing,int8,pytorch rows=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --models) models=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --timing) rows=$2; shift 2 ;;
    *) echo "usage: scripts/bench_gpu.sh [--build DIR] [--models DIR] [--runs N] [--steps LIST] [--timing ROWS]" >&2
       exit 2 ;;
  esac
done
if [ -z "$build" ]; then
  ./scripts/setup.sh torch || exit 1
  ./scripts/build.sh build -DFXC_CUDNN=ON || exit 1
  build=build
fi
build=$(cd "$build" && pwd)
fxc=$build/fxc
export FXC_SOURCE_DIR=$PWD  # the unit tests' testdata, wherever they were built
[ -d "$build/lib" ] && export LD_LIBRARY_PATH=$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The CUDA libraries: the loader's own, else the toolkit's folders or a Python wheel's (PyTorch's
# nvidia-* packages).
python=""
for p in python3 /usr/bin/python3; do
  command -v "$p" >/dev/null && "$p" -c 'import onnx, numpy' 2>/dev/null && { python=$p; break; }
done
for lib in libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libcudnn.so.9; do
  ldconfig -p | grep -q "$lib" && continue
  found=""
  for dir in ${LD_LIBRARY_PATH//:/ } /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -e "$dir/$lib" ] && { found=$dir; break; }
  done
  if [ -z "$found" ] && [ -n "$python" ]; then
    for site in $("$python" -c 'import site; print(" ".join(site.getsitepackages()))'); do
      found=$(find "$site/nvidia" -name "$lib" 2>/dev/null | head -1)
      [ -n "$found" ] && { found=$(dirname "$found"); break; }
    done
  fi
  if [ -n "$found" ]; then
    case ":${LD_LIBRARY_PATH:-}:" in *":$found:"*) ;; *) export LD_LIBRARY_PATH=$found${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ;; esac
  else
    echo "bench_gpu: $lib not found"
  fi
done
echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
ldd "$fxc" "$build/libfxc_cudnn.so" | grep 'not found'
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
failed=()
step() {  # step NAME COMMAND...: runs it (when --steps names it), says ok or FAIL with its time
  local name=$1 start=$SECONDS
  shift
  case ",$steps," in *",$name,"*) ;; *) return 0 ;; esac
  echo "== $name"
  if "$@"; then echo "== $name: ok ($((SECONDS - start)) s)"; else
    echo "== $name: FAIL ($((SECONDS - start)) s)"
    failed+=("$name")
  fi
}

unit() { timeout 600 "$build/test/fxc_unit_tests" -sf='*backend_test.cpp,*int8_test.cpp'; }
step unit unit
step e2e timeout 600 bash test/cli/cudnn_backend.sh "$fxc" "$build/fxc-npy-compare"

# The detection and segmentation models too, where --models has them (NAME.zoo.skeleton.onnx:
# gpu_bundle.sh strips them; Resize, Upsample, strided Softmax and Split on and off the device).
models_step() {
  local extra=() skeleton file work
  work=$(mktemp -d)
  for skeleton in "${models:-/nonexistent}"/*.zoo.skeleton.onnx; do
    [ -f "$skeleton" ] || continue
    file=$work/$(basename "$skeleton" .zoo.skeleton.onnx).onnx
    "$python" scripts/onnx_weights.py fill "$skeleton" "$file" >/dev/null && extra+=("$file")
  done
  timeout 600 bash test/cli/cudnn_models.sh "$fxc" "$build/fxc-npy-compare" "${extra[@]}"
  local status=$?
  rm -rf "$work"
  return $status
}
step models models_step

# Timing. The full-size models: exported here with Debian's torch, or given (--models).
timing_step() {
  local status=0 dir=$models name file json
  if [ -z "$dir" ]; then
    dir=build/big
    for name in resnet18 resnet50 vit_b_16; do
      [ -f "$dir/$name.onnx" ] || /usr/bin/python3 scripts/export_testdata.py --big "$dir" --names "$name" >/dev/null ||
        { echo "no torch to export $name"; return 1; }
    done
  fi
  if [ -z "$rows" ]; then
    for name in resnet18 resnet50 vit_b_16; do
      for batch in 1 32; do
        for precision in fp32 tf32 fp16; do rows+="${rows:+,}$name:$batch:$precision"; done
      done
    done
  fi
  printf '%-10s %5s %-9s %12s %12s %8s\n' model batch precision "unfused ms" "fused ms" speedup
  for name in resnet18 resnet50 vit_b_16; do
    case ",$rows" in *",$name:"*) ;; *) continue ;; esac
    file=$dir/$name.onnx
    if [ ! -f "$file" ] && [ -f "$dir/$name.skeleton.onnx" ]; then
      file=$(mktemp -d)/$name.onnx
      "$python" scripts/onnx_weights.py fill "$dir/$name.skeleton.onnx" "$file" >/dev/null || return 1
    fi
    [ -f "$file" ] || { echo "$name: no model in $dir"; status=1; continue; }
    # The transformer's fused variant is simplified first (its weights' transposes fold).
    local passes=(--pass conv-bn --pass conv-add-relu --pass conv-relu)
    [ "$name" = vit_b_16 ] && passes=(--pass simplify "${passes[@]}")
    for batch in 1 32; do
      for precision in fp32 tf32 fp16; do
        case ",$rows," in *",$name:$batch:$precision,"*) ;; *) continue ;; esac
        json=$(timeout 300 "$fxc" bench "$file" --backend cudnn --precision "$precision" --batch "$batch" \
          "${passes[@]}" --runs "$runs" --warmup 5 --format json 2>/tmp/bench_gpu.err) ||
          { echo "$name $batch $precision: FAIL: $(tail -2 /tmp/bench_gpu.err)"; status=1; continue; }
        echo "$json" | "$python" -c '
import json, sys
d = json.load(sys.stdin)
print("%-10s %5s %-9s %12.3f %12.3f %7.2fx" % (sys.argv[1], sys.argv[2], sys.argv[3],
      d["unfused"]["median_ms"], d["fused"]["median_ms"], d["speedup"]))' "$name" "$batch" "$precision"
      done
    done
    # fp16 against fp32 on the full model (fxc run reports it), and what falls back to the CPU.
    timeout 300 "$fxc" run "$file" --batch 1 --backend cudnn --precision fp16 -v >/tmp/bench_gpu.run 2>/tmp/bench_gpu.err
    echo "$name: exit $?, $(grep -c 'runs on the CPU' /tmp/bench_gpu.err) nodes on the CPU"
    grep -hi 'fp16\|fp32\|error' /tmp/bench_gpu.run /tmp/bench_gpu.err | grep -v 'runs on the CPU' | head -5 | sed "s/^/$name: /"
    grep 'runs on the CPU' /tmp/bench_gpu.err | sed 's/.*cudnn: //; s/ runs on the CPU//; s/_[0-9]*$//' | sort | uniq -c |
      sort -rn | head -8 | sed "s/^/$name: on the CPU: /"
    if [ "$name" = vit_b_16 ]; then
      echo "$name: slowest nodes on cudnn (fxc profile --sort, batch 1):"
      timeout 120 "$fxc" profile "$file" --batch 1 --backend cudnn --runs 3 --sort 2>/dev/null | head -14
    fi
  done
  return $status
}
step timing timing_step

# The integer runs on cuDNN (quant-lower's convolutions on its int8 one).
int8_step() {
  local status=0 name file preset q
  timeout 120 "$build/fxc-cudnn-int8-probe" || status=1
  local work
  work=$(mktemp -d)
  for name in resnet18 resnet50; do
    file=$models/$name.onnx
    if [ -z "$models" ]; then file=build/big/$name.onnx; fi
    if [ ! -f "$file" ] && [ -f "$models/$name.skeleton.onnx" ]; then
      file=$work/$name.onnx
      "$python" scripts/onnx_weights.py fill "$models/$name.skeleton.onnx" "$file" >/dev/null || return 1
    fi
    [ -f "$file" ] || { echo "$name: no model"; status=1; continue; }
    local shape=(--shape input=1,3,224,224)
    echo "$name fp32 on cudnn: $(median "$file" cudnn "${shape[@]}") ms"
    for preset in trt ort-cpu; do
      q=$work/$name.$preset.onnx
      timeout 300 "$fxc" quantize -q "$file" "${shape[@]}" --preset $preset --calibration random:4 -o "$q" ||
        { echo "$name $preset: quantize failed"; status=1; continue; }
      rm -rf "$work/cpu" "$work/gpu"
      "$fxc" run -q "$q" "${shape[@]}" --output-dir "$work/cpu" >/dev/null &&
        "$fxc" run -q "$q" "${shape[@]}" --backend cudnn --output-dir "$work/gpu" >/dev/null ||
        { echo "$name $preset: run failed"; status=1; continue; }
      "$python" - "$work/gpu/output.npy" "$work/cpu/output.npy" "$name $preset" <<'PY'
import sys, numpy as np
a, b = np.load(sys.argv[1]).astype(np.float64), np.load(sys.argv[2]).astype(np.float64)
noise = ((a - b) ** 2).sum()
sqnr = "exact" if noise == 0 else "%.1f dB" % (10 * np.log10((b ** 2).sum() / noise))
print("%s: integer run on cudnn against cpu: %s (max abs %.3g of %.3g)" % (
    sys.argv[3], sqnr, abs(a - b).max(), abs(b).max()))
PY
      echo "$name $preset: int8 ms on cudnn $(median "$q" cudnn "${shape[@]}"), on cpu $(median "$q" cpu "${shape[@]}")"
    done
  done
  rm -rf "$work"
  return $status
}
# The fused median ms of `fxc bench` on a backend.
median() {
  local file=$1 backend=$2
  shift 2
  timeout 300 "$fxc" bench "$file" "$@" --backend "$backend" --runs "$runs" --warmup 3 --format json 2>/dev/null |
    "$python" -c 'import json, sys; print("%.3f" % json.load(sys.stdin)["fused"]["median_ms"])' 2>/dev/null ||
    echo "(failed)"
}
step int8 int8_step

pytorch_step() {
  local torch_python=""
  for p in python3 /usr/bin/python3; do
    command -v "$p" >/dev/null && "$p" -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null &&
      { torch_python=$p; break; }
  done
  [ -n "$torch_python" ] || { echo "PyTorch with CUDA not available here"; return 0; }
  "$torch_python" - "$runs" "${pytorch_models:-resnet18,resnet50,vit_b_16}" <<'PY'
import sys, time, torch, torchvision
runs = int(sys.argv[1])
torch.backends.cudnn.benchmark = True
print("pytorch %s, cuDNN %s, cudnn.benchmark on, NCHW" % (torch.__version__, torch.backends.cudnn.version()))
for name in sys.argv[2].split(","):
    model = getattr(torchvision.models, name)().eval().cuda()
    for batch in (1, 32):
        for precision in ("fp32", "tf32", "fp16"):
            torch.backends.cudnn.allow_tf32 = precision == "tf32"
            torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
            half = precision == "fp16"
            m = model.half() if half else model.float()
            x = torch.randn(batch, 3, 224, 224, device="cuda", dtype=torch.half if half else torch.float)
            with torch.inference_mode():
                for _ in range(5):
                    m(x)
                torch.cuda.synchronize()
                times = []
                for _ in range(runs):
                    t = time.perf_counter()
                    m(x)
                    torch.cuda.synchronize()
                    times.append((time.perf_counter() - t) * 1e3)
            times.sort()
            print("pytorch %-10s %5d %-9s %12.3f ms" % (name, batch, precision, times[len(times) // 2]))
PY
}
step pytorch pytorch_step
if [ ${#failed[@]} -gt 0 ]; then echo "bench_gpu: failed: ${failed[*]}"; exit 1; fi
echo "bench_gpu: all steps ok"
