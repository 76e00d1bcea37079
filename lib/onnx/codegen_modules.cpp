// fxc codegen: ONNX-semantics modules of the IR as torch.nn modules. Each mapping states the
// attributes PyTorch's module computes with; any other value of them is refused, never rounded
// to the nearest torch.nn module.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <unordered_map>

#include "ir/expected.h"
#include "onnx/codegen_internal.h"

namespace fxc::onnx::codegen {
namespace {

struct Context {
  const ir::Module& module;
  const std::string& path;
  int input_rank;
  std::vector<StateTensor>& state;

  [[noreturn]] void refuse(const std::string& why) const {
    throw ModelError("module '" + path + "' (" + module.type() + "): " + why);
  }
  const ir::Argument* attribute(const char* name) const { return module.attribute(name); }
  int64_t intAttribute(const char* name, int64_t fallback) const {
    const ir::Argument* value = attribute(name);
    if (!value) return fallback;
    if (value->kind() != ir::Argument::Kind::kInt) refuse(std::string(name) + " is not an int");
    return value->toInt();
  }
  double floatAttribute(const char* name, double fallback) const {
    return module.numberAttribute(name, fallback);
  }
  std::string stringAttribute(const char* name, const std::string& fallback) const {
    const ir::Argument* value = attribute(name);
    if (!value) return fallback;
    if (value->kind() != ir::Argument::Kind::kString) refuse(std::string(name) + " is not text");
    return value->toString();
  }
  std::vector<int64_t> intsAttribute(const char* name, std::vector<int64_t> fallback) const {
    const ir::Argument* value = attribute(name);
    if (!value) return fallback;
    if (!value->isSequence()) refuse(std::string(name) + " is not a list of ints");
    std::vector<int64_t> out;
    for (const ir::Argument& item : value->items()) {
      if (item.kind() != ir::Argument::Kind::kInt) refuse(std::string(name) + " is not ints");
      out.push_back(item.toInt());
    }
    return out;
  }
  // Only these attributes may be set (to anything the mapping then checks).
  void onlyAttributes(std::initializer_list<const char*> allowed) const {
    for (const auto& [key, value] : module.attributes()) {
      bool known = false;
      for (const char* name : allowed) known = known || key == name;
      if (!known) refuse("attribute " + key + " has no torch.nn counterpart here");
    }
  }
  // The module's tensors must be among `names` (and `_tensor_constant*`, the constants a
  // recognized module was proved from, when `proofs`); those present become state entries.
  void takeTensors(std::initializer_list<const char*> names, bool proofs = false) const {
    for (const auto& [name, tensor] : module.tensors()) {
      bool known = false;
      for (const char* allowed : names) known = known || name == allowed;
      if (known) {
        state.push_back(stateOf(path + "." + name, *tensor));
      } else if (!(proofs && name.rfind("_tensor_constant", 0) == 0)) {
        refuse("tensor " + name + " has no place in the torch.nn module");
      }
    }
  }
  const ir::Tensor& tensor(const char* name) const {
    auto found = module.tensor(name);
    if (!found) refuse("no " + std::string(name));
    return *found;
  }
  bool hasTensor(const char* name) const { return module.tensor(name) != nullptr; }
  double scalar(const char* name) const {
    const ir::Tensor& t = tensor(name);
    if (t.numel() != 1) refuse(std::string(name) + " is not a scalar");
    if (t.dtype == ir::DType::kFloat32) {
      float v;
      std::memcpy(&v, t.bytes(), sizeof v);
      return v;
    }
    if (t.dtype == ir::DType::kFloat64) {
      double v;
      std::memcpy(&v, t.bytes(), sizeof v);
      return v;
    }
    refuse(std::string(name) + " is not a float");
  }
};

// Spatial rank from the type's suffix: Conv2d → 2.
int spatialRank(const std::string& type) {
  if (type.size() < 2 || type.back() != 'd') return 0;
  char digit = type[type.size() - 2];
  return digit >= '1' && digit <= '3' ? digit - '0' : 0;
}

// Symmetric ONNX pads [b0, b1, ..., e0, e1, ...] as PyTorch's padding.
std::vector<int64_t> symmetricPads(const Context& c, size_t rank) {
  auto pads = c.intsAttribute("pads", std::vector<int64_t>(2 * rank, 0));
  if (pads.size() != 2 * rank) c.refuse("pads do not fit the kernel");
  for (size_t i = 0; i < rank; ++i) {
    if (pads[i] != pads[i + rank]) c.refuse("asymmetric pads (torch.nn pads both sides equally)");
  }
  if (c.stringAttribute("auto_pad", "NOTSET") != "NOTSET") c.refuse("auto_pad");
  return {pads.begin(), pads.begin() + static_cast<long>(rank)};
}

std::string convolution(const Context& c, bool transposed) {
  c.onlyAttributes(
      {"kernel_shape", "strides", "pads", "dilations", "group", "auto_pad", "output_padding"});
  const ir::Tensor& weight = c.tensor("weight");
  size_t rank = static_cast<size_t>(spatialRank(c.module.type()));
  if (rank == 0 || weight.dims.size() != rank + 2) c.refuse("the weight does not fit the type");
  std::vector<int64_t> kernel(weight.dims.begin() + 2, weight.dims.end());
  if (c.intsAttribute("kernel_shape", kernel) != kernel)
    c.refuse("kernel_shape is not the weight's");
  auto strides = c.intsAttribute("strides", std::vector<int64_t>(rank, 1));
  auto dilations = c.intsAttribute("dilations", std::vector<int64_t>(rank, 1));
  auto padding = symmetricPads(c, rank);
  int64_t group = c.intAttribute("group", 1);
  if (strides.size() != rank || dilations.size() != rank) c.refuse("strides or dilations");
  bool bias = c.hasTensor("bias");
  c.takeTensors({"weight", "bias"});
  std::string n = std::to_string(rank);
  if (!transposed) {
    if (c.attribute("output_padding")) c.refuse("output_padding on a convolution");
    return "torch.nn.Conv" + n + "d(" + std::to_string(weight.dims[1] * group) + ", " +
           std::to_string(weight.dims[0]) + ", kernel_size=" + pyTuple(kernel) +
           ", stride=" + pyTuple(strides) + ", padding=" + pyTuple(padding) +
           ", dilation=" + pyTuple(dilations) + ", groups=" + std::to_string(group) +
           ", bias=" + (bias ? "True" : "False") + ")";
  }
  auto output_padding = c.intsAttribute("output_padding", std::vector<int64_t>(rank, 0));
  if (output_padding.size() != rank) c.refuse("output_padding");
  return "torch.nn.ConvTranspose" + n + "d(" + std::to_string(weight.dims[0]) + ", " +
         std::to_string(weight.dims[1] * group) + ", kernel_size=" + pyTuple(kernel) +
         ", stride=" + pyTuple(strides) + ", padding=" + pyTuple(padding) +
         ", output_padding=" + pyTuple(output_padding) + ", groups=" + std::to_string(group) +
         ", bias=" + (bias ? "True" : "False") + ", dilation=" + pyTuple(dilations) + ")";
}

std::string batchNorm(const Context& c) {
  c.onlyAttributes({"epsilon", "momentum", "training_mode", "spatial"});
  if (c.intAttribute("training_mode", 0) != 0) c.refuse("training mode");
  if (c.intAttribute("spatial", 1) != 1) c.refuse("spatial = 0");
  for (const char* name : {"weight", "bias", "running_mean", "running_var"}) c.tensor(name);
  const ir::Tensor& weight = c.tensor("weight");
  if (weight.dims.size() != 1) c.refuse("the scale is not one value per channel");
  c.takeTensors({"weight", "bias", "running_mean", "running_var"});
  // ONNX's momentum weighs the running value, PyTorch's the new one.
  double momentum = 1.0 - c.floatAttribute("momentum", 0.9);
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", momentum);
  // torch.nn's BatchNorm classes check the input's rank, ONNX's op takes any: the class is the
  // input's ([N, C] and [N, C, L] are BatchNorm1d); of an input of unknown rank, none (the
  // module type's guess, BatchNorm2d, refused a 3-D input).
  if (c.input_rank < 2) c.refuse("an input of unknown rank");
  int rank = std::max(1, c.input_rank - 2);
  if (rank > 3) c.refuse("an input of rank " + std::to_string(c.input_rank));
  return "torch.nn.BatchNorm" + std::to_string(rank) + "d(" + std::to_string(weight.dims[0]) +
         ", eps=" + pyNumber(c.floatAttribute("epsilon", 1e-5)) + ", momentum=" + text + ")";
}

std::string linear(const Context& c) {
  c.onlyAttributes({"alpha", "beta", "transA", "transB"});
  if (c.intAttribute("transA", 0) != 0) c.refuse("transA");
  if (c.floatAttribute("alpha", 1.0) != 1.0 || c.floatAttribute("beta", 1.0) != 1.0)
    c.refuse("alpha or beta other than 1");
  const ir::Tensor& weight = c.tensor("weight");
  if (weight.dims.size() != 2) c.refuse("the weight is not 2-D");
  bool transposed = c.intAttribute("transB", 0) != 0;  // ONNX's B is [in, out] unless transB
  int64_t in = transposed ? weight.dims[1] : weight.dims[0];
  int64_t out = transposed ? weight.dims[0] : weight.dims[1];
  c.takeTensors({"weight", "bias"});
  for (StateTensor& entry : c.state) {
    if (entry.name == c.path + ".weight" && !transposed) {
      size_t size = ir::dtypeSize(entry.dtype);
      std::string t(entry.bytes.size(), '\0');
      for (int64_t i = 0; i < in; ++i) {
        for (int64_t o = 0; o < out; ++o)
          std::memcpy(&t[static_cast<size_t>(o * in + i) * size],
                      &entry.bytes[static_cast<size_t>(i * out + o) * size], size);
      }
      entry.bytes = std::move(t);
      entry.dims = {out, in};
    }
    if (entry.name == c.path + ".bias") {
      int64_t count = 1;
      for (int64_t d : entry.dims) count *= d;
      if (count != out || entry.dims.size() > 2 || (entry.dims.size() == 2 && entry.dims[0] != 1))
        c.refuse("the bias is not one value per output");
      entry.dims = {out};
    }
  }
  return "torch.nn.Linear(" + std::to_string(in) + ", " + std::to_string(out) +
         ", bias=" + (c.hasTensor("bias") ? "True" : "False") + ")";
}

std::string layerNorm(const Context& c) {
  c.onlyAttributes({"axis", "epsilon", "stash_type"});
  if (c.intAttribute("stash_type", 1) != 1) c.refuse("stash_type");
  if (!c.hasTensor("bias")) c.refuse("no bias (torch.nn.LayerNorm of this torch has one)");
  const ir::Tensor& weight = c.tensor("weight");
  int64_t axis = c.intAttribute("axis", -1);
  if (axis >= 0) {
    if (c.input_rank < 0) c.refuse("axis counted from the front on an input of unknown rank");
    axis -= c.input_rank;
  }
  if (static_cast<int64_t>(weight.dims.size()) != -axis || c.tensor("bias").dims != weight.dims)
    c.refuse("the scale and bias are not shaped as the normalized axes");
  c.takeTensors({"weight", "bias"}, /*proofs=*/true);
  return "torch.nn.LayerNorm(" + pyTuple(weight.dims) +
         ", eps=" + pyNumber(c.floatAttribute("epsilon", 1e-5)) + ")";
}

std::string pool(const Context& c, bool max) {
  c.onlyAttributes({"kernel_shape", "strides", "pads", "dilations", "ceil_mode", "auto_pad",
                    "count_include_pad", "storage_order"});
  size_t rank = static_cast<size_t>(spatialRank(c.module.type()));
  auto kernel = c.intsAttribute("kernel_shape", {});
  if (rank == 0 || kernel.size() != rank) c.refuse("kernel_shape");
  auto strides = c.intsAttribute("strides", std::vector<int64_t>(rank, 1));
  auto dilations = c.intsAttribute("dilations", std::vector<int64_t>(rank, 1));
  auto padding = symmetricPads(c, rank);
  for (size_t i = 0; i < rank; ++i) {
    if (2 * padding[i] > kernel[i]) c.refuse("padding over half the kernel");
  }
  if (c.intAttribute("storage_order", 0) != 0) c.refuse("storage_order");
  // A recognized AvgPool2d keeps the Pad's constant it was proved from; its attributes say all.
  c.takeTensors({}, /*proofs=*/!max);
  std::string n = std::to_string(rank);
  std::string ceil = c.intAttribute("ceil_mode", 0) ? "True" : "False";
  if (max)
    return "torch.nn.MaxPool" + n + "d(" + pyTuple(kernel) + ", stride=" + pyTuple(strides) +
           ", padding=" + pyTuple(padding) + ", dilation=" + pyTuple(dilations) +
           ", ceil_mode=" + ceil + ")";
  if (dilations != std::vector<int64_t>(rank, 1)) c.refuse("a dilated average pool");
  return "torch.nn.AvgPool" + n + "d(" + pyTuple(kernel) + ", stride=" + pyTuple(strides) +
         ", padding=" + pyTuple(padding) + ", ceil_mode=" + ceil +
         ", count_include_pad=" + (c.intAttribute("count_include_pad", 0) ? "True" : "False") + ")";
}

// Integer elements of a zero point (int8, uint8, int32) as int64.
std::vector<int64_t> integers(const Context& c, const ir::Tensor& t) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t.numel(); ++i) {
    const char* at = t.bytes() + i * static_cast<int64_t>(ir::dtypeSize(t.dtype));
    switch (t.dtype) {
      case ir::DType::kInt8:
        out.push_back(static_cast<int8_t>(*at));
        break;
      case ir::DType::kUInt8:
        out.push_back(static_cast<uint8_t>(*at));
        break;
      case ir::DType::kInt32: {
        int32_t v;
        std::memcpy(&v, at, 4);
        out.push_back(v);
        break;
      }
      default:
        c.refuse("a zero point of " + std::string(ir::dtypeName(t.dtype)));
    }
  }
  return out;
}

StateTensor floats(const std::string& name, const std::vector<float>& values,
                   std::vector<int64_t> dims) {
  StateTensor out{name, ir::DType::kFloat32, std::move(dims), {}};
  out.bytes.assign(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
  return out;
}

// torch.ao.quantization.FakeQuantize with its moving-average observer, its scale and zero point
// fxc's calibration, the observer's range the one they quantize (so that QAT starts there).
std::string fakeQuantize(const Context& c) {
  c.onlyAttributes({"quant_min", "quant_max", "axis"});
  const ir::Tensor& scale = c.tensor("scale");
  const ir::Tensor& zero_point = c.tensor("zero_point");
  if (scale.dtype != ir::DType::kFloat32) c.refuse("a scale not of float32");
  int64_t quant_min = c.intAttribute("quant_min", -128),
          quant_max = c.intAttribute("quant_max", 127);
  bool per_channel = c.attribute("axis") != nullptr;
  std::vector<float> scales(static_cast<size_t>(scale.numel()));
  std::memcpy(scales.data(), scale.bytes(), scales.size() * sizeof(float));
  std::vector<int64_t> zeros = integers(c, zero_point);
  if (zeros.size() != scales.size()) c.refuse("scale and zero point of different sizes");
  bool symmetric = quant_min < 0;
  for (int64_t z : zeros) symmetric = symmetric && z == 0;
  std::vector<float> low, high;
  std::vector<int32_t> zeros32;
  for (size_t i = 0; i < scales.size(); ++i) {
    low.push_back(static_cast<float>(quant_min - zeros[i]) * scales[i]);
    high.push_back(static_cast<float>(quant_max - zeros[i]) * scales[i]);
    zeros32.push_back(static_cast<int32_t>(zeros[i]));
  }
  std::vector<int64_t> dims = {static_cast<int64_t>(scales.size())};
  c.state.push_back(floats(c.path + ".scale", scales, dims));
  StateTensor zp{c.path + ".zero_point", ir::DType::kInt32, dims, {}};
  zp.bytes.assign(reinterpret_cast<const char*>(zeros32.data()), zeros32.size() * 4);
  c.state.push_back(std::move(zp));
  // A per-tensor observer keeps its range as 0-d tensors.
  std::vector<int64_t> range_dims = per_channel ? dims : std::vector<int64_t>{};
  c.state.push_back(floats(c.path + ".activation_post_process.min_val", low, range_dims));
  c.state.push_back(floats(c.path + ".activation_post_process.max_val", high, range_dims));
  std::string call =
      "onnx_ops.fake_quantize(" + std::to_string(quant_min) + ", " + std::to_string(quant_max);
  if (per_channel)
    call += ", channels=" + std::to_string(scales.size()) +
            ", axis=" + std::to_string(c.intAttribute("axis", 0));
  return call + ", symmetric=" + (symmetric ? "True" : "False") + ")";
}

// nn.Upsample as torch.onnx writes it: Resize (opset 11 on) with constant scales [1, 1, s, ...],
// each s a whole number, and no sizes; nearest with asymmetric coordinates and floor (PyTorch's
// 'nearest'), or linear with half_pixel or pytorch_half_pixel (align_corners=False) or
// align_corners. Resize before opset 11 has no coordinate_transformation_mode: refused here.
std::string upsample(const Context& c) {
  c.onlyAttributes({"mode", "coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a",
                    "exclude_outside"});
  for (const auto& [name, tensor] : c.module.tensors()) {
    if (name != "scales" && !(name == "roi" && tensor->numel() == 0))
      c.refuse("tensor " + name + " has no place in torch.nn.Upsample");
  }
  if (!c.attribute("coordinate_transformation_mode"))
    c.refuse("no coordinate_transformation_mode (Resize before opset 11, or its default)");
  if (c.intAttribute("exclude_outside", 0) != 0) c.refuse("exclude_outside");
  std::string mode = c.stringAttribute("mode", "nearest");
  std::string transform = c.stringAttribute("coordinate_transformation_mode", "");
  const char* torch_mode = nullptr;
  bool align_corners = false;
  // ONNX's scales have one value per input axis (the kernel refuses any other count).
  const ir::Tensor& scales = c.tensor("scales");
  int rank = static_cast<int>(scales.numel());
  if (scales.dtype != ir::DType::kFloat32 || (c.input_rank >= 0 && c.input_rank != rank))
    c.refuse("scales not float32, one per axis");
  if (rank < 3 || rank > 5) c.refuse("an input of rank other than 3 to 5");
  if (mode == "nearest") {
    if (transform != "asymmetric" || c.stringAttribute("nearest_mode", "") != "floor")
      c.refuse("nearest other than asymmetric coordinates rounded down");
    torch_mode = "nearest";
  } else if (mode == "linear") {
    if (transform == "align_corners")
      align_corners = true;
    else if (transform != "half_pixel" && transform != "pytorch_half_pixel")
      c.refuse("linear with coordinate_transformation_mode " + transform);
    static const char* modes[] = {"linear", "bilinear", "trilinear"};
    torch_mode = modes[rank - 3];
  } else {
    c.refuse("mode " + mode);
  }
  std::vector<float> values(static_cast<size_t>(rank));
  std::memcpy(values.data(), scales.bytes(), values.size() * sizeof(float));
  if (values[0] != 1.0f || values[1] != 1.0f) c.refuse("scales of the batch or channel axis");
  std::string factors;
  for (int d = 2; d < rank; ++d) {
    // Whole factors: PyTorch's nearest source floor(k · float(1/s)) is then ONNX's floor(k / s)
    // for every index k below 2^22 (k / s lies at least 1/s from the next whole number, more
    // than the product's rounding); linear's weights agree to float32 rounding.
    if (!(values[d] >= 1.0f && values[d] <= 1024.0f) || values[d] != std::floor(values[d]))
      c.refuse("a scale that is not a whole number from 1 to 1024");
    factors += (d > 2 ? ", " : "") + pyNumber(values[d]);
  }
  std::string call = "torch.nn.Upsample(scale_factor=(" + factors + (rank == 3 ? ",)" : ")") +
                     ", mode='" + torch_mode + "'";
  if (mode == "linear") call += align_corners ? ", align_corners=True" : ", align_corners=False";
  return call + ")";
}

// A module of no attributes and no tensors.
std::function<std::string(const Context&)> plain(const char* constructor) {
  return [constructor](const Context& c) {
    c.onlyAttributes({});
    c.takeTensors({});
    return std::string(constructor);
  };
}

const std::unordered_map<std::string, std::function<std::string(const Context&)>>& table() {
  using C = const Context&;
  static const std::unordered_map<std::string, std::function<std::string(C)>> t = {
      {"Conv1d", [](C c) { return convolution(c, false); }},
      {"Conv2d", [](C c) { return convolution(c, false); }},
      {"Conv3d", [](C c) { return convolution(c, false); }},
      {"ConvTranspose1d", [](C c) { return convolution(c, true); }},
      {"ConvTranspose2d", [](C c) { return convolution(c, true); }},
      {"ConvTranspose3d", [](C c) { return convolution(c, true); }},
      {"BatchNorm1d", batchNorm},
      {"BatchNorm2d", batchNorm},
      {"BatchNorm3d", batchNorm},
      {"Linear", linear},
      {"FakeQuantize", fakeQuantize},
      {"LayerNorm", layerNorm},
      {"MaxPool1d", [](C c) { return pool(c, true); }},
      {"MaxPool2d", [](C c) { return pool(c, true); }},
      {"MaxPool3d", [](C c) { return pool(c, true); }},
      {"AvgPool1d", [](C c) { return pool(c, false); }},
      {"AvgPool2d", [](C c) { return pool(c, false); }},
      {"AvgPool3d", [](C c) { return pool(c, false); }},
      {"AdaptiveAvgPool2d",
       [](C c) {
         if (c.input_rank >= 0 && c.input_rank != 4) c.refuse("input not of rank 4");
         return plain("torch.nn.AdaptiveAvgPool2d((1, 1))")(c);
       }},
      {"AdaptiveMaxPool2d",
       [](C c) {
         if (c.input_rank >= 0 && c.input_rank != 4) c.refuse("input not of rank 4");
         return plain("torch.nn.AdaptiveMaxPool2d((1, 1))")(c);
       }},
      {"ReLU", plain("torch.nn.ReLU()")},
      {"Sigmoid", plain("torch.nn.Sigmoid()")},
      {"Tanh", plain("torch.nn.Tanh()")},
      {"SiLU", plain("torch.nn.SiLU()")},
      {"Hardswish", plain("torch.nn.Hardswish()")},
      {"Mish", plain("torch.nn.Mish()")},
      {"Softsign", plain("torch.nn.Softsign()")},
      {"Softplus", plain("torch.nn.Softplus()")},
      {"Identity", plain("torch.nn.Identity()")},
      {"GELU",
       [](C c) {
         c.onlyAttributes({"approximate"});
         std::string approximate = c.stringAttribute("approximate", "none");
         if (approximate != "none" && approximate != "tanh") c.refuse("approximate");
         c.takeTensors({}, /*proofs=*/true);
         return "torch.nn.GELU(approximate='" + approximate + "')";
       }},
      {"Hardsigmoid",
       [](C c) {
         c.onlyAttributes({"alpha", "beta"});
         if (std::abs(c.floatAttribute("alpha", 0.2) - 1.0 / 6) > 1e-7 ||
             c.floatAttribute("beta", 0.5) != 0.5)
           c.refuse("alpha and beta other than PyTorch's 1/6 and 1/2");
         c.takeTensors({});
         return std::string("torch.nn.Hardsigmoid()");
       }},
      {"Hardtanh",
       [](C c) {
         // Clip-6 holds its bounds as attributes, Clip-11 as tensors; either both or neither
         // bound (a missing one, or both missing, runs onnx_ops.Clip instead).
         c.onlyAttributes({"min", "max"});
         auto bound = [&](const char* name) {
           return c.attribute(name) ? c.floatAttribute(name, 0) : c.scalar(name);
         };
         double low = bound("min"), high = bound("max");
         // torch.nn.Hardtanh asserts min < max; ONNX's Clip takes any pair (min > max gives max).
         if (!(low < high)) c.refuse("a lower bound not below the upper one");
         if (low == 0 && high == 6) return std::string("torch.nn.ReLU6()");
         return "torch.nn.Hardtanh(" + pyNumber(low) + ", " + pyNumber(high) + ")";
       }},
      {"LeakyReLU",
       [](C c) {
         c.onlyAttributes({"alpha"});
         c.takeTensors({});
         return "torch.nn.LeakyReLU(" + pyNumber(c.floatAttribute("alpha", 0.01)) + ")";
       }},
      {"ELU",
       [](C c) {
         c.onlyAttributes({"alpha"});
         c.takeTensors({});
         return "torch.nn.ELU(" + pyNumber(c.floatAttribute("alpha", 1.0)) + ")";
       }},
      {"CELU",
       [](C c) {
         c.onlyAttributes({"alpha"});
         c.takeTensors({});
         return "torch.nn.CELU(" + pyNumber(c.floatAttribute("alpha", 1.0)) + ")";
       }},
      {"Flatten",
       [](C c) {
         c.onlyAttributes({"axis"});
         if (c.intAttribute("axis", 1) != 1) c.refuse("axis other than 1");
         // torch.nn.Flatten flattens from dimension 1, which a rank-1 input lacks ([5] → [5, 1]).
         if (c.input_rank >= 0 && c.input_rank < 2) c.refuse("an input of rank below 2");
         c.takeTensors({});
         return std::string("torch.nn.Flatten()");
       }},
      {"Dropout",
       [](C c) {
         c.onlyAttributes({"ratio", "seed"});
         c.takeTensors({});
         return std::string("torch.nn.Dropout()");  // load() puts the module in eval mode
       }},
      {"Upsample", upsample},
      {"PReLU",
       [](C c) {
         c.onlyAttributes({});
         const ir::Tensor& slope = c.tensor("weight");
         int64_t count = slope.numel();
         for (size_t i = 1; i < slope.dims.size(); ++i) {
           if (slope.dims[i] != 1) c.refuse("a slope that is not one value per channel");
         }
         // ONNX broadcasts the slope from the last axis: [C, 1, 1] is per channel on a rank-4
         // input, [C] on a rank-2 one; nn.PReLU(C) is always axis 1. One value never broadcasts
         // past the input's rank either.
         int64_t rank = static_cast<int64_t>(slope.dims.size());
         if (c.input_rank < 0) c.refuse("a slope on an input of unknown rank");
         if (count > 1 && rank != std::max(1, c.input_rank - 1))
           c.refuse("a slope of rank " + std::to_string(rank) + " on an input of rank " +
                    std::to_string(c.input_rank) + " (not one value per channel)");
         if (rank > c.input_rank) c.refuse("a slope of higher rank than its input");
         c.takeTensors({"weight"});
         c.state.back().dims = {count};
         return "torch.nn.PReLU(" + std::to_string(count) + ")";
       }},
  };
  return t;
}

}  // namespace

std::string moduleConstructor(const ir::Module& module, const std::string& path, int input_rank,
                              std::vector<StateTensor>& state) {
  Context context{module, path, input_rank, state};
  auto it = table().find(module.type());
  if (it == table().end()) context.refuse("no torch.nn module for this type in fxc codegen");
  return it->second(context);
}

}  // namespace fxc::onnx::codegen
