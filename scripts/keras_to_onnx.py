#!/usr/bin/env python3
"""Converts a Keras functional model (the topology and float32 weights scripts/tfjs_model.js
writes) to ONNX with NCHW activations, the layout torch.onnx writes: fxc and ONNX Runtime then see
a trained network as they see a torchvision export. Only the layers a Keras MobileNet-V2 uses are
converted; any other layer or setting is refused, never approximated.

  keras_to_onnx.py MODEL_DIR OUT.onnx
"""
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def convert(model_dir, out):
    spec = json.load(open(f"{model_dir}/model.json"))
    blob = np.fromfile(f"{model_dir}/weights.f32", dtype=np.float32)
    weights = {}
    for w in spec["weights"]:
        size = int(np.prod(w["shape"]))
        weights[w["name"]] = blob[w["offset"]:w["offset"] + size].reshape(w["shape"])

    nodes, inits = [], []
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
        raise SystemExit(f"keras_to_onnx: activation '{kind}' of layer {name} is not converted")

    def conv_pads(layer, x_layer, kh, kw, strides):
        """The Conv's input and pads: a ZeroPadding2D before it folds in; 'same' at stride 1."""
        c = layer["config"]
        if c["padding"] == "same":
            if strides != [1, 1] or kh % 2 == 0 or kw % 2 == 0:
                raise SystemExit(f"keras_to_onnx: 'same' padding of {layer['name']} at stride "
                                 f"{strides}, kernel {kh}x{kw} is not converted")
            return value_of[x_layer], [kh // 2, kw // 2, kh // 2, kw // 2]
        if c["padding"] != "valid":
            raise SystemExit(f"keras_to_onnx: padding {c['padding']} of {layer['name']}")
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
    graph_inputs, graph_outputs = [], []
    for layer in layers:
        kind, name, c = layer["class_name"], layer["name"], layer["config"]
        ins = [src[0] for inbound in layer["inbound_nodes"] for src in inbound]
        if c.get("data_format", "channels_last") != "channels_last":
            raise SystemExit(f"keras_to_onnx: {name} is not channels_last")
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
                raise SystemExit(f"keras_to_onnx: {name} pads something other than a convolution")
            pads_of[name] = (ins[0], [top, left, bottom, right])
        elif kind in ("Conv2D", "DepthwiseConv2D"):
            strides = c["strides"]
            if c["dilation_rate"] != [1, 1]:
                raise SystemExit(f"keras_to_onnx: dilated convolution {name}")
            if kind == "Conv2D":
                k = weights[f"{name}/kernel"]  # [kh, kw, in, out]
                w = k.transpose(3, 2, 0, 1)
                group = 1
            else:
                if c["depth_multiplier"] != 1:
                    raise SystemExit(f"keras_to_onnx: depth multiplier of {name}")
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
            if c["axis"] not in (-1, 3) or not c["center"] or not c["scale"]:
                raise SystemExit(f"keras_to_onnx: BatchNormalization {name}'s settings")
            params = [const(f"{name}.{p}", weights[f"{name}/{k}"])
                      for p, k in (("weight", "gamma"), ("bias", "beta"),
                                   ("running_mean", "moving_mean"),
                                   ("running_var", "moving_variance"))]
            nodes.append(helper.make_node("BatchNormalization", [value_of[ins[0]]] + params,
                                          [name], name=name, epsilon=c["epsilon"]))
            value_of[name] = name
        elif kind == "ReLU":
            if c.get("negative_slope", 0) != 0 or c.get("threshold", 0) != 0:
                raise SystemExit(f"keras_to_onnx: leaky or thresholded ReLU {name}")
            if c.get("max_value") is None:
                nodes.append(helper.make_node("Relu", [value_of[ins[0]]], [name], name=name))
            else:
                lo = const(f"{name}.min", np.array(0, np.float32))
                hi = const(f"{name}.max", np.array(c["max_value"], np.float32))
                nodes.append(helper.make_node("Clip", [value_of[ins[0]], lo, hi], [name],
                                              name=name))
            value_of[name] = name
        elif kind == "Add":
            if len(ins) != 2:
                raise SystemExit(f"keras_to_onnx: Add {name} of {len(ins)} operands")
            nodes.append(helper.make_node("Add", [value_of[i] for i in ins], [name], name=name))
            value_of[name] = name
        elif kind == "AveragePooling2D":
            if c["padding"] != "valid":
                raise SystemExit(f"keras_to_onnx: padded average pooling {name}")
            nodes.append(helper.make_node("AveragePool", [value_of[ins[0]]], [name], name=name,
                                          kernel_shape=c["pool_size"], strides=c["strides"]))
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
            raise SystemExit(f"keras_to_onnx: layer {name} of class {kind} is not converted")
    last = layers[-1]["name"]
    nodes.append(helper.make_node("Identity", [value_of[last]], ["logits"], name="output"))
    units = layers[-1]["config"]["units"]
    graph_outputs.append(helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", units]))
    graph = helper.make_graph(nodes, "keras_model", graph_inputs, graph_outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="fxc keras_to_onnx.py")
    onnx.checker.check_model(model)
    onnx.save(model, out)
    print(f"{out}: {len(nodes)} nodes, {sum(np.prod(t.dims) for t in inits)} weights")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    convert(sys.argv[1], sys.argv[2])
