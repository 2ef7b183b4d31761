// Tests for core/scalar.h: Scalar and the float spellings PyTorch prints.
#include "core/scalar.h"

#include <gtest/gtest.h>

#include <limits>

namespace kindling {
namespace {

TEST(ScalarTest, GraphFloatStrAsC10PrintsThem) {
  // Values from print(torch.jit.script(fn).graph) in PyTorch 1.13.
  EXPECT_EQ(graphFloatStr(0.1), "0.10000000000000001");
  EXPECT_EQ(graphFloatStr(1.0), "1.");
  EXPECT_EQ(graphFloatStr(2.5), "2.5");
  EXPECT_EQ(graphFloatStr(1e-5), "1.0000000000000001e-05");
  EXPECT_EQ(graphFloatStr(1e20), "1e+20");
  EXPECT_EQ(graphFloatStr(123456789.0), "123456789.");
  EXPECT_EQ(graphFloatStr(1.5e-7), "1.4999999999999999e-07");
  EXPECT_EQ(graphFloatStr(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(graphFloatStr(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(graphFloatStr(-0.0), "-0.");
  EXPECT_EQ(graphFloatStr(-2.0), "-2.");
}

TEST(ScalarTest, TorchScriptPrintOfFloats) {
  // print(x, -0.0, 1e15, 1e10, 123456789012.0, 1e9) in a TorchScript function, PyTorch 1.13:
  // "2.5 0. 1000000000000000. 10000000000. 123456789012. 1000000000."
  EXPECT_EQ(torchscriptFloatStr(2.5), "2.5");
  EXPECT_EQ(torchscriptFloatStr(-0.0), "0.");
  EXPECT_EQ(torchscriptFloatStr(1e15), "1000000000000000.");
  EXPECT_EQ(torchscriptFloatStr(123456789012.0), "123456789012.");
  // The same values inside a graph: value=-0., value=1000000000000000, value=1000000000.
  EXPECT_EQ(graphFloatStr(1e15), "1000000000000000");
  EXPECT_EQ(graphFloatStr(1e9), "1000000000.");
}

}  // namespace
}  // namespace kindling
