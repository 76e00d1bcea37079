// Patterns that the trace's recognition and the passes both prove: one proof for a rewrite that
// appears as a module (a recognized group) and as functions (outside any module scope).
#pragma once

#include <optional>
#include <string>

#include "ir/matcher.h"

namespace fxc::ir {

// An average pool that pads itself, as torch.onnx writes AvgPool2d / F.avg_pool2d with padding:
//   %p = torch.nn.functional.pad(%x, pads)            (constant mode, no fill value)
//   %y = torch.nn.functional.avg_pool2d(%p, ...)      labelled "pool"; constant "pads"
Pattern paddedAveragePool();

// The one pool's kwargs for such a match: the pool's own, with the Pad's H and W pads and
// count_include_pad = 1 (the padded zeros are counted, as they were elements of its input). Zero
// pads: the pool's kwargs as they are. nullopt with `why` unless the Pad is over H and W alone,
// non-negative and whole, and the pool has no pads or dilations of its own nor ceil_mode with
// padding (whose windows past the padded edge the two forms count differently).
std::optional<Kwargs> paddedAveragePoolKwargs(const Match& match, std::string* why);

}  // namespace fxc::ir
