// The inference pass pipeline (see passes/pipeline.h).
#include "passes/pipeline.h"

#include "ir/lint.h"
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

// Every pass below is followed by verifyGraph (ir/lint.h): a no-op unless graph verification is on (test
// suites, `kindling --verify`), then Graph::lint naming the pass that broke an invariant.

void runCleanupPasses(Graph& graph) {
  checkBlockNesting(graph, "of the function");
  verifyGraph(graph, "emission (before the cleanup passes)");
  normalizeOps(graph);  // PyTorch runs NormalizeOps on the emitted graph just before its cleanup passes
  verifyGraph(graph, "pass normalizeOps");
  propagateConstants(graph, /*immutableTypesOnly=*/true);
  verifyGraph(graph, "pass propagateConstants(immutableTypesOnly)");
  eliminateDeadCode(graph);
  verifyGraph(graph, "pass eliminateDeadCode");
  poolConstants(graph);
  verifyGraph(graph, "pass poolConstants");
}

void runInferencePasses(Graph& graph, const PassContext& ctx) {
  verifyGraph(graph, "the cleanup passes (before the inference passes)");
  if (ctx.calleeGraph) {
    inlineCalls(graph, ctx.calleeGraph);
    checkBlockNesting(graph, "of the function with its calls inlined");
    verifyGraph(graph, "pass inlineCalls");
  }
  canonicalizeScalarOperands(graph);
  verifyGraph(graph, "pass canonicalizeScalarOperands");
  runPeephole(graph);
  verifyGraph(graph, "pass runPeephole");
  propagateConstants(graph);
  verifyGraph(graph, "pass propagateConstants");
  eliminateDeadCode(graph);
  verifyGraph(graph, "pass eliminateDeadCode");
}

void runFrozenGraphPasses(Graph& graph) {
  verifyGraph(graph, "pass freezeModuleAttributes");
  propagateConstants(graph);
  verifyGraph(graph, "pass propagateConstants (frozen)");
  eliminateDeadCode(graph);
  verifyGraph(graph, "pass eliminateDeadCode (frozen)");
  foldConvBatchNorm(graph);
  verifyGraph(graph, "pass foldConvBatchNorm");
  eliminateDeadCode(graph);
  verifyGraph(graph, "pass eliminateDeadCode (after foldConvBatchNorm)");
  // fuseConvActivation (passes/optimize/fuse_conv_activation.h) is correct but not run yet: with the
  // current oneDNN post-op path it is slower (ResNet-50 1.7x, MobileNetV2 2x at one thread).
  prepackWeights(graph);
  verifyGraph(graph, "pass prepackWeights");
}

}  // namespace kindling
