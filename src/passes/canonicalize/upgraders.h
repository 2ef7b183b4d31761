// Operator upgraders: old archives compute what they computed when they were written
// (torch/csrc/jit/operator_upgraders/ and passes/replacement_of_old_operators.cpp in PyTorch 1.13).
//
// Some operators changed meaning between file format versions. PyTorch records each change in its
// operator version map (torch._C._get_operator_version_map()): the overload, the file format version
// that changed it, the upgrader's name and the schema the operator had before. Code of an archive whose
// `version` record is below that version is compiled against the OLD schema (operatorRegistryForVersion)
// and every call of the operator is then replaced by the upgrader, a small TorchScript function that
// reproduces the old behaviour with today's operators (replaceOldOperatorsWithUpgraders):
//
//   overload               changed at  upgrader               old behaviour
//   aten::div.Tensor       4           div_Tensor_0_3         integer / integer truncates
//   aten::div.Scalar       4           div_Scalar_0_3         (the same, scalar divisor)
//   aten::div.out          4           div_out_0_3            (the same, out= variant: truncates unless
//                                                              self, other or out is floating point)
//   aten::div_.Tensor      4           div__Tensor_0_3        in place
//   aten::div_.Scalar      4           div__Scalar_0_3        in place, scalar divisor
//   aten::full             5           full_0_4               an int/bool fill without dtype= gives float
//   aten::full.out         5           full_out_0_4           (no change in behaviour)
//   aten::linspace         8           linspace_0_7           steps optional, 100 when omitted
//   aten::linspace.out     8           linspace_out_0_7       (the same)
//   aten::logspace         9           logspace_0_8           steps optional, 100 when omitted
//   aten::logspace.out     9           logspace_out_0_8       (the same)
//   aten::gelu             10          gelu_0_9               no approximate= argument ('none')
//   aten::gelu.out         10          gelu_out_0_9           (the same)
// plus six entries whose upgraders only re-call the operator (div.Tensor_mode, div.Scalar_mode,
// div.out_mode, div_.Tensor_mode, div_.Scalar_mode at 4; full.names at 5): they matter for the version a
// writer declares (minFileVersionForOperator), not for behaviour.
//
// Archives written by PyTorch 1.13 declare the smallest version that covers the operators they use (3
// with none of these, 4 with a div, ... 10 with a gelu), so they never trigger an upgrader.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "ops/registry/operator.h"

namespace kindling {

/// The file format versions Kindling reads and the one PyTorch 1.13 produces at most
/// (caffe2/serialize/versions.h: kMinSupportedFileFormatVersion, kMaxSupportedFileFormatVersion).
constexpr uint64_t kMinSupportedFileFormatVersion = 1;
constexpr uint64_t kMaxSupportedFileFormatVersion = 10;
/// The version an archive writer declares when its code uses none of the versioned operators.
constexpr uint64_t kMinProducedFileFormatVersion = 3;

struct UpgraderEntry {
  const char* overload;      // "aten::div.Tensor"
  uint64_t bumpedAtVersion;  // archives with version < this use the upgrader
  const char* upgraderName;  // "div_Tensor_0_3"
  const char* oldSchema;     // the schema before the change
};

/// PyTorch 1.13's operator version map (19 entries), in the order of the table above.
const std::vector<UpgraderEntry>& operatorVersionMap();

/// The file format version a writer must declare for code calling `overload` ("aten::div.Tensor",
/// "aten::gelu" for the empty overload name): its bumpedAtVersion, or 0 when the overload is not
/// versioned. torch.jit.save takes the maximum over the code with kMinProducedFileFormatVersion.
uint64_t minFileVersionForOperator(const std::string& overload);

/// The operators code of an archive at `version` is compiled against: `base` itself when no operator
/// changed after `version`, else a copy of `base` where each versioned overload carries its old schema
/// (same kernel; every call is replaced by replaceOldOperatorsWithUpgraders before anything runs).
/// Built once per (base, version) and kept for the life of the process. Thread-safe.
const OperatorRegistry& operatorRegistryForVersion(uint64_t version, const OperatorRegistry& base);

/// Replaces every call (nested blocks included) of an operator changed after `version` by the body of
/// its upgrader, inlined, and rebinds the remaining operator nodes to `base` (the registry the graph's
/// operators would come from at the current version). Does nothing when version >=
/// kMaxSupportedFileFormatVersion. Throws CompileError when an upgrader cannot be applied (e.g. it
/// calls an operator Kindling does not implement).
void replaceOldOperatorsWithUpgraders(Graph& graph, uint64_t version, const OperatorRegistry& base);

/// The TorchScript source of an upgrader ("div_Tensor_0_3"), or "" when unknown (tests, docs).
std::string upgraderSource(const std::string& upgraderName);

}  // namespace kindling
