#!/usr/bin/env bash
# PyTorch → ONNX → fxc → PyTorch is the identity: torchvision's resnet18 (random weights, BatchNorm
# statistics made non-trivial) exported with BatchNorm kept (training=PRESERVE, no constant
# folding); the module `fxc codegen` writes has a state_dict that loads into
# torchvision.models.resnet18() with strict=True, and both give the original's outputs
# (1e-5 of the largest value), as does `fxc run`. Also: the generated forward is torch.fx's code
# for the same model but for the placeholder's name. Skipped (exit 77) without torch.
#   codegen_resnet18.sh FXC
set -u
fxc=$1
python=
for candidate in "${FXC_PYTHON:-}" python3 /usr/bin/python3; do
  if [ -n "$candidate" ] && "$candidate" -c 'import torch, torchvision, numpy' 2>/dev/null; then
    python=$candidate
    break
  fi
done
if [ -z "$python" ]; then
  echo "SKIPPED: no python3 with torch, torchvision and numpy (set FXC_PYTHON)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" - "$fxc" "$work" <<'PY'
import importlib, os, subprocess, sys, textwrap
import numpy, torch, torchvision
from torch.fx import symbolic_trace
fxc, work = sys.argv[1:3]
torch.manual_seed(0)
original = torchvision.models.resnet18().eval()
with torch.no_grad():
    for m in original.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 1.5)
            m.weight.uniform_(0.5, 1.5)
            m.bias.uniform_(-0.2, 0.2)
x = torch.randn(2, 3, 224, 224)
model = os.path.join(work, "resnet18.onnx")
torch.onnx.export(original, x, model, input_names=["x"], output_names=["logits"],
                  training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=False)
subprocess.run([fxc, "codegen", "-q", model, "-o", os.path.join(work, "resnet18_fx")], check=True)
numpy.save(os.path.join(work, "x.npy"), x.numpy())
subprocess.run([fxc, "run", "-q", model, "--input", "x=" + os.path.join(work, "x.npy"),
                "--output-dir", os.path.join(work, "out")], check=True, stdout=subprocess.DEVNULL)
sys.path.insert(0, work)
package = importlib.import_module("resnet18_fx")
generated = package.load()
rebuilt = torchvision.models.resnet18()
rebuilt.load_state_dict(generated.state_dict(), strict=True)
rebuilt.eval()
with torch.no_grad():
    want = original(x)
    results = {"generated module": generated(x), "resnet18 with its state_dict": rebuilt(x),
               "fxc run": torch.from_numpy(numpy.load(os.path.join(work, "out", "logits.npy")))}
scale = want.abs().max().item()
failed = False
for name, got in results.items():
    error = (got - want).abs().max().item()
    ok = got.shape == want.shape and error <= 1e-5 * scale
    failed |= not ok
    print(f"{name}: max error {error:.2e} of {scale:.2e}: {'ok' if ok else 'FAIL'}")
# forward is torch.fx's code (GraphModule.code's def): the ONNX input is named x, as forward's
# parameter is.
theirs = symbolic_trace(original).code.strip()
source = open(os.path.join(work, "resnet18_fx", "module.py")).read()
mine = textwrap.dedent(source[source.index("    def forward"):]).strip()
if mine != theirs:
    import difflib
    print("\n".join(difflib.unified_diff(theirs.splitlines(), mine.splitlines(), "torch.fx", "fxc codegen", lineterm="")))
    failed = True
else:
    print(f"forward is torch.fx's code ({len(mine.splitlines())} lines)")
sys.exit(1 if failed else 0)
PY
