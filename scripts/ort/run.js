// Runs an ONNX model in ONNX Runtime (all graph optimizations: its own QDQ fusions) on one
// float32 input and writes its first output as raw float32: an oracle that shares no code with fxc.
//   NODE_PATH=build/ort/node_modules node scripts/ort/run.js MODEL INPUT.f32 D0,D1,... OUT.f32
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');
ort.env.logLevel = 'error';
(async () => {
  const [model, input, dims, out] = process.argv.slice(2);
  const session = await ort.InferenceSession.create(model, {graphOptimizationLevel: 'all'});
  const raw = fs.readFileSync(input);
  const x = new ort.Tensor('float32', new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4),
                           dims.split(',').map(Number));
  const y = await session.run({[session.inputNames[0]]: x});
  const data = y[session.outputNames[0]].data;
  fs.writeFileSync(out, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
})().catch((e) => { console.error('run.js: ' + e.message.split('\n')[0]); process.exit(1); });
