// OperatorRegistry: parses each schema once at start-up and indexes the overloads by name and by
// "name.overload". The global registry fills itself on first use by calling every kernel family's
// register*Ops function. Families are declared weak so the library links while some are not written
// yet (a missing family is skipped).
#include <mutex>

#include <fmt/format.h>

#include "ops/registry/operator.h"
#include "ops/registry/schema_parser.h"
#include "tensor/tensor.h"

namespace kindling {

// Weak references: a family that is not linked in resolves to nullptr.
__attribute__((weak)) void registerElementwiseOps(OperatorRegistry& r);
__attribute__((weak)) void registerReduceOps(OperatorRegistry& r);
__attribute__((weak)) void registerShapeOps(OperatorRegistry& r);
__attribute__((weak)) void registerIndexOps(OperatorRegistry& r);
__attribute__((weak)) void registerFactoryOps(OperatorRegistry& r);
__attribute__((weak)) void registerLinalgOps(OperatorRegistry& r);
__attribute__((weak)) void registerConvOps(OperatorRegistry& r);
__attribute__((weak)) void registerPoolOps(OperatorRegistry& r);
__attribute__((weak)) void registerNormOps(OperatorRegistry& r);
__attribute__((weak)) void registerActivationOps(OperatorRegistry& r);
__attribute__((weak)) void registerPrimScalarOps(OperatorRegistry& r);
__attribute__((weak)) void registerPrimListOps(OperatorRegistry& r);
__attribute__((weak)) void registerPrimStringOps(OperatorRegistry& r);
__attribute__((weak)) void registerPrimDictOps(OperatorRegistry& r);
__attribute__((weak)) void registerTensorPrimOps(OperatorRegistry& r);
__attribute__((weak)) void registerMathExtraOps(OperatorRegistry& r);    // math_extra.cpp
__attribute__((weak)) void registerReduceExtraOps(OperatorRegistry& r);  // reduce_extra.cpp
__attribute__((weak)) void registerRandomOps(OperatorRegistry& r);       // random.cpp
__attribute__((weak)) void registerRnnOps(OperatorRegistry& r);
__attribute__((weak)) void registerTorchvisionOps(OperatorRegistry& r);
__attribute__((weak)) void registerAttentionOps(OperatorRegistry& r);
__attribute__((weak)) void registerFutureOps(OperatorRegistry& r);
__attribute__((weak)) void registerOutOps(OperatorRegistry& r);        // out_ops.cpp
__attribute__((weak)) void registerShapeExtraOps(OperatorRegistry& r); // shape_extra.cpp
__attribute__((weak)) void registerIndexExtraOps(OperatorRegistry& r); // index_extra.cpp
__attribute__((weak)) void registerTrapezoidOps(OperatorRegistry& r);  // trapezoid.cpp
__attribute__((weak)) void registerAddmvAddrOps(OperatorRegistry& r);  // addmv_addr.cpp
__attribute__((weak)) void registerCovarianceOps(OperatorRegistry& r); // covariance.cpp
__attribute__((weak)) void registerLossOps(OperatorRegistry& r);       // loss.cpp
__attribute__((weak)) void registerBroadcastOps(OperatorRegistry& r);  // broadcast.cpp
__attribute__((weak)) void registerNormVariantOps(OperatorRegistry& r);  // norm_variants.cpp
__attribute__((weak)) void registerTensordotOps(OperatorRegistry& r);    // tensordot.cpp
__attribute__((weak)) void registerBilinearOps(OperatorRegistry& r);     // bilinear.cpp
__attribute__((weak)) void registerCdistOps(OperatorRegistry& r);        // cdist.cpp
__attribute__((weak)) void registerUniqueDimOps(OperatorRegistry& r);    // unique_dim.cpp
__attribute__((weak)) void registerGridSampleOps(OperatorRegistry& r);   // grid_sample.cpp
__attribute__((weak)) void registerIm2colOps(OperatorRegistry& r);       // im2col.cpp
__attribute__((weak)) void registerMarginLossOps(OperatorRegistry& r);   // margin_losses.cpp
__attribute__((weak)) void registerCtcLossOps(OperatorRegistry& r);      // ctc_loss.cpp
__attribute__((weak)) void registerLossCompositeOps(OperatorRegistry& r);  // loss_composite.cpp
__attribute__((weak)) void registerShapeListOps(OperatorRegistry& r);   // shape_lists.cpp
__attribute__((weak)) void registerUpsampleAAOps(OperatorRegistry& r);  // upsample_aa.cpp
__attribute__((weak)) void registerLogspaceOps(OperatorRegistry& r);    // logspace.cpp
__attribute__((weak)) void registerOutUpgradedOps(OperatorRegistry& r);  // out_upgraded.cpp
__attribute__((weak)) void registerInplaceVariantOps(OperatorRegistry& r);  // inplace_variants.cpp
__attribute__((weak)) void registerBucketizeOps(OperatorRegistry& r);   // bucketize.cpp
__attribute__((weak)) void registerHistogramOps(OperatorRegistry& r);   // histogram.cpp
__attribute__((weak)) void registerDiffOps(OperatorRegistry& r);        // diff.cpp
__attribute__((weak)) void registerIndexFillScatterOps(OperatorRegistry& r);  // index_fill_scatter.cpp
__attribute__((weak)) void registerOpAliasOps(OperatorRegistry& r);     // op_aliases.cpp
__attribute__((weak)) void registerMatrixTransposeOps(OperatorRegistry& r);  // matrix_transpose.cpp
__attribute__((weak)) void registerQuantileOps(OperatorRegistry& r);    // quantile.cpp
__attribute__((weak)) void registerPackedSequenceOps(OperatorRegistry& r);  // packed_sequence.cpp
__attribute__((weak)) void registerRreluGammaOps(OperatorRegistry& r);  // rrelu_gamma.cpp

namespace {

using FamilyFn = void (*)(OperatorRegistry&);

OperatorRegistry* buildGlobal() {
  auto* r = new OperatorRegistry();
  const FamilyFn families[] = {
      registerElementwiseOps, registerReduceOps,     registerShapeOps,     registerIndexOps,
      registerFactoryOps,     registerLinalgOps,     registerConvOps,      registerPoolOps,
      registerNormOps,        registerActivationOps, registerPrimScalarOps, registerPrimListOps,
      registerPrimStringOps,  registerPrimDictOps,   registerTensorPrimOps,
      registerRnnOps,         registerTorchvisionOps, registerAttentionOps,
      registerFutureOps,      registerOutOps,        registerShapeExtraOps, registerIndexExtraOps,
      registerTrapezoidOps,   registerAddmvAddrOps,   registerCovarianceOps,
      registerLossOps,        registerBroadcastOps,
      registerNormVariantOps, registerTensordotOps,   registerBilinearOps,  registerCdistOps,     registerUniqueDimOps,
      registerGridSampleOps,  registerIm2colOps,      registerMarginLossOps, registerCtcLossOps,
      registerLossCompositeOps,
      registerMathExtraOps,   registerReduceExtraOps, registerRandomOps,
      registerShapeListOps,   registerUpsampleAAOps,  registerLogspaceOps,  registerOutUpgradedOps,
      registerInplaceVariantOps, registerBucketizeOps, registerHistogramOps, registerDiffOps,
      registerIndexFillScatterOps, registerOpAliasOps, registerMatrixTransposeOps, registerQuantileOps,
      registerPackedSequenceOps, registerRreluGammaOps,
  };
  for (FamilyFn f : families)
    if (f) f(*r);
  return r;
}

}  // namespace

OperatorRegistry& OperatorRegistry::global() {
  // Never destroyed: kernels may be looked up from static destructors of other objects.
  static OperatorRegistry* r = buildGlobal();
  return *r;
}

uint64_t writtenTensorArguments(const FunctionSchema& schema) {
  uint64_t mask = 0;
  for (size_t i = 0; i < schema.arguments.size() && i < 64; ++i) {
    const Argument& a = schema.arguments[i];
    if (!a.aliasInfo || !a.type) continue;
    const Type* t = a.type.get();
    if (t->kind() == TypeKind::Optional) t = t->cast<OptionalType>()->elementType().get();
    bool written = false;
    if (t->kind() == TypeKind::Tensor) {
      written = a.aliasInfo->isWrite;
    } else if (t->kind() == TypeKind::List && t->cast<ListType>()->elementType()->kind() == TypeKind::Tensor) {
      for (const AliasInfo& e : a.aliasInfo->containedTypes) written = written || e.isWrite;  // Tensor(a!)[]
    }
    if (written) mask |= uint64_t(1) << i;
  }
  return mask;
}

void bumpWrittenVersions(uint64_t writtenArgs, const IValue* args) {
  for (uint64_t m = writtenArgs; m; m &= m - 1) {
    const IValue& v = args[__builtin_ctzll(m)];
    if (v.isTensor()) {
      v.toTensor().storage()->bumpVersion();
    } else if (v.isList()) {
      for (const IValue& e : v.toListRef().elements)
        if (e.isTensor()) e.toTensor().storage()->bumpVersion();
    }
  }
}

void OperatorRegistry::add(const std::string& schema, OperationFn fn) {
  if (fn == nullptr) throw Error(fmt::format("OperatorRegistry::add: null kernel for '{}'", schema));
  FunctionSchema s = parseSchema(schema);
  std::string qualified = s.qualifiedName();
  if (byQualified_.count(qualified))
    throw Error(fmt::format("OperatorRegistry::add: duplicate operator '{}' (schema '{}')", qualified, schema));
  const uint64_t written = writtenTensorArguments(s);
  auto op = std::make_unique<Operator>(Operator{std::move(s), fn, written});
  const Operator* p = op.get();
  ops_.push_back(std::move(op));
  byName_[p->schema.name].push_back(p);
  byQualified_.emplace(std::move(qualified), p);
}

const std::vector<const Operator*>& OperatorRegistry::lookup(const std::string& name) const {
  static const std::vector<const Operator*> empty;
  auto it = byName_.find(name);
  return it == byName_.end() ? empty : it->second;
}

const Operator* OperatorRegistry::find(const std::string& qualifiedName) const {
  auto it = byQualified_.find(qualifiedName);
  return it == byQualified_.end() ? nullptr : it->second;
}

std::vector<std::string> allSchemaStrings() {
  std::vector<std::string> out;
  const auto& ops = OperatorRegistry::global().all();
  out.reserve(ops.size());
  for (const auto& op : ops) out.push_back(op->schema.str());
  return out;
}

}  // namespace kindling
