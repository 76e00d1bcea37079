// Reads a trained network that an npm package ships for TensorFlow.js and writes what
// scripts/tfjs_to_onnx.py converts: the architecture (JSON) and every weight, dequantized by
// TensorFlow.js itself, in one float32 file. With an input file it runs the network with the
// package's own code in TensorFlow.js (the oracle of the conversion: no fxc or ONNX code).
//   node tfjs_model.js keras MODEL_DIR OUT_DIR [INPUTS.f32 N]
//     nsfwjs's Keras models (model.min.js exports the topology and weight manifest, each shard
//     a base64 string); INPUTS: N samples NHWC [N, S, S, 3] in [0, 1], S the model's input
//     size; writes OUT_DIR/tfjs_logits.f32, the last Dense layer's output before its softmax.
//   node tfjs_model.js faceapi MODEL_DIR OUT_DIR [INPUTS.f32 N]
//     face-api's FaceRecognitionNet (dlib's ResNet-34 face embedding); INPUTS: NHWC
//     [N, 150, 150, 3] in [0, 1]; writes OUT_DIR/tfjs_logits.f32, the 128-value descriptors
//     computed by face-api's computeFaceDescriptor on the inputs times 255 (its pixel scale).
'use strict';
const fs = require('fs');
const path = require('path');
const tf = require('@tensorflow/tfjs');

function save(outDir, architecture, named) {
  fs.mkdirSync(outDir, {recursive: true});
  const weights = [];
  const chunks = [];
  let offset = 0;
  for (const [name, tensor] of named) {
    const values = Buffer.from(tensor.dataSync().buffer);
    weights.push({name: name, shape: tensor.shape, offset: offset / 4});
    chunks.push(values);
    offset += values.length;
  }
  fs.writeFileSync(path.join(outDir, 'weights.f32'), Buffer.concat(chunks));
  fs.writeFileSync(path.join(outDir, 'model.json'),
                   JSON.stringify(Object.assign(architecture, {weights: weights}), null, 1));
}

function readInputs(file, n, size) {
  const raw = fs.readFileSync(file);
  return tf.tensor4d(new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4),
                     [n, size, size, 3]);
}

async function keras(modelDir, outDir, inputs, count) {
  const module = require(path.resolve(modelDir, 'model.min.js'));
  const topology = module.modelTopology;
  const layers = topology.model_config.config.layers;
  const last = layers[layers.length - 1];
  if (last.class_name !== 'Dense' || last.config.activation !== 'softmax')
    throw new Error('expected the last layer to be a Dense with softmax');
  last.config.activation = 'linear';  // logits: what quantization is measured on
  const manifest = module.weightsManifest;
  const data = Buffer.concat(manifest.flatMap((group) => group.paths).map(
      (p) => Buffer.from(require(path.resolve(modelDir, p + '.min.js')), 'base64')));
  const model = await tf.loadLayersModel(tf.io.fromMemory({
    modelTopology: topology,
    weightSpecs: manifest.flatMap((group) => group.weights),
    weightData: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
  }));
  save(outDir, {kind: 'keras', layers: layers},
       model.weights.map((w) => [w.originalName || w.name, w.read()]));
  if (!inputs) return null;
  return model.predict(readInputs(inputs, count, layers[0].config.batch_input_shape[1]));
}

async function faceapi(modelDir, outDir, inputs, count) {
  const api = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
  await tf.setBackend('cpu');
  await tf.ready();
  const net = api.nets.faceRecognitionNet;
  await net.loadFromDisk(modelDir);
  const named = [];
  const walk = (prefix, value) => {
    if (value instanceof tf.Tensor) named.push([prefix, value]);
    else for (const key of Object.keys(value)) walk(prefix ? prefix + '/' + key : key, value[key]);
  };
  walk('', net.params);
  save(outDir, {kind: 'faceapi'}, named);
  if (!inputs) return null;
  const x = readInputs(inputs, count, 150).mul(255);
  const rows = [];
  for (let k = 0; k < count; ++k)
    rows.push(Array.from(await net.computeFaceDescriptor(x.slice([k, 0, 0, 0], [1, 150, 150, 3]))));
  return tf.tensor2d(rows);
}

async function main() {
  const [kind, modelDir, outDir, inputs, count] = process.argv.slice(2);
  const convert = {keras: keras, faceapi: faceapi}[kind];
  if (!convert || !outDir) throw new Error('usage: tfjs_model.js keras|faceapi MODEL_DIR OUT_DIR [INPUTS.f32 N]');
  const y = await convert(modelDir, outDir, inputs, Number(count));
  if (y) {
    fs.writeFileSync(path.join(outDir, 'tfjs_logits.f32'), Buffer.from(y.dataSync().buffer));
    console.log(`TensorFlow.js: outputs of ${count} inputs, ${y.shape.join('x')}`);
  }
}
main().catch((e) => { console.error('tfjs_model.js:', e.message); process.exit(1); });
