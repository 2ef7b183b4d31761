// torch.finfo(dtype) / torch.iinfo(dtype) in compiled code (PyTorch 1.13 rejects them: "Unknown builtin op:
// aten::finfo"; transformer code writes `torch.finfo(scores.dtype).min` for attention masks): a value whose
// attributes — finfo's bits, eps, max, min, tiny, smallest_normal, resolution; iinfo's bits, max, min — are
// the dtype's, as Python's: a constant when the dtype is, else chosen at run time among the floating (finfo:
// float16, bfloat16, float32, float64) or integer (iinfo: uint8, int8, int16, int32, int64) dtypes, another
// dtype raising TypeError as Python's constructor does. Internal to frontend/emitter/.
#pragma once
#include <string>

#include "frontend/sugared_value.h"

namespace kindling {

struct TypeInfoValue : SugaredValue {
  TypeInfoValue(bool floating, Value* d) : isFloating(floating), dtype(d) {}
  std::string kind() const override { return isFloating ? "torch.finfo" : "torch.iinfo"; }
  SugaredValuePtr attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) override;
  bool isFloating;  // finfo (else iinfo)
  Value* dtype;     // an int: the ScalarType
};

}  // namespace kindling
