// node time.js MODEL BATCH THREADS RUNS [SECONDS]: median/min ms of session.run (after 3 warm-up
// runs), over RUNS runs and, given SECONDS, as many more as it takes to fill that many seconds
// (what `fxc bench --runs RUNS --duration SECONDS` does).
const ort = require('onnxruntime-node');
ort.env.logLevel = 'error';
(async () => {
  const [model, batch, threads, runs, seconds] = process.argv.slice(2);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: Number(threads), interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all'});
  const feeds = {};
  for (const meta of session.inputMetadata) {
    const dims = meta.shape.map((d, i) => typeof d === 'number' ? d : (i === 0 ? Number(batch) : 1));
    const n = dims.reduce((x, y) => x * y, 1);
    feeds[meta.name] = new ort.Tensor('float32', Float32Array.from({length: n}, () => Math.random() - 0.5), dims);
  }
  for (let k = 0; k < 3; k++) await session.run(feeds);
  const ms = [];
  const began = process.hrtime.bigint();
  const minimum = Number(seconds || 0) * 1e9;
  while (ms.length < Number(runs) || Number(process.hrtime.bigint() - began) < minimum) {
    const t = process.hrtime.bigint();
    await session.run(feeds);
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  ms.sort((a, b) => a - b);
  console.log(JSON.stringify({median_ms: ms[Math.floor(ms.length / 2)], min_ms: ms[0]}));
})().catch(e => { console.error(e.message); process.exit(1); });
