// The inference pass pipeline (see passes/pipeline.h).
#include "passes/pipeline.h"

#include "passes/canonicalize/canonicalize_ops.h"
#include "passes/canonicalize/constant_pooling.h"
#include "passes/canonicalize/constant_propagation.h"
#include "passes/canonicalize/dead_code_elimination.h"
#include "passes/canonicalize/inliner.h"
#include "passes/canonicalize/normalize_ops.h"
#include "passes/canonicalize/peephole.h"
#include "passes/optimize/fold_conv_batch_norm.h"
#include "passes/optimize/prepack_weights.h"

namespace kindling {

void checkBlockNesting(const Graph& graph, const std::string& what) {
  const Node* deepest = nullptr;
  size_t depth = blockNestingDepth(graph.block(), &deepest);
  if (depth <= kMaxBlockNesting) return;
  throw CompileError("nesting too deep: blocks " + what + " nest " + std::to_string(depth) + " levels (at most " +
                         std::to_string(kMaxBlockNesting) + ")",
                     deepest ? deepest->sourceRange() : SourceRange());
}

void runCleanupPasses(Graph& graph) {
  checkBlockNesting(graph, "of the function");
  normalizeOps(graph);  // PyTorch runs NormalizeOps on the emitted graph just before its cleanup passes
  propagateConstants(graph, /*immutableTypesOnly=*/true);
  eliminateDeadCode(graph);
  poolConstants(graph);
}

void runInferencePasses(Graph& graph, const PassContext& ctx) {
  if (ctx.calleeGraph) {
    inlineCalls(graph, ctx.calleeGraph);
    checkBlockNesting(graph, "of the function with its calls inlined");
  }
  canonicalizeScalarOperands(graph);
  runPeephole(graph);
  propagateConstants(graph);
  eliminateDeadCode(graph);
}

void runFrozenGraphPasses(Graph& graph) {
  propagateConstants(graph);
  eliminateDeadCode(graph);
  foldConvBatchNorm(graph);
  eliminateDeadCode(graph);
  // fuseConvActivation (passes/optimize/fuse_conv_activation.h) is correct but not run yet: with the
  // current oneDNN post-op path it is slower (ResNet-50 1.7x, MobileNetV2 2x at one thread).
  prepackWeights(graph);
}

}  // namespace kindling
