#!/usr/bin/env bash
# Differential check against ONNX Runtime (npm onnxruntime-node; not needed by the tests): every
# model in testdata/models is exported by `fxc trace -o` and transformed by
# `fxc fuse --pass conv-bn --pass identity --pass dce -o`; ONNX Runtime loads each result and
# runs it and the original on the same seeded inputs. Prints the max abs difference per model;
# exit 1 if ONNX Runtime cannot load a result, an exported model's outputs differ at all, or a
# fused model's difference exceeds 1e-6 of the output's magnitude (max |y|).
#   scripts/check_onnxruntime.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh node  # ONNX Runtime from npm
./scripts/build.sh build
ort=build/ort
if [ ! -d "$ort/node_modules/onnxruntime-node" ]; then
  mkdir -p "$ort"
  (cd "$ort" && npm install --silent --ignore-scripts onnxruntime-node >/dev/null)
fi
cat >"$ort/compare.js" <<'JS'
const ort = require('onnxruntime-node');
ort.env.logLevel = 'error';
function random(seed) { let s = seed; return () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648 - 0.5; }; }
(async () => {
  const [a, b, tolerance] = process.argv.slice(2);
  const sa = await ort.InferenceSession.create(a), sb = await ort.InferenceSession.create(b);
  const feeds = {}, r = random(42);
  for (const meta of sa.inputMetadata) {
    const dims = meta.shape.map(d => typeof d === 'number' ? d : 1);
    const n = dims.reduce((x, y) => x * y, 1);
    feeds[meta.name] = new ort.Tensor('float32', Float32Array.from({length: n}, r), dims);
  }
  const oa = await sa.run(feeds), ob = await sb.run(feeds);
  let worst = 0;
  for (const name of sa.outputNames) {
    const x = oa[name].data, y = ob[name].data;
    let diff = 0, mag = 1e-6;
    for (let i = 0; i < x.length; i++) { diff = Math.max(diff, Math.abs(x[i] - y[i])); mag = Math.max(mag, Math.abs(x[i])); }
    worst = Math.max(worst, diff / mag);
    process.stdout.write(`${name}: max abs diff ${diff.toExponential(2)} (max |y| ${mag.toExponential(2)})  `);
  }
  console.log();
  process.exit(worst <= Number(tolerance) ? 0 : 2);  // NaN fails too
})().catch(e => { console.log('ERROR ' + e.message.split('\n')[0]); process.exit(1); });
JS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for model in testdata/models/*.onnx; do
  stem=$(basename "$model" .onnx)
  case $stem in conv_bn_cases) continue ;; esac  # holds a training-mode BatchNorm on purpose
  ./build/fxc trace -q "$model" -o "$work/$stem.onnx" --check
  ./build/fxc fuse -q "$model" --pass conv-bn --pass identity --pass dce -o "$work/$stem.fused.onnx" --check
  printf '%-45s ' "$stem.onnx"
  node "$ort/compare.js" "$model" "$work/$stem.onnx" 0 || status=1  # exported: the same numbers
  printf '%-45s ' "$stem.fused.onnx"
  node "$ort/compare.js" "$model" "$work/$stem.fused.onnx" 1e-6 || status=1
done
exit $status
