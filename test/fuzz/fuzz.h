// What the libFuzzer harnesses share (test/fuzz/README.md). Each harness is one
// LLVMFuzzerTestOneInput; built with -DFXC_FUZZ=ON it links libFuzzer, otherwise replay.cpp's
// main() runs it over files (the regression inputs ctest replays).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/graph_module.h"
#include "onnx/trace.h"

namespace fxc::fuzz {

// At the start of each input: logging off and no value larger than 8 MB (once per process: the
// fuzzers run with a 2 GB memory limit; an op asked for more must refuse, not allocate) and
// ONNX's shape inference given 500 ms (it runs for minutes on some malformed models), and a
// budget of 20,000 nodes run for this input (exec::setNodeLimit).
void setUp();

// Parses and traces the bytes as fxc trace does; nullptr when fxc refuses the model (a clean
// error). A traced graph that fails lint is a bug: it aborts.
std::unique_ptr<ir::GraphModule> traceBytes(const uint8_t* data, size_t size,
                                            const onnx::TraceOptions& options);

// Aborts with `what` when the graph fails lint (a pass or a trace left it broken).
void requireLint(const ir::GraphModule& gm, const std::string& what);

// Runs the passes of `specs` (fxc's own, so they must parse) in order, linting after each; stops
// at the first that refuses the model and returns false then.
bool runPassSpecs(ir::GraphModule& gm, const std::vector<std::string>& specs);

// A file of the source tree (testdata/...), for harnesses that run a fixed model.
std::string sourcePath(const std::string& relative);

}  // namespace fxc::fuzz
