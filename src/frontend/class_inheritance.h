// Inheritance between TorchScript classes, resolved when a class is compiled, with Python's meaning
// (PyTorch 1.13 rejects any base: "class inheritance is not supported"):
//   - a class's MRO is Python's C3 linearization of its bases, which are user classes of the program
//     (Resolver::resolveClassDefinition finds their statements) or `object`;
//   - its methods and properties are, for every name, those of the first class in the MRO that defines
//     the name, each compiled as a method of the class itself (`self` is the derived class), with the
//     names of the defining class's module;
//   - `super().f(...)` / `super(C, self).f(...)` is the implementation of f after the defining class (or C)
//     in self's MRO: the method f itself when that is what self.f is, else a method `f__super_<Base>` of
//     self's class; `super().__init__()` past the last user class is object's and does nothing;
//   - attributes come from the `__init__` that runs, through the `super().__init__(...)` calls it makes,
//     in the order Python runs them;
//   - `isinstance(obj, Base)` is true (ClassType::baseQualNames).
// Every class is compiled whole, so a saved archive holds plain TorchScript classes that torch.jit.load
// runs. Not subtyping: a derived object is not accepted where a base class is annotated.
#pragma once
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/type.h"
#include "frontend/compilation_target.h"
#include "frontend/ir_emitter.h"
#include "frontend/sugared_value.h"
#include "frontend/tree.h"

namespace kindling {

/// A class statement with what its methods are compiled with.
struct ClassDefinition {
  /// The qualified name the class is (or would be) compiled as: its identity within an MRO.
  std::string qualName;
  std::shared_ptr<SourceFile> file;
  const ClassStmt* stmt = nullptr;  // a statement of *file
  /// The context its methods are emitted with (the resolver of the class's own module).
  EmitContext ctx;
};
using ClassDefinitionPtr = std::shared_ptr<const ClassDefinition>;

/// The deepest inheritance a class may have (levels of bases), past which classMro is an error.
constexpr size_t kMaxInheritanceDepth = 256;

/// The MRO of `cls`, itself first, by C3 linearization as Python computes it. Bases are resolved
/// through each class's ctx.resolver; `object` is implicit. Throws CompileError at the base expression:
/// a base that is not a user class, a base that is a NamedTuple / Enum / nn.Module class, a class that
/// inherits from itself, more than kMaxInheritanceDepth levels, or bases with no consistent order
/// (Python's "Cannot create a consistent method resolution order (MRO)").
std::vector<ClassDefinitionPtr> classMro(const ClassDefinitionPtr& cls);

/// One method of a class: its def (in the body of mro[owner]) and the name it is compiled under
/// (`@property` getters and setters: "__<name>_getter" / "__<name>_setter", as PyTorch names them).
struct ClassMember {
  const DefStmt* def = nullptr;
  std::string name;
  size_t owner = 0;
};

/// The methods and properties of the class mro[0]: for every name a class body defines, those of the
/// first class of `mro` defining it (a property's getter and setter both come from that class). Own
/// methods first in source order, then inherited ones in MRO order. Properties named in
/// `unusedProperties` (the class's __jit_unused_properties__) or whose getter is @unused are left out,
/// getter and setter, as PyTorch 1.13 leaves them out. Throws CompileError for a property defined twice
/// in one class, a setter before its getter, and property deleters.
struct ClassMembers {
  std::vector<ClassMember> methods;
  std::vector<ClassType::Property> properties;
};
ClassMembers classMembers(const std::vector<ClassDefinitionPtr>& mro, const std::set<std::string>& unusedProperties);

/// `super` in the methods of a TorchScript class (EmitContext::super): resolves `super().f` through the
/// MRO of the class, defining the base implementations it needs as methods of the class on first use.
class ClassSuperValue : public SuperValue {
 public:
  struct Layout {
    std::vector<ClassDefinitionPtr> mro;
    ClassMembers members;
  };
  /// `definingClass` indexes layout->mro: the class whose body holds the methods this value serves.
  ClassSuperValue(CompilationTarget& target, const std::shared_ptr<ClassType>& type,
                  std::shared_ptr<const Layout> layout, size_t definingClass);
  /// The context the methods defined in layout->mro[definingClass] are compiled with as methods of
  /// `type`: that class's own, with `super` resolving from it.
  static EmitContext methodContext(CompilationTarget& target, const std::shared_ptr<ClassType>& type,
                                   const std::shared_ptr<const Layout>& layout, size_t definingClass);
  std::string methodFor(const SourceRange& loc, FunctionEmitter& m, const TypePtr& selfType,
                        const std::string& startClass, const std::string& field) override;

 private:
  CompilationTarget& target_;
  std::weak_ptr<ClassType> type_;
  std::shared_ptr<const Layout> layout_;
  size_t definingClass_;
};

}  // namespace kindling
