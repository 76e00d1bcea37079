// add-to-mul: the seed document's rewrite, replace-op with from=Add, to=Mul.
//
//   %y = %a + %b    ⇒   %y' = %a * %b       (also torch.add(a, b) and a.add(b))
#include "passes/replace_op.h"

namespace fxc::passes {
namespace {

RegisterPass registration{
    {"add-to-mul",
     "the seed's rewrite: every add (a + b, torch.add, a.add) becomes a mul",
     {},
     [](ir::GraphModule& gm, const Options&) { return replaceOp(gm, "Add", "Mul"); }}};

}  // namespace
}  // namespace fxc::passes
