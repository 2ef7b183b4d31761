// compileSource: what a compile error leaves behind. A resolver handed to compileSource must be freed
// once the target that holds the compiled functions is gone, whether compilation succeeded or stopped at
// an error (a reference cycle through the class definer kept it, and the whole file's state, alive).
#include "frontend/compiler.h"

#include <gtest/gtest.h>

#include "frontend_test_util.h"

using namespace kindling;
using kindling::testing::TestTarget;

namespace {

// Resolves nothing; its lifetime is what the tests watch.
class NullResolver : public Resolver {
 public:
  TypePtr resolveType(const std::string&, const SourceRange&) override { return nullptr; }
  Function* resolveFunction(const std::string&, const SourceRange&) override { return nullptr; }
};

// Compiles `src` with a NullResolver; returns whether the resolver outlived the target.
bool resolverOutlivesTarget(const std::string& src, bool expectError) {
  std::weak_ptr<Resolver> watch;
  {
    TestTarget target;
    CompileOptions o;
    o.registry = &kindling::testing::allSchemasRegistry();
    auto r = std::make_shared<NullResolver>();
    watch = r;
    o.resolver = std::move(r);
    bool failed = false;
    try {
      compileSource(target, std::make_shared<Source>(src, "prog.py"), o);
    } catch (const CompileError&) {
      failed = true;
    }
    EXPECT_EQ(failed, expectError) << src;
  }
  return !watch.expired();
}

}  // namespace

TEST(Compiler, ResolverIsFreedAfterACompileError) {
  // An unknown annotation in a function, and in mutually-referring classes (the class definer runs).
  EXPECT_FALSE(resolverOutlivesTarget("def f(x: Unknown) -> int:\n    return 1\n", true));
  EXPECT_FALSE(resolverOutlivesTarget("class A:\n"
                                      "    def f(self, b: 'B') -> int:\n"
                                      "        return 1\n"
                                      "class B:\n"
                                      "    def g(self, a: A, u: Unknown) -> int:\n"
                                      "        return 1\n",
                                      true));
  // And after a program that compiles.
  EXPECT_FALSE(resolverOutlivesTarget("class A:\n"
                                      "    def f(self, b: 'B') -> int:\n"
                                      "        return 1\n"
                                      "class B:\n"
                                      "    def g(self, a: A) -> int:\n"
                                      "        return 1\n",
                                      false));
}
