#!/usr/bin/env python3
"""Carries a big ONNX model without its weights, for a machine that cannot export it.

  scripts/onnx_weights.py strip IN OUT   drop the data of every float initializer of 1024 elements
                                         or more (names and shapes stay; the list goes into the
                                         model's metadata): resnet50 100 MB -> 30 kB
  scripts/onnx_weights.py fill IN OUT    give each stripped initializer seeded random values, the
                                         same on every machine: N(0, 2/fan_in) for weights of rank
                                         2 or more (fan_in: every dimension but the first), N(0,
                                         0.02) for vectors, U(0.5, 1.5) for BatchNormalization's
                                         scale and variance

For timing runs (scripts/bench_gpu.sh on the device tool's machine, where Debian's torch 1.13 is
not available to export): the values are random, so the outputs mean nothing, but every kernel sees
full-size shapes and well-scaled data. Needs python3 with onnx and numpy (scripts/setup.sh torch).
"""
import sys
import zlib

KEY = "fxc.stripped_initializers"


def strip(model):
    stripped = []
    for tensor in model.graph.initializer:
        count = 1
        for d in tensor.dims:
            count *= d
        if tensor.data_type == 1 and count >= 1024 and tensor.data_location == 0:
            tensor.ClearField("raw_data")
            tensor.ClearField("float_data")
            stripped.append(tensor.name)
    entry = model.metadata_props.add()
    entry.key = KEY
    entry.value = "\n".join(stripped)
    return len(stripped)


def fill(model):
    import numpy as np

    names = None
    for k, entry in enumerate(model.metadata_props):
        if entry.key == KEY:
            names = set(filter(None, entry.value.split("\n")))
            del model.metadata_props[k]
            break
    if names is None:
        raise SystemExit("onnx_weights: the model was not stripped by this script")
    # BatchNormalization's scale and variance: positive, near 1.
    positive = set()
    for node in model.graph.node:
        if node.op_type == "BatchNormalization":
            positive.update(node.input[k] for k in (1, 4) if k < len(node.input))
    for tensor in model.graph.initializer:
        if tensor.name not in names:
            continue
        rng = np.random.default_rng(zlib.crc32(tensor.name.encode()))
        dims = list(tensor.dims)
        if tensor.name in positive:
            values = rng.uniform(0.5, 1.5, dims)
        elif len(dims) >= 2:
            fan_in = int(np.prod(dims[1:]))
            values = rng.normal(0.0, np.sqrt(2.0 / fan_in), dims)
        else:
            values = rng.normal(0.0, 0.02, dims)
        tensor.raw_data = values.astype("<f4").tobytes()
    return len(names)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("strip", "fill"):
        raise SystemExit(__doc__)
    import onnx

    model = onnx.load(sys.argv[2])
    count = (strip if sys.argv[1] == "strip" else fill)(model)
    onnx.save(model, sys.argv[3])
    print("%s: %d initializers %s" % (sys.argv[3], count, "stripped" if sys.argv[1] == "strip" else "filled"))


if __name__ == "__main__":
    main()
