// node profile.js MODEL BATCH THREADS RUNS [TOP]: ONNX Runtime's own per-node profile of MODEL
// (all graph optimizations, as time.js runs it), summed per op type and per node over RUNS runs
// after 3 warm-ups, in ms per run: what `fxc profile --group-by type` prints for fxc, to compare
// the two op by op. The profiler's JSON file is written to the temporary directory and removed.
const ort = require('onnxruntime-node');
const fs = require('fs');
const os = require('os');
const path = require('path');
ort.env.logLevel = 'error';
(async () => {
  const [model, batch, threads, runs, top] = process.argv.slice(2);
  const warmups = 3;
  const prefix = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ort-profile-')), 'profile');
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: Number(threads), interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all', enableProfiling: true, profileFilePrefix: prefix});
  const feeds = {};
  for (const meta of session.inputMetadata) {
    const dims = meta.shape.map((d, i) => typeof d === 'number' ? d : (i === 0 ? Number(batch) : 1));
    const n = dims.reduce((x, y) => x * y, 1);
    feeds[meta.name] = new ort.Tensor('float32', Float32Array.from({length: n}, () => Math.random() - 0.5), dims);
  }
  for (let k = 0; k < warmups + Number(runs); k++) await session.run(feeds);
  await session.release();  // writes the profile
  const dir = path.dirname(prefix);
  const file = fs.readdirSync(dir).map(f => path.join(dir, f)).find(f => f.endsWith('.json'));
  if (!file) throw new Error('ONNX Runtime wrote no profile');
  const events = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.rmSync(dir, {recursive: true});
  const starts = events.filter(e => e.cat === 'Session' && e.name === 'model_run').map(e => e.ts);
  const from = starts[warmups];
  const perType = new Map(), perNode = new Map();
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time') || e.ts < from) continue;
    const node = e.name.slice(0, -'_kernel_time'.length), type = e.args.op_name;
    perType.set(type, (perType.get(type) || 0) + e.dur / 1000 / Number(runs));
    perNode.set(node, (perNode.get(node) || 0) + e.dur / 1000 / Number(runs));
  }
  const print = (map, limit) => [...map].sort((a, b) => b[1] - a[1]).slice(0, limit)
    .forEach(([name, ms]) => console.log(`${name.padEnd(60)} ${ms.toFixed(3).padStart(10)}`));
  console.log(`${'op type'.padEnd(60)} ${'ms / run'.padStart(10)}`);
  print(perType, perType.size);
  console.log(`\n${'node'.padEnd(60)} ${'ms / run'.padStart(10)}`);
  print(perNode, Number(top || 20));
})().catch(e => { console.error(e.message); process.exit(1); });
