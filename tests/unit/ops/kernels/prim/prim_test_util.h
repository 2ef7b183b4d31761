// Test helper for the prim_* families: run one registered overload on given arguments.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/registry/operator.h"

namespace kindling::testing {

/// Runs "aten::add.int" etc. from the global registry; returns the single result (or None).
inline IValue callOp(const std::string& qualified, std::vector<IValue> args) {
  const Operator* op = OperatorRegistry::global().find(qualified);
  if (!op) throw Error("no operator " + qualified);
  Stack s(std::move(args));
  op->fn(s);
  if (op->schema.returns.empty() && !op->schema.isVarRet) {
    EXPECT_TRUE(s.empty()) << qualified << " left values on the stack";
    return IValue();
  }
  if (op->schema.returns.size() > 1) {  // one stack value per return; packed here for the checks
    EXPECT_EQ(s.size(), op->schema.returns.size()) << qualified << " must leave one value per return";
    return makeTuple(std::vector<IValue>(s.begin(), s.end()));
  }
  EXPECT_EQ(s.size(), 1u) << qualified << " must leave exactly its result";
  return s.empty() ? IValue() : s.back();
}

/// The python class and message of the RuntimeError the op raises ("" if none).
inline std::string errorOf(const std::string& qualified, std::vector<IValue> args) {
  try {
    callOp(qualified, std::move(args));
  } catch (const RuntimeError& e) {
    return e.message();
  }
  return "";
}

}  // namespace kindling::testing
