// Module kinds as types: a pass asks for exactly the kinds it handles, never for a prefix of a
// type name ("ConvReLU2d" starts with "Conv" but is no convolution a BatchNorm folds into).
#pragma once

#include <string_view>

namespace fxc::ir {

enum class ModuleKind {
  kOther,  // any type not listed here: no pass assumes anything of it
  kConv1d,
  kConv2d,
  kConv3d,
  kConvTranspose1d,
  kConvTranspose2d,
  kConvTranspose3d,
  kConvReLU2d,     // fused: relu(conv(x)) — torch.ao.nn.intrinsic's name
  kConvAddReLU2d,  // fused: relu(conv(x) + r)
  kConvAct2d,      // fused: act(conv(x)), `activation` one of conv-act's (ReLU6, SiLU, ...)
  kBatchNorm1d,
  kBatchNorm2d,
  kBatchNorm3d,
  kLinear,
  kMaxPool1d,
  kMaxPool2d,
  kMaxPool3d,
  kAvgPool1d,
  kAvgPool2d,
  kAvgPool3d,
  kAdaptiveAvgPool2d,
};

// The kind a module type names, exactly; kOther for every other name.
ModuleKind moduleKind(std::string_view type);

// A plain convolution (not transposed, nothing fused into it).
inline bool isConvolution(ModuleKind k) {
  return k == ModuleKind::kConv1d || k == ModuleKind::kConv2d || k == ModuleKind::kConv3d;
}
inline bool isTransposedConvolution(ModuleKind k) {
  return k == ModuleKind::kConvTranspose1d || k == ModuleKind::kConvTranspose2d ||
         k == ModuleKind::kConvTranspose3d;
}
inline bool isBatchNorm(ModuleKind k) {
  return k == ModuleKind::kBatchNorm1d || k == ModuleKind::kBatchNorm2d ||
         k == ModuleKind::kBatchNorm3d;
}
inline bool isMaxPool(ModuleKind k) {
  return k == ModuleKind::kMaxPool1d || k == ModuleKind::kMaxPool2d || k == ModuleKind::kMaxPool3d;
}
inline bool isAveragePool(ModuleKind k) {
  return k == ModuleKind::kAvgPool1d || k == ModuleKind::kAvgPool2d ||
         k == ModuleKind::kAvgPool3d || k == ModuleKind::kAdaptiveAvgPool2d;
}

}  // namespace fxc::ir
