// The frontend's entry points: compile TorchScript source — a user program (`kindling run prog.py`) or
// one file of an archive's code/ folder (through serialize/import_source.h) — into a CompilationTarget.
//
//   compileSource   a whole file: top-level `def`s become functions "<prefix>.<name>", classes become
//                   types "<prefix>.<Name>" with methods "<prefix>.<Name>.<method>"; `import torch`,
//                   `import torch.nn.functional as F`, `from typing import ...`, math, enum,
//                   collections are accepted; other imports are a CompileError.
//   defineClass     one class statement (shared with the archive importer): ClassType with attributes
//                   in declaration order (`x : T`, `__annotations__["0"] = T`), parameter/buffer flags from
//                   `__parameters__`/`__buffers__`, `Final[T] = value` constants, methods declared with
//                   their schema and lazily emitted bodies; `class X(NamedTuple)` makes a named tuple type.
//   defineFunction  one `def` as a function or method.
// Function bodies are emitted on first use (CompilationTarget::defineFunction's emitBody), so
// functions and classes may refer to each other in any order; compile errors in a body surface then.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "frontend/compilation_target.h"
#include "frontend/ir_emitter.h"
#include "frontend/tree.h"

namespace kindling {

struct CompileOptions {
  /// Qualified-name prefix of everything the file defines ("__torch__" for user programs;
  /// "__torch__.torch.nn.functional" for code/__torch__/torch/nn/functional.py).
  std::string prefix = "__torch__";
  /// Operators available to the code (null: OperatorRegistry::global()).
  const OperatorRegistry* registry = nullptr;
  /// Archive code: enables `ops`, `CONSTANTS`, `__torch__`, `annotate`, `uninitialized`, `unchecked_cast`.
  bool archiveMode = false;
  /// Names not defined in the file (optional): other archive files, host-provided classes.
  std::shared_ptr<Resolver> resolver;
};

/// Compiles every definition of `source`. Returns the functions defined at top level, in source order.
/// Throws CompileError for errors found while declaring (bad annotations, unsupported statements);
/// errors inside bodies are thrown when the body is emitted.
std::vector<Function*> compileSource(CompilationTarget& target, const std::shared_ptr<const Source>& source,
                                     const CompileOptions& options);

/// Defines the class `cls` (parsed from `file`) under `qualName`. The type is added to the target before
/// its attributes are resolved, so classes may refer to each other. `ctx.resolver` resolves annotation
/// names. Returns a ClassType, or a named TupleType for `class X(NamedTuple)`.
TypePtr defineClass(CompilationTarget& target, const std::shared_ptr<SourceFile>& file, const ClassStmt& cls,
                    const std::string& qualName, const EmitContext& ctx);

/// True when `d` is decorated with `@name`, also spelled `@torch.jit.name`, `@jit.name` or
/// `@kindling.jit.name` (name: "staticmethod", "property", "unused", ...).
bool hasDecorator(const DefStmt& d, const std::string& name);

/// What a base class named in a class statement (its dotted name as written) makes of the class:
/// an nn.Module, a NamedTuple, an Enum, an interface, nothing (`object`), or a user class it inherits from.
enum class ClassBaseKind { Module, NamedTuple, Enum, Interface, Object, User };
ClassBaseKind classBaseKind(const std::string& dottedName);

/// Declares `def` as the function `qualName` (a method of `selfType` when set; the method is then also
/// added to the class). The body is emitted lazily with `ctx`. `inheritedFrom`, for a method of
/// `selfType` defined in the body of one of its bases (frontend/class_inheritance.h), is that base's
/// qualified name: the parameters after self annotated with the base (or Optional of it) take
/// `selfType` instead, so that `def __lt__(self, other: "Base")` compares two objects of the derived class
/// (classes have no subtyping: a plain Base object is then refused at the call, with a type error).
Function* defineFunction(CompilationTarget& target, const std::shared_ptr<SourceFile>& file, const DefStmt& def,
                         const std::string& qualName, const std::shared_ptr<ClassType>& selfType,
                         const EmitContext& ctx, const std::string& inheritedFrom = {});

}  // namespace kindling
