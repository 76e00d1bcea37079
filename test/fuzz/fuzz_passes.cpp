// Model bytes → trace (with shapes) → every pass that does not run the model, in turn, lint after
// each → export → parse the written bytes → trace again. A pass may refuse; it may not leave a
// graph that fails lint, crash, or export a model fxc cannot read back.
#include <onnx/onnx_pb.h>

#include <string>
#include <vector>

#include "onnx/export.h"
#include "onnx/load.h"
#include "test/fuzz/fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fxc::fuzz::setUp();
  fxc::onnx::TraceOptions options;
  options.infer_shapes = true;
  auto gm = fxc::fuzz::traceBytes(data, size, options);
  if (!gm) return 0;
  static const std::vector<std::string> specs = {"identity",
                                                 "dce",
                                                 "cse",
                                                 "const-fold:max-bytes=65536",
                                                 "conv-bn",
                                                 "conv-relu",
                                                 "conv-add-relu",
                                                 "add-to-mul",
                                                 "replace-op:from=Relu,to=Sigmoid",
                                                 "simplify:max-bytes=65536",
                                                 "quant-fold-weights",
                                                 "linear-bias",
                                                 "conv-act",
                                                 "linear-act",
                                                 "bn-relu",
                                                 "channel-shuffle",
                                                 "attention:min-scores=0"};
  fxc::fuzz::runPassSpecs(*gm, specs);  // a refusal ends the sequence; the export follows
  auto exported = fxc::onnx::exportModel(*gm);
  if (!exported) return 0;
  exported.value().materialize();
  std::string bytes;
  if (!exported.value().proto->SerializeToString(&bytes)) return 0;
  auto again = fxc::fuzz::traceBytes(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                                     fxc::onnx::TraceOptions{});
  if (!again) {
    std::fprintf(stderr, "fxc fuzz: the exported model does not trace again\n");
    std::abort();
  }
  return 0;
}
