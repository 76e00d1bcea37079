#!/usr/bin/env bash
# fxc's executor against ONNX Runtime (npm onnxruntime-node; not needed by the tests): each model in
# testdata/models is run by `fxc run --input ... --output-dir` and by ONNX Runtime's CPU execution
# provider, once with its graph optimizations off ('disabled', ORT_DISABLE_ALL) and once on ('all'),
# on the same seeded random inputs (float32, or small int64; .npy files of the shapes the model
# declares, 1 for a symbolic dimension, which fxc takes from the files). Prints, per model and output, the max abs error against each ONNX Runtime
# run, max |y| of ONNX Runtime's output, and the error relative to it; a comparison passes when
# max abs error <= 1e-5 * max |y|.
# Models fxc refuses ("unsupported: ...") are skipped with a line saying why; testdata/models/bad
# (broken on purpose) is not run. With --big, also torchvision's full-size resnet18 and
# mobilenet_v2 (random weights; exported to build/big by scripts/export_testdata.py when missing,
# which needs torch for /usr/bin/python3: skipped with a line when it has none).
# Exit 1 if a comparison fails or either side cannot run a model fxc does not refuse.
#   scripts/check_executor_ort.sh [--big]
# Needs node and npm (scripts/setup.sh node); ONNX Runtime is installed into build/ort as
# scripts/check_onnxruntime.sh does. Uses build/fxc (built by scripts/build.sh when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
big=0
for arg in "$@"; do
  case "$arg" in
    --big) big=1 ;;
    *) echo "usage: $0 [--big]" >&2; exit 2 ;;
  esac
done
tolerance=1e-5
# Node.js from elsewhere (NodeSource's bundles npm) is used as it is: setup.sh would ask for Debian's npm.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then ./scripts/setup.sh node; fi
[ -x build/fxc ] || ./scripts/build.sh build
ort=build/ort
if [ ! -d "$ort/node_modules/onnxruntime-node" ]; then
  mkdir -p "$ort"
  (cd "$ort" && npm install --silent --ignore-scripts onnxruntime-node >/dev/null)
fi
cat >"$ort/executor.js" <<'JS'
// node executor.js inputs MODEL DIR: writes DIR/inK.npy for each model input (seeded, uniform in
//   [-1, 1), float32) and prints one line per input: NAME<TAB>FILE<TAB>D0,D1,...<TAB>symbolic|static
// node executor.js compare MODEL INPUTS_LIST FXC_DIR TOLERANCE LABEL: runs ONNX Runtime with graph
//   optimizations 'disabled' and 'all' on those inputs, compares every output with FXC_DIR/NAME.npy
//   and prints one row per output; exit 2 if a comparison fails, 1 if ONNX Runtime cannot run it.
const fs = require('fs');
const ort = require('onnxruntime-node');
ort.env.logLevel = 'error';

const dtypes = {'<f4': ['float32', Float32Array], '<i8': ['int64', BigInt64Array]};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 0, 6) !== '\x93NUMPY') throw new Error(`${file}: not a .npy file`);
  const major = buf[6];
  const headerLength = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + headerLength);
  const descr = /'descr':\s*'([^']*)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${file}: Fortran order`);
  if (!dtypes[descr]) throw new Error(`${file}: dtype ${descr} (only <f4 and <i8 are read)`);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map(s => s.trim())
    .filter(s => s !== '').map(Number);
  const [type, Typed] = dtypes[descr];
  const offset = buf.byteOffset + start + headerLength;
  const n = shape.reduce((x, y) => x * y, 1);
  const data = new Typed(buf.buffer.slice(offset, offset + n * Typed.BYTES_PER_ELEMENT));
  return {type, shape, data};
}

function writeNpy(file, data, shape, descr) {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat(63 - (10 + header.length) % 64) + '\n';  // magic + header: a multiple of 64
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1; prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, 'latin1'),
                                        Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

function random(seed) {  // mulberry32: uniform in [-1, 1)
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2147483648 - 1;
  };
}

const fileName = name => name.replace(/[^A-Za-z0-9._-]/g, '_');  // as fxc run names its files
const fmt = x => Number.isFinite(x) ? x.toExponential(2) : String(x);

async function inputs(model, dir) {
  const session = await ort.InferenceSession.create(model);
  session.inputMetadata.forEach((meta, k) => {
    if (meta.type !== 'float32' && meta.type !== 'int64')
      throw new Error(`input ${meta.name} is ${meta.type}, not float32 or int64`);
    const symbolic = meta.shape.some(d => typeof d !== 'number');
    const dims = meta.shape.map(d => typeof d === 'number' ? d : 1);
    const r = random(42 + k);
    const n = dims.reduce((x, y) => x * y, 1);
    const data = meta.type === 'int64' ? BigInt64Array.from({length: n}, (_, i) => BigInt(i % 5))
                                       : Float32Array.from({length: n}, r);
    const file = `${dir}/in${k}.npy`;
    writeNpy(file, data, dims, meta.type === 'int64' ? '<i8' : '<f4');
    console.log([meta.name, file, dims.join(','), symbolic ? 'symbolic' : 'static'].join('\t'));
  });
}

function compareOne(want, got) {  // max abs error and max |want|; NaN on one side only: Infinity
  let err = 0, mag = 0;
  for (let i = 0; i < want.length; i++) {
    const w = Number(want[i]), g = Number(got[i]);
    if (Number.isNaN(w) || Number.isNaN(g)) { if (Number.isNaN(w) !== Number.isNaN(g)) err = Infinity; continue; }
    err = Math.max(err, w === g ? 0 : Math.abs(w - g));
    mag = Math.max(mag, Math.abs(w));
  }
  return {err, mag};
}

async function compare(model, list, fxcDir, tolerance, label) {
  const feeds = {};
  for (const line of fs.readFileSync(list, 'utf8').split('\n').filter(l => l)) {
    const [name, file] = line.split('\t');
    const x = readNpy(file);
    feeds[name] = new ort.Tensor(x.type, x.data, x.shape);
  }
  const results = {};
  for (const level of ['disabled', 'all']) {
    let session;
    try {
      session = await ort.InferenceSession.create(model, {graphOptimizationLevel: level, executionProviders: ['cpu']});
      results[level] = {names: session.outputNames, outputs: await session.run(feeds)};
    } catch (e) {
      console.log(`FAIL  ${label}: ONNX Runtime ('${level}') cannot run it: ${e.message.split('\n')[0]}`);
      process.exit(1);
    } finally {
      if (session) await session.release();
    }
  }
  let failed = false;
  for (const name of results.disabled.names) {
    const file = `${fxcDir}/${fileName(name)}.npy`;
    let got;
    try { got = readNpy(file); } catch (e) {
      console.log(`FAIL  ${label} ${name}: fxc's output: ${e.message}`);
      failed = true;
      continue;
    }
    const row = [label.padEnd(36), name.padEnd(7)];
    let mag = 0, pass = true;
    for (const level of ['disabled', 'all']) {
      const want = results[level].outputs[name];
      if (want.dims.join(',') !== got.shape.join(',')) {
        row.push(`shape [${got.shape}] vs [${want.dims}]`.padEnd(19));
        pass = false;
        continue;
      }
      const d = compareOne(want.data, got.data);
      const relative = d.err === 0 ? 0 : d.err / d.mag;
      mag = Math.max(mag, d.mag);
      pass = pass && relative <= tolerance;
      row.push(fmt(d.err).padStart(9) + ' ' + fmt(relative).padStart(9));
    }
    row.splice(2, 0, fmt(mag).padStart(8));
    row.push(pass ? 'pass' : 'FAIL');
    failed = failed || !pass;
    console.log(row.join('  '));
  }
  process.exit(failed ? 2 : 0);
}

const [command, ...args] = process.argv.slice(2);
(command === 'inputs' ? inputs(args[0], args[1])
                      : compare(args[0], args[1], args[2], Number(args[3]), args[4]))
  .catch(e => { console.log('ERROR ' + e.message.split('\n')[0]); process.exit(1); });
JS

models=(testdata/models/*.onnx)
echo "skip  testdata/models/bad/: broken on purpose (fxc's error tests)"
if [ $big -eq 1 ]; then
  if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
    for name in resnet18 mobilenet_v2; do
      [ -f "build/big/$name.onnx" ] ||
        /usr/bin/python3 scripts/export_testdata.py --big build/big --names "$name" >/dev/null
      models+=("build/big/$name.onnx")
    done
  else
    echo "skip  --big: /usr/bin/python3 cannot import torch (scripts/setup.sh torch)"
  fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "tolerance: max abs error <= $tolerance * max |y| (y: ONNX Runtime's output), per output"
echo "ONNX Runtime $(node -p "require('./$ort/node_modules/onnxruntime-node/package.json').version") (CPU), optimizations 'disabled' and 'all'; fxc run (--backend cpu)"
printf '%-36s  %-7s  %8s  %-19s  %-19s  %s\n' "" "" "" "ORT 'disabled'" "ORT 'all'" ""
printf '%-36s  %-7s  %8s  %9s %9s  %9s %9s  %s\n' model output 'max |y|' 'max abs' '/ max|y|' 'max abs' '/ max|y|' result
status=0
for model in "${models[@]}"; do
  stem=$(basename "$model" .onnx)
  label=$stem
  case $model in build/big/*) label="$stem (full size)" ;; esac
  dir="$work/$stem"
  mkdir -p "$dir/in"
  fxc_args=()
  if node "$ort/executor.js" inputs "$model" "$dir/in" >"$dir/inputs.tsv"; then
    while IFS=$'\t' read -r name file dims kind; do
      fxc_args+=(--input "$name=$file")  # the file's shape fills symbolic dimensions
    done <"$dir/inputs.tsv"
    ort_error=""
  else
    ort_error=$(tail -n 1 "$dir/inputs.tsv")
  fi
  if ! ./build/fxc run -q "$model" "${fxc_args[@]}" --output-dir "$dir/fxc" >/dev/null 2>"$dir/fxc.err"; then
    error=$(tail -n 1 "$dir/fxc.err")
    if grep -q ': unsupported: ' "$dir/fxc.err"; then
      echo "skip  $label: fxc refuses it: ${error#*: unsupported: }"
    else
      echo "FAIL  $label: fxc run cannot run it: $error"
      [ -z "$ort_error" ] || echo "FAIL  $label: ONNX Runtime cannot load it: ${ort_error#ERROR }"
      status=1
    fi
    continue
  fi
  if [ -n "$ort_error" ]; then
    echo "FAIL  $label: ONNX Runtime cannot load it: ${ort_error#ERROR }"
    status=1
    continue
  fi
  node "$ort/executor.js" compare "$model" "$dir/inputs.tsv" "$dir/fxc" "$tolerance" "$label" || status=1
done
[ $status -eq 0 ] && echo "all comparisons pass" || echo "FAIL: see the lines above"
exit $status
