// Pooling kernels beyond the 2-D windows of kernels_nn.cpp: GlobalMaxPool (torch's
// adaptive_max_pool2d to size 1, any spatial rank) and MaxUnpool.
#include <algorithm>
#include <cmath>
#include <limits>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

std::vector<Value> globalMaxPool(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  if (x.shape.size() < 3) throw ExecError("GlobalMaxPool needs rank >= 3");
  int64_t planes = x.shape[0] * x.shape[1], inner = x.numel() / std::max<int64_t>(planes, 1);
  if (inner == 0) throw ExecError("GlobalMaxPool of an empty plane");
  std::vector<int64_t> shape = x.shape;
  for (size_t k = 2; k < shape.size(); ++k) shape[k] = 1;
  Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(planes)));
  for (int64_t p = 0; p < planes; ++p) {
    const float* in = x.f.data() + p * inner;
    y.f[static_cast<size_t>(p)] = *std::max_element(in, in + inner, [](float a, float b) {
      return a < b || std::isnan(b);  // a NaN in the plane is the result, as in torch
    });
  }
  return outputs(std::move(y));
}

// MaxUnpool(X, I, output_shape?): zeros, with each X[k] written at the flat index I[k] of the
// output (MaxPool's Indices: over the whole tensor, row-major). The output's spatial size is
// (in − 1)·stride + kernel − pads.
std::vector<Value> maxUnpool(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  const Value& indices = c.input(1);
  if (indices.isFloat() || indices.shape != x.shape)
    throw ExecError("MaxUnpool's indices must be integers shaped like its input");
  if (x.shape.size() < 3) throw ExecError("MaxUnpool needs rank >= 3");
  size_t spatial = x.shape.size() - 2;
  std::vector<int64_t> kernel = c.intsAttribute("kernel_shape", {});
  std::vector<int64_t> strides = c.intsAttribute("strides", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> pads = c.intsAttribute("pads", std::vector<int64_t>(2 * spatial, 0));
  if (kernel.size() != spatial || strides.size() != spatial || pads.size() != 2 * spatial)
    throw ExecError("MaxUnpool's kernel_shape, strides and pads do not match the input rank");
  std::vector<int64_t> shape = x.shape;
  for (size_t d = 0; d < spatial; ++d)
    shape[d + 2] = (x.shape[d + 2] - 1) * strides[d] + kernel[d] - pads[d] - pads[d + spatial];
  // Where indices land in a larger output_shape is read two ways (ONNX's test: in the default
  // shape's coordinates, then padded at the end; ONNX Runtime: flat in the larger output).
  if (const Value* given = c.optionalInput(2); given && given->asInts() != shape)
    throw ExecError("unsupported: MaxUnpool with an output_shape " + shapeText(given->asInts()) +
                    " other than the default " + shapeText(shape));
  int64_t n = checkedNumel(shape);
  Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(n), 0.0f));
  for (size_t k = 0; k < x.f.size(); ++k) {
    int64_t at = indices.i[k];
    if (at < 0 || at >= n)
      throw ExecError("MaxUnpool index " + std::to_string(at) + " is outside the output " +
                      shapeText(shape));
    y.f[static_cast<size_t>(at)] = x.f[k];
  }
  return outputs(std::move(y));
}

}  // namespace

void addPoolingKernels(KernelTable& t) {
  add(t, {"torch.nn.functional.adaptive_max_pool2d", "module:AdaptiveMaxPool2d"}, globalMaxPool);
  add(t, {"onnx.MaxUnpool"}, maxUnpool);
}

}  // namespace fxc::exec
