#!/usr/bin/python3
"""Writes testdata/models/control_flow.onnx (Loop, a nested If, Scan) and, computed here with
numpy alone (not by any ONNX runtime), the outputs it must give: testdata/recorded/control_flow.*.

Needs only numpy and onnx (Debian python3-numpy, python3-onnx); CI does not run it, it uses the
committed files (test/cli/control_flow.sh).

The model (opset 16), x: float32[4, 3], limit: int64 scalar:

    acc, accs, steps = Loop(M=4, cond=true, acc=0[3]):    body(i, cond, acc):
        row = x[i]                                          (x captured from the outer graph)
        r = If(sum(row) > threshold)                        (threshold: two scopes out)
              then: row * scale                             (scale: two scopes out, row: one)
              else: -row - float(i)                         (i: the body's iteration number)
        acc = acc + r;  cond = i + 1 < limit                (limit: an outer input)
        scan outputs: acc, i
    total, sums, doubled = Scan(0[3], x) with x read backwards (scan_input_directions [1]),
        sums stacked on axis 1 (scan_output_axes [1, 0]), doubled = 2·sum prepended
        (scan_output_directions [0, 1])

  scripts/make_control_flow.py
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "testdata", "models", "control_flow.onnx")
RECORDED = os.path.join(ROOT, "testdata", "recorded")

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
TRIPS = 4
SCALE = np.array([2.0, 0.5, -1.0], np.float32)
THRESHOLD = np.float32(0.25)
X = np.array([[0.5, 1.0, -0.25],     # sum 1.25: then
              [-1.5, 0.75, 0.5],     # sum -0.25: else
              [2.0, -3.0, 1.5],      # sum 0.5: then
              [0.125, -0.5, 0.25]],  # sum -0.125: else
             np.float32)
OUTPUTS = ["acc", "accs", "steps", "total", "sums", "doubled"]


def model():
    then_g = helper.make_graph(
        [helper.make_node("Mul", ["row", "scale"], ["then_out"], name="then_mul")],
        "then", [], [helper.make_tensor_value_info("then_out", F, [3])])
    else_g = helper.make_graph(
        [helper.make_node("Neg", ["row"], ["neg_row"], name="else_neg"),
         helper.make_node("Sub", ["neg_row", "i_float"], ["else_out"], name="else_sub")],
        "else", [], [helper.make_tensor_value_info("else_out", F, [3])])
    body = helper.make_graph(
        [helper.make_node("Gather", ["x", "i"], ["row"], name="row", axis=0),
         helper.make_node("Cast", ["i"], ["i_float"], name="i_float", to=F),
         helper.make_node("ReduceSum", ["row"], ["row_sum"], name="row_sum", keepdims=0),
         helper.make_node("Greater", ["row_sum", "threshold"], ["positive"], name="positive"),
         helper.make_node("If", ["positive"], ["r"], name="branch", then_branch=then_g,
                          else_branch=else_g),
         helper.make_node("Add", ["acc_in", "r"], ["acc_out"], name="accumulate"),
         helper.make_node("Constant", [], ["one"], name="one",
                          value=numpy_helper.from_array(np.array(1, np.int64))),
         helper.make_node("Add", ["i", "one"], ["next"], name="next"),
         helper.make_node("Less", ["next", "limit"], ["cond_out"], name="go_on"),
         helper.make_node("Identity", ["acc_out"], ["acc_scan"], name="acc_scan"),
         helper.make_node("Identity", ["i"], ["i_scan"], name="i_scan")],
        "body",
        [helper.make_tensor_value_info("i", I64, []),
         helper.make_tensor_value_info("cond_in", B, []),
         helper.make_tensor_value_info("acc_in", F, [3])],
        [helper.make_tensor_value_info("cond_out", B, []),
         helper.make_tensor_value_info("acc_out", F, [3]),
         helper.make_tensor_value_info("acc_scan", F, [3]),
         helper.make_tensor_value_info("i_scan", I64, [])])
    scan_body = helper.make_graph(
        [helper.make_node("Add", ["sum_in", "x_t"], ["sum_out"], name="scan_add"),
         helper.make_node("Identity", ["sum_out"], ["sum_scan"], name="sum_scan"),
         helper.make_node("Add", ["sum_out", "sum_out"], ["twice"], name="twice")],
        "scan_body",
        [helper.make_tensor_value_info("sum_in", F, [3]),
         helper.make_tensor_value_info("x_t", F, [3])],
        [helper.make_tensor_value_info("sum_out", F, [3]),
         helper.make_tensor_value_info("sum_scan", F, [3]),
         helper.make_tensor_value_info("twice", F, [3])])
    graph = helper.make_graph(
        [helper.make_node("Loop", ["trips", "true", "zeros"], ["acc", "accs", "steps"],
                          name="loop", body=body),
         helper.make_node("Scan", ["zeros", "x"], ["total", "sums", "doubled"], name="scan",
                          body=scan_body, num_scan_inputs=1, scan_input_directions=[1],
                          scan_output_axes=[1, 0], scan_output_directions=[0, 1])],
        "control_flow",
        [helper.make_tensor_value_info("x", F, [TRIPS, 3]),
         helper.make_tensor_value_info("limit", I64, [])],
        [helper.make_tensor_value_info("acc", F, [3]),
         helper.make_tensor_value_info("accs", F, ["steps", 3]),
         helper.make_tensor_value_info("steps", I64, ["steps"]),
         helper.make_tensor_value_info("total", F, [3]),
         helper.make_tensor_value_info("sums", F, [3, TRIPS]),
         helper.make_tensor_value_info("doubled", F, [TRIPS, 3])],
        [numpy_helper.from_array(np.array(TRIPS, np.int64), "trips"),
         numpy_helper.from_array(np.array(True), "true"),
         numpy_helper.from_array(np.zeros(3, np.float32), "zeros"),
         numpy_helper.from_array(SCALE, "scale"),
         numpy_helper.from_array(np.array(THRESHOLD, np.float32), "threshold")])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)],
                          producer_name="scripts/make_control_flow.py")
    m.ir_version = 8
    onnx.checker.check_model(m, full_check=True)
    return m


def expected(x, limit):
    """What the model computes, step by step in numpy (float32 throughout)."""
    acc = np.zeros(3, np.float32)
    accs, steps = [], []
    i, cond = 0, True
    while i < TRIPS and cond:
        row = x[i]
        if row.sum(dtype=np.float32) > THRESHOLD:
            r = row * SCALE
        else:
            r = -row - np.float32(i)
        acc = acc + r
        accs.append(acc)
        steps.append(i)
        cond = i + 1 < limit
        i += 1
    total = np.zeros(3, np.float32)
    sums, doubled = [], []
    for t in range(TRIPS):
        total = total + x[TRIPS - 1 - t]
        sums.append(total)
        doubled.append(total + total)
    return {"acc": acc, "accs": np.stack(accs), "steps": np.array(steps, np.int64),
            "total": total, "sums": np.stack(sums, axis=1), "doubled": np.stack(doubled[::-1])}


def main():
    onnx.save(model(), MODEL)
    np.save(os.path.join(RECORDED, "control_flow.x.npy"), X)
    for limit in (2, 100):  # the body's cond ends the loop; M does
        case = "control_flow.limit_%d" % limit
        np.save(os.path.join(RECORDED, case + ".npy"), np.array(limit, np.int64))
        for name, value in expected(X, limit).items():
            assert name in OUTPUTS
            np.save(os.path.join(RECORDED, "%s.%s.npy" % (case, name)), value)
    print("wrote", MODEL, "and", RECORDED + "/control_flow.*")


if __name__ == "__main__":
    main()
