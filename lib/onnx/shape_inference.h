// ONNX's shape inference, run where its crashes cannot take fxc down.
#pragma once

#include <chrono>
#include <string>

namespace onnx {
class ModelProto;
}

namespace fxc::onnx {

// Runs ::onnx::shape_inference::InferShapes on `model` in a worker process and copies the graph's
// value_info and output types it inferred into `model`. ONNX's code crashes on some malformed
// models (libonnx 1.13 dereferences null on a ConvTranspose whose weight has rank 2) and may run
// for long: when the worker dies, runs past a minute or fails, false, `model` is unchanged and
// `why` says what happened.
//
// The worker is forked on first use and serves every later request of the process (the fuzzers
// trace thousands of models a second; a fork and ONNX's schema set-up for each cost 20 ms and
// more). A worker that crashed or hung is replaced at the next request. It ends when fxc does.
bool inferShapesIsolated(::onnx::ModelProto& model, std::string& why);

// The time one inference may take (a minute unless set; process-wide): the fuzz harnesses give
// it 500 ms, since libonnx 1.13 runs for minutes on some malformed models.
void setShapeInferenceLimit(std::chrono::milliseconds time);

}  // namespace fxc::onnx
