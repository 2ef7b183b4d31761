// Operator profiling: Code compiled while profiling is on records every operator call by node kind;
// Code compiled while it is off records nothing, even when profiling is turned on later.
#include "runtime/op_profiler.h"

#include <gtest/gtest.h>

#include <mutex>

#include "ir/irparser.h"
#include "runtime/interpreter.h"

namespace kindling {
namespace {

void registerProfilerTestOps() {
  static std::once_flag once;
  std::call_once(once, [] {
    OperatorRegistry::global().add("profiler_test::inc(int a) -> int", [](Stack& s) {
      int64_t a = pop(s).toInt();
      push(s, a + 1);
    });
    OperatorRegistry::global().add("profiler_test::sum(...) -> int", [](Stack& s) {
      int64_t n = pop(s).toInt(), total = 0;
      for (int64_t i = 0; i < n; ++i) total += pop(s).toInt();
      push(s, total);
    });
  });
}

const char* kGraph = R"IR(graph(%x : int):
  %a : int = profiler_test::inc(%x)
  %b : int = profiler_test::inc(%a)
  %c : int = profiler_test::sum(%a, %b, %x)
  return (%c)
)IR";

int64_t runOnce(const Code& code, int64_t x) {
  Stack s{IValue(x)};
  code.run(s);
  return s.at(0).toInt();
}

struct ProfilingOff {
  ~ProfilingOff() {
    profiler::setEnabled(false);
    profiler::reset();
  }
};

TEST(OpProfilerTest, CountsCallsByNodeKind) {
  registerProfilerTestOps();
  ProfilingOff off;
  profiler::reset();
  profiler::setEnabled(true);
  Code code(parseIR(kGraph), "f");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(runOnce(code, 10), 11 + 12 + 10);  // results unchanged when timed
  auto entries = profiler::snapshot();
  ASSERT_EQ(entries.size(), 2u);
  int64_t inc = 0, sum = 0;
  for (const auto& e : entries) {
    EXPECT_GE(e.totalMs, 0.0);
    EXPECT_GE(e.totalCpuMs, 0.0);
    if (e.kind == "profiler_test::inc") inc = e.calls;
    if (e.kind == "profiler_test::sum") sum = e.calls;  // vararg operator: still one call per node run
  }
  EXPECT_EQ(inc, 6);
  EXPECT_EQ(sum, 3);
  EXPECT_GE(entries[0].totalMs, entries[1].totalMs);  // most time first
  profiler::reset();
  EXPECT_TRUE(profiler::snapshot().empty());
}

TEST(OpProfilerTest, CodeCompiledWithProfilingOffIsNotTimed) {
  registerProfilerTestOps();
  ProfilingOff off;
  profiler::setEnabled(false);
  Code code(parseIR(kGraph), "f");
  profiler::setEnabled(true);
  profiler::reset();
  EXPECT_EQ(runOnce(code, 1), 2 + 3 + 1);
  EXPECT_TRUE(profiler::snapshot().empty());
  EXPECT_EQ(code.dump().find("OP_PROFILED"), std::string::npos);
}

}  // namespace
}  // namespace kindling
