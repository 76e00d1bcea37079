#include "ir/module_kind.h"

#include <string>
#include <unordered_map>

namespace fxc::ir {

ModuleKind moduleKind(std::string_view type) {
  using K = ModuleKind;
  static const std::unordered_map<std::string_view, ModuleKind> kinds = {
      {"Conv1d", K::kConv1d},
      {"Conv2d", K::kConv2d},
      {"Conv3d", K::kConv3d},
      {"ConvTranspose1d", K::kConvTranspose1d},
      {"ConvTranspose2d", K::kConvTranspose2d},
      {"ConvTranspose3d", K::kConvTranspose3d},
      {"ConvReLU2d", K::kConvReLU2d},
      {"ConvAddReLU2d", K::kConvAddReLU2d},
      {"ConvAct2d", K::kConvAct2d},
      {"BatchNorm1d", K::kBatchNorm1d},
      {"BatchNorm2d", K::kBatchNorm2d},
      {"BatchNorm3d", K::kBatchNorm3d},
      {"Linear", K::kLinear},
      {"MaxPool1d", K::kMaxPool1d},
      {"MaxPool2d", K::kMaxPool2d},
      {"MaxPool3d", K::kMaxPool3d},
      {"AvgPool1d", K::kAvgPool1d},
      {"AvgPool2d", K::kAvgPool2d},
      {"AvgPool3d", K::kAvgPool3d},
      {"AdaptiveAvgPool2d", K::kAdaptiveAvgPool2d}};
  auto it = kinds.find(type);
  return it == kinds.end() ? K::kOther : it->second;
}

}  // namespace fxc::ir
