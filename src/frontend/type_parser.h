// Type annotations → TypePtr, as TorchScript reads them (torch/csrc/jit/frontend/script_type_parser.cpp):
//   Tensor / torch.Tensor, int, float, bool, str, complex, None / NoneType, Any, number,
//   List[T] / list[T], Dict[K, V], Tuple[T1, ...] / Tuple[()], Optional[T], Union[...], Future[T],
//   Final[T] (reported separately: a Final annotation only marks a constant), torch.device / Device,
//   torch.dtype (an int, as in TorchScript), typing.X / torch.jit.X spellings, string (forward-reference)
//   annotations, and qualified class names such as `__torch__.torchvision.models.resnet.ResNet`, which
//   the TypeResolver turns into ClassType/EnumType/NamedTuple types.
// Errors: CompileError at the annotation ("Unknown type name 'Foo'").
#pragma once
#include <functional>
#include <string>

#include "core/type.h"
#include "frontend/tree.h"

namespace kindling {

/// Resolves a class (or NamedTuple/Enum/Interface) name as written — "Foo" or "__torch__.a.b.Foo" — to
/// its type, or nullptr when unknown.
using TypeResolver = std::function<TypePtr(const std::string& name, const SourceRange& loc)>;

/// Dotted name of a Name/Attribute chain ("torch.nn.functional"), or "" if `e` is not such a chain.
std::string dottedName(const ExprPtr& e);

class TypeParser {
 public:
  explicit TypeParser(TypeResolver resolver = nullptr) : resolver_(std::move(resolver)) {}
  /// The type an annotation denotes. `Final[T]` gives T and sets *isFinal (an error when isFinal is null).
  TypePtr parse(const ExprPtr& annotation, bool* isFinal = nullptr) const;
  /// True if the expression looks like a type (used to tell `isinstance(x, int)` type arguments apart).
  bool isTypeExpr(const ExprPtr& e) const;
 private:
  TypePtr parseSubscript(const SubscriptExpr& s, bool* isFinal) const;
  TypePtr parseName(const std::string& name, const SourceRange& loc, bool mustResolve) const;
  TypeResolver resolver_;
};

}  // namespace kindling
