#!/usr/bin/env python3
"""Converts a trained network that scripts/tfjs_model.js read from an npm package (its
architecture and float32 weights) to ONNX with NCHW activations, the layout torch.onnx writes:
fxc and ONNX Runtime then see a trained network as they see a torchvision export. Two kinds:
- keras: a Keras functional model; only the layers Keras's MobileNet-V2 and Inception-v3 use are
  converted, any other layer or setting is refused, never approximated;
- faceapi: face-api's FaceRecognitionNet (dlib's ResNet-34 face embedding), written after its
  forward code (FaceRecognitionNet.ts, convLayer.ts, residualLayer.ts); its per-channel scale
  layers as BatchNormalization with mean 0, variance 1 and epsilon 0 (exactly x * w + b).
Both take an NCHW input in [0, 1] (face-api's pixel mean is subtracted in the graph).

  tfjs_to_onnx.py MODEL_DIR OUT.onnx
"""
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def keras(spec, weights, nodes, inits):
    value_of = {}  # Keras layer name -> ONNX value name
    pads_of = {}   # ZeroPadding2D layer name -> (its input, [top, left, bottom, right])

    def const(name, array):
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array, dtype=np.float32), name))
        return name

    def activation(name, value, kind):
        if kind == "linear":
            return value
        if kind == "relu":
            nodes.append(helper.make_node("Relu", [value], [name + "_relu"], name=name + "_relu"))
            return name + "_relu"
        raise SystemExit(f"tfjs_to_onnx: activation '{kind}' of layer {name} is not converted")

    def conv_pads(layer, x_layer, kh, kw, strides):
        """The Conv's input and pads: a ZeroPadding2D before it folds in; 'same' at stride 1."""
        c = layer["config"]
        if c["padding"] == "same":
            if strides != [1, 1] or kh % 2 == 0 or kw % 2 == 0:
                raise SystemExit(f"tfjs_to_onnx: 'same' padding of {layer['name']} at stride "
                                 f"{strides}, kernel {kh}x{kw} is not converted")
            return value_of[x_layer], [kh // 2, kw // 2, kh // 2, kw // 2]
        if c["padding"] != "valid":
            raise SystemExit(f"tfjs_to_onnx: padding {c['padding']} of {layer['name']}")
        if x_layer in pads_of:
            source, pads = pads_of[x_layer]
            return value_of[source], pads
        return value_of[x_layer], [0, 0, 0, 0]

    layers = spec["layers"]
    users = {}
    for layer in layers:
        for inbound in layer["inbound_nodes"]:
            for src in inbound:
                users.setdefault(src[0], []).append(layer["name"])
    graph_inputs = []
    for layer in layers:
        kind, name, c = layer["class_name"], layer["name"], layer["config"]
        ins = [src[0] for inbound in layer["inbound_nodes"] for src in inbound]
        if c.get("data_format", "channels_last") != "channels_last":
            raise SystemExit(f"tfjs_to_onnx: {name} is not channels_last")
        if kind == "InputLayer":
            shape = c["batch_input_shape"]
            graph_inputs.append(helper.make_tensor_value_info(
                "input", TensorProto.FLOAT, ["batch", shape[3], shape[1], shape[2]]))
            value_of[name] = "input"
        elif kind == "ZeroPadding2D":
            (top, bottom), (left, right) = c["padding"]
            if any(users[name].count(u) != 1 for u in users[name]) or not all(
                    next(l for l in layers if l["name"] == u)["class_name"]
                    in ("Conv2D", "DepthwiseConv2D") for u in users[name]):
                raise SystemExit(f"tfjs_to_onnx: {name} pads something other than a convolution")
            pads_of[name] = (ins[0], [top, left, bottom, right])
        elif kind in ("Conv2D", "DepthwiseConv2D"):
            strides = c["strides"]
            if c["dilation_rate"] != [1, 1]:
                raise SystemExit(f"tfjs_to_onnx: dilated convolution {name}")
            if kind == "Conv2D":
                k = weights[f"{name}/kernel"]  # [kh, kw, in, out]
                w = k.transpose(3, 2, 0, 1)
                group = 1
            else:
                if c["depth_multiplier"] != 1:
                    raise SystemExit(f"tfjs_to_onnx: depth multiplier of {name}")
                k = weights[f"{name}/depthwise_kernel"]  # [kh, kw, in, 1]
                w = k.transpose(2, 3, 0, 1)
                group = k.shape[2]
            x, pads = conv_pads(layer, ins[0], k.shape[0], k.shape[1], strides)
            inputs = [x, const(f"{name}.weight", w)]
            if c["use_bias"]:
                inputs.append(const(f"{name}.bias", weights[f"{name}/bias"]))
            nodes.append(helper.make_node("Conv", inputs, [name], name=name, group=group,
                                          kernel_shape=list(k.shape[:2]), strides=strides,
                                          pads=pads, dilations=[1, 1]))
            value_of[name] = activation(name, name, c["activation"])
        elif kind == "BatchNormalization":
            if c["axis"] not in (-1, 3) or not c["center"]:
                raise SystemExit(f"tfjs_to_onnx: BatchNormalization {name}'s settings")
            beta = weights[f"{name}/beta"]
            gamma = weights[f"{name}/gamma"] if c["scale"] else np.ones_like(beta)
            params = [const(f"{name}.weight", gamma), const(f"{name}.bias", beta)] + [
                const(f"{name}.{p}", weights[f"{name}/{k}"])
                for p, k in (("running_mean", "moving_mean"), ("running_var", "moving_variance"))]
            nodes.append(helper.make_node("BatchNormalization", [value_of[ins[0]]] + params,
                                          [name], name=name, epsilon=c["epsilon"]))
            value_of[name] = name
        elif kind == "ReLU":
            if c.get("negative_slope", 0) != 0 or c.get("threshold", 0) != 0:
                raise SystemExit(f"tfjs_to_onnx: leaky or thresholded ReLU {name}")
            if c.get("max_value") is None:
                nodes.append(helper.make_node("Relu", [value_of[ins[0]]], [name], name=name))
            else:
                lo = const(f"{name}.min", np.array(0, np.float32))
                hi = const(f"{name}.max", np.array(c["max_value"], np.float32))
                nodes.append(helper.make_node("Clip", [value_of[ins[0]], lo, hi], [name],
                                              name=name))
            value_of[name] = name
        elif kind == "Activation":
            value_of[name] = activation(name, value_of[ins[0]], c["activation"])
        elif kind == "Concatenate":
            if c["axis"] not in (-1, 3):
                raise SystemExit(f"tfjs_to_onnx: Concatenate {name} along axis {c['axis']}")
            nodes.append(helper.make_node("Concat", [value_of[i] for i in ins], [name], name=name,
                                          axis=1))
            value_of[name] = name
        elif kind == "MaxPooling2D":
            if c["padding"] != "valid":
                raise SystemExit(f"tfjs_to_onnx: padded max pooling {name}")
            nodes.append(helper.make_node("MaxPool", [value_of[ins[0]]], [name], name=name,
                                          kernel_shape=c["pool_size"], strides=c["strides"]))
            value_of[name] = name
        elif kind == "Add":
            if len(ins) != 2:
                raise SystemExit(f"tfjs_to_onnx: Add {name} of {len(ins)} operands")
            nodes.append(helper.make_node("Add", [value_of[i] for i in ins], [name], name=name))
            value_of[name] = name
        elif kind == "AveragePooling2D":
            kh, kw = c["pool_size"]
            if c["padding"] == "same":  # TensorFlow averages over the window's inputs only
                if c["strides"] != [1, 1] or kh % 2 == 0 or kw % 2 == 0:
                    raise SystemExit(f"tfjs_to_onnx: 'same' average pooling {name}")
                pads = [kh // 2, kw // 2, kh // 2, kw // 2]
            elif c["padding"] == "valid":
                pads = [0, 0, 0, 0]
            else:
                raise SystemExit(f"tfjs_to_onnx: padding {c['padding']} of {name}")
            nodes.append(helper.make_node("AveragePool", [value_of[ins[0]]], [name], name=name,
                                          kernel_shape=[kh, kw], strides=c["strides"], pads=pads,
                                          count_include_pad=0))
            value_of[name] = name
        elif kind == "Flatten":
            # Keras flattens NHWC: channels innermost.
            nodes.append(helper.make_node("Transpose", [value_of[ins[0]]], [name + "_nhwc"],
                                          name=name + "_nhwc", perm=[0, 2, 3, 1]))
            nodes.append(helper.make_node("Flatten", [name + "_nhwc"], [name], name=name, axis=1))
            value_of[name] = name
        elif kind == "Dense":
            inputs = [value_of[ins[0]], const(f"{name}.weight", weights[f"{name}/kernel"])]
            if c["use_bias"]:
                inputs.append(const(f"{name}.bias", weights[f"{name}/bias"]))
            nodes.append(helper.make_node("Gemm", inputs, [name], name=name))
            value_of[name] = activation(name, name, c["activation"])
        elif kind == "Dropout":
            value_of[name] = value_of[ins[0]]  # inference: the identity
        else:
            raise SystemExit(f"tfjs_to_onnx: layer {name} of class {kind} is not converted")
    return graph_inputs[0], value_of[layers[-1]["name"]], layers[-1]["config"]["units"]


def faceapi(weights, nodes, inits):
    """FaceRecognitionNet.forwardInput, op by op; sizes tracked to mirror residualDown's checks."""
    def const(name, array, dtype=np.float32):
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array, dtype=dtype), name))
        return name

    def node(op, inputs, name, **attrs):
        nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    def conv_layer(x, prefix, stride, relu, same):  # convLayer.ts: conv, + bias, scale, relu
        k = weights[f"{prefix}/conv/filters"]  # [kh, kw, in, out]
        kh, kw = k.shape[:2]
        if same and (stride != 1 or kh % 2 == 0):
            raise SystemExit(f"tfjs_to_onnx: 'same' padding of {prefix} at stride {stride}")
        pads = [kh // 2, kw // 2, kh // 2, kw // 2] if same else [0, 0, 0, 0]
        name = prefix.replace("/", ".")
        y = node("Conv", [x, const(f"{name}.weight", k.transpose(3, 2, 0, 1)),
                          const(f"{name}.bias", weights[f"{prefix}/conv/bias"])],
                 name, kernel_shape=[kh, kw], strides=[stride, stride], pads=pads)
        c = k.shape[3]
        y = node("BatchNormalization",
                 [y, const(f"{name}.scale.weight", weights[f"{prefix}/scale/weights"]),
                  const(f"{name}.scale.bias", weights[f"{prefix}/scale/biases"]),
                  const(f"{name}.scale.zero", np.zeros(c)), const(f"{name}.scale.one", np.ones(c))],
                 f"{name}.scale", epsilon=0.0)
        return (node("Relu", [y], f"{name}.relu") if relu else y), c

    def out_size(size, k, stride):
        return (size - k) // stride + 1

    mean = np.array([122.782, 117.001, 104.298], np.float32).reshape(1, 3, 1, 1) / 255
    x = node("Sub", ["input", const("pixel_mean", mean)], "normalized")
    x, channels = conv_layer(x, "conv32_down", 2, True, False)
    size = out_size(150, 7, 2)
    x = node("MaxPool", [x], "maxpool", kernel_shape=[3, 3], strides=[2, 2])
    size = out_size(size, 3, 2)
    for block in ("conv32_1", "conv32_2", "conv32_3", "conv64_down", "conv64_1", "conv64_2",
                  "conv64_3", "conv128_down", "conv128_1", "conv128_2", "conv256_down",
                  "conv256_1", "conv256_2", "conv256_down_out"):
        down = block.endswith(("_down", "_down_out"))
        y, c = conv_layer(x, f"{block}/conv1", 2 if down else 1, True, not down)
        y, c = conv_layer(y, f"{block}/conv2", 1, False, True)
        if down:  # residualDown: average-pooled shortcut; zeros where the two differ
            shortcut = node("AveragePool", [x], f"{block}.pool", kernel_shape=[2, 2],
                            strides=[2, 2])
            conv_size, pool_size = out_size(size, 3, 2), out_size(size, 2, 2)
            if conv_size != pool_size:  # one zero row and column after the convolution's
                if pool_size != conv_size + 1:
                    raise SystemExit(f"tfjs_to_onnx: {block}'s sizes {conv_size}, {pool_size}")
                y = node("Pad", [y, const(f"{block}.pad_hw_amounts", np.array([0, 0, 0, 0, 0, 0, 1, 1]), np.int64)],
                         f"{block}.pad_hw")
            if c != channels:  # the shortcut's channels, then as many zero channels
                if c != 2 * channels:
                    raise SystemExit(f"tfjs_to_onnx: {block}'s channels {channels} -> {c}")
                shortcut = node("Pad", [shortcut, const(f"{block}.pad_c_amounts",
                                                        np.array([0, 0, 0, 0, 0, channels, 0, 0]), np.int64)],
                                f"{block}.pad_c")
            size, x = pool_size, shortcut
        channels = c
        x = node("Relu", [node("Add", [y, x], f"{block}.add")], f"{block}.relu")
    x = node("Flatten", [node("GlobalAveragePool", [x], "mean")], "flatten", axis=1)
    return (helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", 3, 150, 150]),
            node("MatMul", [x, const("fc.weight", weights["fc"])], "fc"), weights["fc"].shape[1])


def convert(model_dir, out):
    spec = json.load(open(f"{model_dir}/model.json"))
    blob = np.fromfile(f"{model_dir}/weights.f32", dtype=np.float32)
    weights = {}
    for w in spec["weights"]:
        size = int(np.prod(w["shape"]))
        weights[w["name"]] = blob[w["offset"]:w["offset"] + size].reshape(w["shape"])
    nodes, inits = [], []
    if spec["kind"] == "keras":
        graph_input, last, units = keras(spec, weights, nodes, inits)
    else:
        graph_input, last, units = faceapi(weights, nodes, inits)
    nodes.append(helper.make_node("Identity", [last], ["logits"], name="output"))
    graph_outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", units])]
    graph = helper.make_graph(nodes, spec["kind"], [graph_input], graph_outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="fxc tfjs_to_onnx.py")
    onnx.checker.check_model(model)
    onnx.save(model, out)
    print(f"{out}: {len(nodes)} nodes, {sum(np.prod(t.dims) for t in inits)} weights")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    convert(sys.argv[1], sys.argv[2])
