// The code printer: a compiled function, method or class turned back into TorchScript source, as
// PyTorch's PythonPrint does it (torch/csrc/jit/serialization/python_print.cpp, 1.13). Used for
// `kindling code` (print(fn.code) / print(m.forward.code)) and for the code/ files of archives Kindling
// writes (serialize/export_archive.h), so PyTorch's importer and ours both compile the text back.
//
// What it prints (same text as PyTorch for the same graph):
//   def f(x: Tensor,
//       n: int=2) -> Tuple[Tensor, int]:
//     y = torch.add(x, 1)                    aten ops as torch.<name>, other namespaces as ops.<ns>.<name>;
//     _0 = torch.gt(n, 0)                    trailing arguments equal to the schema default are dropped,
//     while _0:                              kwarg-only ones are printed name=value
//       ...                                  prim::Loop → `for _1 in range(n):` or `while c:` with the
//     if torch.gt(n, 3):                     loop-carried values assigned before the loop and at the end of
//       q = torch.relu(y)                    each trip; prim::If → if/else with its outputs assigned in
//     else:                                  both branches
//       q = torch.zeros([2, 3])
//     return (q, s)
// Single-use unnamed values are inlined into the expression that uses them when that keeps evaluation
// order (PyTorch's reverse scan); lines that would reach 40 characters are split into `_N = ...`
// temporaries. Value names come from debug names without their ".N" suffix, made unique per function
// (s, s0, s1, ...), temporaries are _0, _1, ... Constants print inline (floats as c10's IValue repr:
// "1.", "0.10000000000000001", "1e+20"; strings quoted with c10::printQuotedString escapes); tensors,
// objects and strings with non-ASCII bytes go to the constant table and print as CONSTANTS.cN.
// Special forms: annotate(T, [])/annotate(T, {}) for empty or ambiguous lists/dicts, uninitialized(T),
// unchecked_cast(T, x), isinstance(x, T), self.attr / getattr(self, "0"), (obj).method(args, ),
// __torch__.f(args, ) for calls, __torch__.C.__new__(__torch__.C), (e).value/(e).name for enums,
// NamedTuple constructors, int()/float()/bool()/str()/print()/sorted(), x[i] for __getitem__.
//
// Errors: Error (core/error.h) for graphs that cannot be written as source (a loop PyTorch would call
// "ModifiedLoop", a tensor constant without a constant table, a function that is not a GraphFunction).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/function.h"
#include "core/ivalue.h"
#include "core/type.h"

namespace kindling {

class PythonPrinterImpl;

class PythonPrinter {
 public:
  /// `constantTable`: tensors, objects and non-ASCII strings used as constants are appended here (equal
  /// tensors of the same dtype are shared) and printed as CONSTANTS.c<index>. When null, such a constant
  /// is an Error ("cannot print ... without a constant table"). The table may already hold entries
  /// (indices continue after them) and may be shared by several printers of one archive.
  explicit PythonPrinter(std::vector<IValue>* constantTable = nullptr);
  ~PythonPrinter();
  PythonPrinter(const PythonPrinter&) = delete;
  PythonPrinter& operator=(const PythonPrinter&) = delete;

  /// A free function, every argument annotated: `def name(x: Tensor,\n    n: int=2) -> T:` + body
  /// (the fn.code form). `fn` must be a GraphFunction; its graph() is printed.
  void printFunction(const Function& fn);
  /// A method as m.forward.code prints it: like printFunction but the first argument (self) has no type.
  void printMethod(const Function& fn);
  /// A class as archives' code/ files hold it: `class Name(Module):` (or `class Name:`), for modules
  /// __parameters__ / __buffers__ lists, one `name : T` line per attribute, `name : Final[T] = v` per
  /// constant, then every method with `self: <qualified name>` annotated.
  void printClass(const ClassTypePtr& cls);
  /// Any named type a dependency list can hold: ClassType (printClass), FunctionType (printFunction),
  /// named TupleType (`class P(NamedTuple):` with `a : int` fields), EnumType (`class E(Enum):` members).
  void printNamedType(const TypePtr& type);

  /// Everything printed so far (definitions separated as PyTorch separates them: none).
  std::string str() const;
  /// Named types the printed code refers to, in first-use order without duplicates: ClassType,
  /// EnumType, named TupleType, and FunctionType for called free functions (classes of attributes,
  /// arguments, results, CallMethod targets, `__torch__.f(...)` callees). The archive writer prints
  /// each into the code/ file of its qualified name.
  const std::vector<TypePtr>& dependencies() const;
  /// The least archive format version that can hold the printed code (PythonPrint::minVersion): 0, or
  /// the version at which an operator printed was last changed, as PyTorch 1.13's operator version map
  /// lists them: aten::div/div_ (all overloads) 4, aten::full (and .out) 5, aten::linspace (and .out) 8,
  /// aten::logspace (and .out) 9, aten::gelu (and .out) 10. The archive writer writes
  /// max(3, minVersion()) as the `version` record, so importers do not apply the upgraders to new code.
  uint64_t minVersion() const;

 private:
  std::unique_ptr<PythonPrinterImpl> impl_;
};

/// One code/ file of an archive: its path under code/ and its text.
struct CodeFile {
  std::string path;  // "__torch__.py" for "__torch__.C", "__torch__/a/b.py" for "__torch__.a.b.C"
  std::string text;
};

/// Prints `roots` (ClassType, EnumType, named TupleType, FunctionType) and, transitively, every named type
/// and function they depend on, each into the file of its qualified name's prefix (as
/// torch.jit.save lays out code/: "__torch__.a.b.C" → "__torch__/a/b.py"), files in first-use order and
/// definitions within a file in print order. `minVersion`, when given, receives the maximum
/// PythonPrinter::minVersion() over everything printed. Constants go to `constantTable` as for
/// PythonPrinter.
std::vector<CodeFile> printCodeFiles(const std::vector<TypePtr>& roots, std::vector<IValue>* constantTable,
                                     uint64_t* minVersion = nullptr);

/// The qualified name of a named type (class, enum, NamedTuple, or a FunctionType's function).
std::string qualifiedNameOf(const TypePtr& type);

/// print(fn.code): a fresh printer's printFunction (or printMethod when `isMethod`), no constant table
/// (a tensor constant prints as CONSTANTS.cN with N counted from 0, as fn.code does, and is dropped).
std::string pythonCodeOf(const Function& fn, bool isMethod);

/// A constant as PythonPrint writes it (c10 IValue::repr): 1, 2.5, 1., "a\'b", [1, 2],
/// annotate(List[int], []), (1,), {"a": 1}, torch.device("cpu"), __torch__.Color.RED, None.
/// Tensors/objects/non-ASCII strings: appended to `constantTable` and written CONSTANTS.cN; Error when
/// the table is null.
std::string pythonConstantString(const IValue& v, std::vector<IValue>* constantTable);

}  // namespace kindling
