// The emitter's state shared by its files: the environment (one frame per block, variable name →
// SugaredValue), refinements and conditions (CondValue: a bool value plus the types its truth refines,
// or a value known statically), how a block ends (BlockExit), and the helpers that set variables.
// Internal to frontend/emitter/; the public interface is frontend/ir_emitter.h.
#pragma once
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/ir_emitter.h"

namespace kindling {

struct Environment {
  Environment(Block* b, std::shared_ptr<Environment> n) : block(b), next(std::move(n)) {}
  Block* block;
  std::shared_ptr<Environment> next;
  std::unordered_map<std::string, SugaredValuePtr> table;
  std::unordered_map<std::string, std::string> errors;     // name → message when used
  std::unordered_map<std::string, TypePtr> carriedTypes;   // loop-carried variables of a loop body frame
  /// Names local to the scope this frame opens (a comprehension's targets, a lambda's parameters): as in
  /// Python they shadow the function's variables of the same name, whatever their type, and end with it.
  std::set<std::string> locals;
  /// Attribute reads refined in this frame's block: "a.b" (an attribute chain over a variable) → T, when a
  /// test such as `a.b is not None` made them T; reads of a.b there unwrap the Optional, checked
  /// (aten::_unwrap_optional raises if an assignment the refinement did not see made it None).
  std::unordered_map<std::string, TypePtr> refinedAttributes;

  // Looks a name up through the enclosing frames. Throws the recorded error for names that are
  // undefined on some path.
  SugaredValuePtr find(const std::string& name, const SourceRange& loc) const {
    for (const Environment* e = this; e; e = e->next.get()) {
      auto it = e->table.find(name);
      if (it != e->table.end()) return it->second;
      auto er = e->errors.find(name);
      if (er != e->errors.end()) throw CompileError(er->second, loc);
    }
    return nullptr;
  }
  // Like find but returns null instead of throwing.
  SugaredValuePtr findQuiet(const std::string& name) const {
    for (const Environment* e = this; e; e = e->next.get()) {
      auto it = e->table.find(name);
      if (it != e->table.end()) return it->second;
      if (e->errors.count(name)) return nullptr;
    }
    return nullptr;
  }
  TypePtr carriedType(const std::string& name) const {
    for (const Environment* e = this; e; e = e->next.get()) {
      auto it = e->carriedTypes.find(name);
      if (it != e->carriedTypes.end()) return it->second;
      if (e->locals.count(name)) return nullptr;  // the scope of a local name ends here
    }
    return nullptr;
  }
  /// The refined type of the attribute path `path` ("a.b"), or null.
  TypePtr refinedAttribute(const std::string& path) const {
    for (const Environment* e = this; e; e = e->next.get()) {
      auto it = e->refinedAttributes.find(path);
      if (it != e->refinedAttributes.end()) return it->second;
    }
    return nullptr;
  }
  /// findQuiet limited to the scope of `name`: null past the frame that declares it local.
  SugaredValuePtr findInScope(const std::string& name) const {
    for (const Environment* e = this; e; e = e->next.get()) {
      auto it = e->table.find(name);
      if (it != e->table.end()) return it->second;
      if (e->errors.count(name) || e->locals.count(name)) return nullptr;
    }
    return nullptr;
  }
};

struct Refinement {
  std::string name;
  TypePtr type;
};

struct CondValue {
  Value* value = nullptr;
  std::vector<Refinement> trueRefs, falseRefs;
  std::optional<bool> staticValue;
};

struct FunctionEmitter::BlockExit {
  bool exits = false;    // control never reaches the end of the block (raise or return on all paths)
  bool returns = false;  // some path returns
};

namespace emitter {

/// A name that gives a value its debug name: not "$..." (emitter variables) nor "_" / "_<digits>".
bool meaningfulName(const std::string& name);

inline std::string typeNameForMsg(const TypePtr& t) { return t->annotationStr(); }

/// "a.b.c" for an attribute chain over a variable name (the paths whose reads refinements apply to),
/// "" for any other expression.
std::string attributePath(const ExprPtr& e);

/// Forgets attribute refinements in every frame of `env` (they hold no longer): those of paths through
/// attribute `attr` of any object (an assignment to x.attr: another path may name the same object);
/// with `attr` empty, all of them (a call of compiled code may assign any attribute).
void forgetAttributeRefinements(Environment& env, const std::string& attr = {});

/// Forgets the attribute refinements of paths starting at the variable `name` (it is being rebound).
void forgetAttributeRefinementsOf(Environment& env, const std::string& name);

/// Binds `name` in the frame `env`, checking that a variable of an enclosing block or a loop-carried one
/// keeps (a subtype of) its type ("Variable 'x' previously had type ..."), and names the value after it.
void setVar(FunctionEmitter& m, Environment& env, const std::string& name, const SugaredValuePtr& v,
            const SourceRange& loc);

/// `x : T = v` stores v behind a placeholder prim::Load typed T (see assignment.cpp); true for such a value.
bool isDeclaredTypeLoad(const Value* v);

/// Replaces the placeholders of isDeclaredTypeLoad by their input, once a body is emitted.
void eraseDeclaredTypeLoads(Block* b);

/// Bounds the recursion of expression emission on pathological input (1000 levels).
struct ExprDepthGuard {
  ExprDepthGuard(int& d, const SourceRange& loc) : d_(d) {
    if (++d_ > 1000) throw CompileError("expression is too deeply nested (more than 1000 levels)", loc);
  }
  ~ExprDepthGuard() { --d_; }
  int& d_;
};

}  // namespace emitter
}  // namespace kindling
