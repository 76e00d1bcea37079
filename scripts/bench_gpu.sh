#!/usr/bin/env bash
# The GPU check, as one script for a machine with a CUDA device (the device tool's H200): builds,
# runs the backend-ops unit test and the cudnn end-to-end test, then times resnet18 and resnet50
# on cuDNN at batch 1 and 32, unfused against fused (conv-bn + conv-add-relu + conv-relu), in fp32,
# tf32 and fp16, and PyTorch's CUDA time for the same networks when torch has CUDA there.
#   scripts/bench_gpu.sh [--runs N]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${2:-30}
./scripts/setup.sh  # the models need python3-torch: `scripts/setup.sh torch` where apt can reach Debian
./scripts/build.sh build
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
./build/test/fxc_unit_tests -tc='*backend*,*oneDNN*,*cuDNN*,*fused*,*sgemm*'
bash test/cli/cudnn_backend.sh build/fxc
big=build/big
[ -f "$big/resnet50.onnx" ] || /usr/bin/python3 scripts/export_testdata.py --big "$big" >/dev/null ||
  { echo "no torch to export the full-size models: timing the narrow ones"; big=testdata/models; }
printf '%-10s %5s %-9s %12s %12s %8s\n' model batch precision "unfused ms" "fused ms" speedup
for model in resnet18 resnet50; do
  file="$big/$model.onnx"
  [ -f "$file" ] || file=testdata/models/resnet18_narrow.onnx
  for batch in 1 32; do
    for precision in fp32 tf32 fp16; do
      json=$(./build/fxc bench "$file" --backend cudnn --precision "$precision" --batch "$batch" \
        --pass conv-bn --pass conv-add-relu --pass conv-relu --runs "$runs" --warmup 5 \
        --format json 2>/dev/null)
      echo "$json" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print("%-10s %5s %-9s %12.3f %12.3f %7.2fx" % (sys.argv[1], sys.argv[2], sys.argv[3],
      d["unfused"]["median_ms"], d["fused"]["median_ms"], d["speedup"]))' "$model" "$batch" "$precision"
    done
  done
done
/usr/bin/python3 - "$runs" <<'PY' || echo "PyTorch with CUDA not available here"
import sys, time, torch, torchvision
runs = int(sys.argv[1])
assert torch.cuda.is_available()
for name in ("resnet18", "resnet50"):
    model = getattr(torchvision.models, name)().eval().cuda()
    for batch in (1, 32):
        for half in (False, True):
            m = model.half() if half else model.float()
            x = torch.randn(batch, 3, 224, 224, device="cuda", dtype=torch.half if half else torch.float)
            with torch.inference_mode():
                for _ in range(5): m(x)
                torch.cuda.synchronize()
                times = []
                for _ in range(runs):
                    t = time.perf_counter(); m(x); torch.cuda.synchronize()
                    times.append((time.perf_counter() - t) * 1e3)
            times.sort()
            print("pytorch %-9s %3d %-5s %.3f ms" % (name, batch, "fp16" if half else "fp32", times[len(times) // 2]))
PY
