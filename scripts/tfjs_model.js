// Reads a Keras model that TensorFlow.js ships as JavaScript modules (nsfwjs's bundled
// MobileNet-V2: model.min.js exports the topology and weight manifest, the shard a base64
// string), and writes what scripts/keras_to_onnx.py converts: the topology as JSON and every
// weight dequantized by TensorFlow.js itself into one float32 file. With an input file it runs
// the model in TensorFlow.js on it (the oracle of the conversion: no fxc or ONNX code).
//   node tfjs_model.js MODEL_DIR OUT_DIR [INPUTS.f32 N]
// INPUTS.f32: N samples, NHWC float32 [N, 224, 224, 3]; writes OUT_DIR/tfjs_logits.f32, the last
// Dense layer's output before its softmax.
'use strict';
const fs = require('fs');
const path = require('path');
const tf = require('@tensorflow/tfjs');

async function main() {
  const [modelDir, outDir, inputs, count] = process.argv.slice(2);
  const module = require(path.resolve(modelDir, 'model.min.js'));
  const topology = module.modelTopology;
  const layers = topology.model_config.config.layers;
  const last = layers[layers.length - 1];
  if (last.class_name !== 'Dense' || last.config.activation !== 'softmax')
    throw new Error('expected the last layer to be a Dense with softmax');
  last.config.activation = 'linear';  // logits: what quantization is measured on
  const manifest = module.weightsManifest;
  const shards = manifest[0].paths.map((p) => {
    const text = require(path.resolve(modelDir, p + '.min.js'));
    return Buffer.from(text, 'base64');
  });
  const data = Buffer.concat(shards);
  const specs = manifest.flatMap((group) => group.weights);
  const model = await tf.loadLayersModel(tf.io.fromMemory({
    modelTopology: topology,
    weightSpecs: specs,
    weightData: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
  }));
  fs.mkdirSync(outDir, {recursive: true});
  const weights = [];
  const chunks = [];
  let offset = 0;
  for (const w of model.weights) {
    const values = Buffer.from(w.read().dataSync().buffer);
    weights.push({name: w.originalName || w.name, shape: w.shape, offset: offset / 4});
    chunks.push(values);
    offset += values.length;
  }
  fs.writeFileSync(path.join(outDir, 'weights.f32'), Buffer.concat(chunks));
  fs.writeFileSync(path.join(outDir, 'model.json'),
                   JSON.stringify({layers: layers, weights: weights}, null, 1));
  if (inputs) {
    const n = Number(count);
    const raw = fs.readFileSync(inputs);
    const x = tf.tensor4d(new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4),
                          [n, 224, 224, 3]);
    const y = model.predict(x);
    fs.writeFileSync(path.join(outDir, 'tfjs_logits.f32'), Buffer.from(y.dataSync().buffer));
    console.log(`TensorFlow.js: logits of ${n} inputs`);
  }
}
main().catch((e) => { console.error('tfjs_model.js:', e.message); process.exit(1); });
