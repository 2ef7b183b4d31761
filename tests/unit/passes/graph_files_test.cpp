// Data-driven pass tests: every tests/unit/data/passes/*.graph file (format in README.md there).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "passes/canonicalize/constant_pooling.h"
#include "passes/canonicalize/constant_propagation.h"
#include "passes/canonicalize/dead_code_elimination.h"
#include "passes/pipeline.h"
#include "passes_test_util.h"

namespace kindling {
namespace {

using testing::canonicalNumbers;

void runPass(const std::string& name, Graph& g) {
  if (name == "constprop") propagateConstants(g);
  else if (name == "constprop-immutable") propagateConstants(g, true);
  else if (name == "dce") eliminateDeadCode(g);
  else if (name == "pool") poolConstants(g);
  else if (name == "cleanup") runCleanupPasses(g);
  else if (name == "inference") runInferencePasses(g);
  else FAIL() << "unknown pass " << name;
}

TEST(GraphFilesTest, AllFiles) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(KINDLING_TEST_DATA_DIR) / "passes";
  size_t count = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".graph") continue;
    ++count;
    SCOPED_TRACE(entry.path().filename().string());
    std::ifstream f(entry.path());
    std::stringstream ss;
    ss << f.rdbuf();
    std::string text = ss.str();
    ASSERT_EQ(text.rfind("# passes:", 0), 0u) << "first line must be '# passes: ...'";
    size_t eol = text.find('\n');
    std::istringstream passes(text.substr(9, eol - 9));
    size_t split = text.find("# expect:\n");
    ASSERT_NE(split, std::string::npos);
    std::string input = text.substr(eol + 1, split - eol - 1);
    std::string expected = text.substr(split + 10);
    auto g = parseIR(input);
    std::string p;
    while (passes >> p) runPass(p, *g);
    EXPECT_EQ(canonicalNumbers(g->toString(false)), canonicalNumbers(expected));
  }
  EXPECT_GE(count, 4u);
}

}  // namespace
}  // namespace kindling
