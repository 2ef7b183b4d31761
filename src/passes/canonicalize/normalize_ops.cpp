// Operator alias normalization (see passes/canonicalize/normalize_ops.h).
#include "passes/canonicalize/normalize_ops.h"

#include <string>
#include <unordered_map>
#include <vector>

#include "ir/operator_matching.h"

namespace kindling {

namespace {

// PyTorch 1.13's getOperatorAliasMap(), by operator name.
const std::unordered_map<std::string, std::string>& aliasMap() {
  static const std::unordered_map<std::string, std::string> m = {
      {"aten::absolute", "aten::abs"},         {"aten::absolute_", "aten::abs_"},
      {"aten::clip", "aten::clamp"},           {"aten::clip_", "aten::clamp_"},
      {"aten::det", "aten::linalg_det"},       {"aten::matrix_power", "aten::linalg_matrix_power"},
      {"aten::ger", "aten::outer"},            {"aten::arccos", "aten::acos"},
      {"aten::arccos_", "aten::acos_"},        {"aten::arcsin", "aten::asin"},
      {"aten::arcsin_", "aten::asin_"},        {"aten::arctan", "aten::atan"},
      {"aten::arctan_", "aten::atan_"},        {"aten::arctan2", "aten::atan2"},
      {"aten::arctan2_", "aten::atan2_"},      {"aten::arccosh", "aten::acosh"},
      {"aten::arccosh_", "aten::acosh_"},      {"aten::arcsinh", "aten::asinh"},
      {"aten::arcsinh_", "aten::asinh_"},      {"aten::arctanh", "aten::atanh"},
      {"aten::arctanh_", "aten::atanh_"},      {"aten::fix", "aten::trunc"},
      {"aten::fix_", "aten::trunc_"},          {"aten::negative", "aten::neg"},
      {"aten::negative_", "aten::neg_"},       {"aten::subtract", "aten::sub"},
      {"aten::subtract_", "aten::sub_"},       {"aten::greater_equal", "aten::ge"},
      {"aten::greater_equal_", "aten::ge_"},   {"aten::greater", "aten::gt"},
      {"aten::greater_", "aten::gt_"},         {"aten::less_equal", "aten::le"},
      {"aten::less_equal_", "aten::le_"},      {"aten::less", "aten::lt"},
      {"aten::less_", "aten::lt_"},            {"aten::not_equal", "aten::ne"},
      {"aten::not_equal_", "aten::ne_"},       {"aten::divide", "aten::div"},
      {"aten::divide_", "aten::div_"},         {"aten::multiply", "aten::mul"},
      {"aten::multiply_", "aten::mul_"},       {"aten::linalg_matmul", "aten::matmul"},
      {"aten::inverse", "aten::linalg_inv"},   {"aten::true_divide", "aten::div"},
      {"aten::true_divide_", "aten::div_"},    {"aten::concat", "aten::cat"},
      {"aten::row_stack", "aten::vstack"},     {"aten::swapdims", "aten::transpose"},
      {"aten::swapdims_", "aten::transpose_"}, {"aten::swapaxes", "aten::transpose"},
      {"aten::swapaxes_", "aten::transpose_"}, {"aten::moveaxis", "aten::movedim"},
      {"aten::special_erf", "aten::erf"},      {"aten::special_erfc", "aten::erfc"},
      {"aten::special_erfinv", "aten::erfinv"}, {"aten::special_expit", "aten::sigmoid"},
      {"aten::special_exp2", "aten::exp2"},    {"aten::special_expm1", "aten::expm1"},
      {"aten::special_logit", "aten::logit"},  {"aten::special_logsumexp", "aten::logsumexp"},
      {"aten::special_round", "aten::round"},  {"aten::special_log1p", "aten::log1p"},
      {"aten::special_sinc", "aten::sinc"},    {"aten::special_digamma", "aten::digamma"},
      {"aten::special_psi", "aten::digamma"},  {"aten::special_i0", "aten::i0"},
      {"aten::special_xlogy", "aten::xlogy"},  {"aten::special_log_softmax", "aten::log_softmax"},
      {"aten::orgqr", "aten::linalg_householder_product"},
      {"aten::adjoint", "aten::mH"},           {"aten::special_multigammaln", "aten::mvlgamma"},
      {"aten::special_polygamma", "aten::polygamma"}, {"aten::special_softmax", "aten::softmax"},
      {"aten::special_gammainc", "aten::igamma"}, {"aten::special_gammaincc", "aten::igammac"},
      {"aten::special_gammaln", "aten::lgamma"},
  };
  return m;
}

struct Rewrite {
  Node* node;
  const std::string* target;
  bool swapFirstTwo;  // rsub -> sub
};

void collect(Block* b, std::vector<Rewrite>& out) {
  static const std::string kSub = "aten::sub";
  for (Node* n : *b) {
    for (Block* sub : n->blocks()) collect(sub, out);
    const FunctionSchema* s = n->schema();
    if (!s) continue;
    if (s->qualifiedName() == "aten::rsub.Tensor" && n->inputs().size() == 3) {
      out.push_back({n, &kSub, true});
      continue;
    }
    auto it = aliasMap().find(s->name);
    if (it != aliasMap().end()) out.push_back({n, &it->second, false});
  }
}

}  // namespace

size_t normalizeOps(Graph& graph) {
  std::vector<Rewrite> todo;
  collect(graph.block(), todo);
  size_t rewritten = 0;
  for (const Rewrite& w : todo) {
    Node* n = w.node;
    std::vector<Value*> inputs = n->inputs();
    if (w.swapFirstTwo) std::swap(inputs[0], inputs[1]);
    WithInsertPoint guard(n);
    Node* repl = graph.create(Symbol::fromQualString(*w.target), inputs, n->outputs().size());
    graph.insertNode(repl);
    for (size_t i = 0; i < n->outputs().size(); ++i) repl->output(i)->setType(n->output(i)->type());
    const Operator* op = matchOperator(repl);
    if (!op) {  // target not registered: keep the alias
      repl->destroy();
      continue;
    }
    repl->setOp(op);
    for (size_t i = 0; i < n->outputs().size(); ++i) {
      repl->output(i)->copyMetadata(n->output(i));
      n->output(i)->replaceAllUsesWith(repl->output(i));
    }
    repl->setSourceRange(n->sourceRange());
    repl->setInlinedCallStack(n->inlinedCallStack());
    repl->copyAttributes(*n);
    n->destroy();
    ++rewritten;
  }
  return rewritten;
}

}  // namespace kindling
