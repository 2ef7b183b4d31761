// `kwargs` in the body of a def compiled for one VariadicBinding (frontend/ir_emitter.h): the keyword
// arguments the call passed beyond the declared parameters, as a dict whose keys are known statically.
// Every use Python makes of such a dict that the keys decide is resolved while emitting:
//   kwargs["k"]                 the argument k (a key the call did not pass: KeyError at compile time)
//   kwargs.get("k"[, d])        the argument k, or d (None without)
//   "k" in kwargs / not in      a constant bool, so `if "k" in kwargs:` emits one branch
//   len(kwargs), bool(kwargs)   constants
//   for k in kwargs, .keys(), .values(), .items()
//                               unrolled over the arguments in the call's order
//   f(**kwargs)                 the arguments passed on as keyword arguments
// It cannot be changed (kwargs["k"] = v, del kwargs["k"], pop, update, setdefault, popitem, clear are a
// CompileError: the keys are fixed when the def is compiled); `d = dict(kwargs)` or `kwargs.copy()` is a dict
// to change. Used as a value otherwise (returned, stored, passed as a dict), it is a Dict[str, T] built from the
// arguments when they all have one type T (Dict[str, T] of `**kwargs: T` when declared; Dict[str, Tensor]
// when empty and undeclared); arguments of different types
// are then a CompileError naming them. Internal to frontend/emitter/.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frontend/sugared_value.h"

namespace kindling {

struct KeywordArgumentsValue : SugaredValue {
  /// `declared`: T of `**kwargs: T` (null without an annotation).
  KeywordArgumentsValue(std::vector<std::pair<std::string, Value*>> e, TypePtr declared)
      : entries(std::move(e)), declaredType(std::move(declared)) {}
  std::string kind() const override { return "**kwargs"; }
  Value* asValue(const SourceRange& loc, FunctionEmitter& m) override;
  SugaredValuePtr attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) override;
  /// Iteration: the keys.
  std::vector<SugaredValuePtr> asTuple(const SourceRange& loc, FunctionEmitter& m,
                                       std::optional<size_t> sizeHint) override;
  bool shouldUnroll() const override { return true; }
  std::optional<int64_t> staticLen() const override { return static_cast<int64_t>(entries.size()); }
  /// The argument passed as `key`, or null.
  Value* find(const std::string& key) const;
  /// kwargs[key]: the argument; a CompileError (KeyError) at `loc` when the call did not pass it.
  SugaredValuePtr item(const SourceRange& loc, const std::string& key) const;

  std::vector<std::pair<std::string, Value*>> entries;  // in the call's order
  TypePtr declaredType;
};

/// The CompileError for changing a **kwargs dict at `loc` (`what`: "assigned", "deleted", "pop()", ...).
CompileError kwargsChangeError(const SourceRange& loc, const std::string& what);

}  // namespace kindling
