// The embedded torch.nn.functional / torch/functional.py libraries (frontend/functional_library.h): every
// function of every library file compiles (its body emits against PyTorch 1.13's schemas), so a library
// file that stops being valid TorchScript fails here rather than at a user's first call of it.
#include "frontend/functional_library.h"

#include <gtest/gtest.h>

#include "frontend/library_sources.h"
#include "frontend_test_util.h"

namespace kindling {
namespace {

TEST(FunctionalLibrary, EveryFunctionOfEveryFileCompiles) {
  testing::TestTarget target;
  const OperatorRegistry& reg = testing::allSchemasRegistry();
  // one function of each library file pulls its whole file into the target
  for (const char* q : {"__torch__.torch.nn.functional.relu", "__torch__.torch.functional._return_output",
                        "__torch__.torch.functional.___torch_mangle_1.norm",
                        "__torch__.torch.functional.___torch_mangle_2.norm",
                        "__torch__.torch.functional.___torch_mangle_3.norm",
                        "__torch__.torch.functional.___torch_mangle_4.tensordot",
                        "__torch__.torch.functional.___torch_mangle_5.tensordot",
                        "__torch__.torch.functional.___torch_mangle_6.tensordot"})
    ASSERT_NE(functionalLibraryFunction(target, q, &reg), nullptr) << q;
  ASSERT_GT(target.functions().size(), 100u);
  for (testing::TestFunction* f : target.functions()) {
    SCOPED_TRACE(f->qualname());
    EXPECT_NO_THROW(f->graph());
  }
}

TEST(FunctionalLibrary, LookupByName) {
  EXPECT_TRUE(isFunctionalLibraryFunction("softmax"));
  EXPECT_FALSE(isFunctionalLibraryFunction("conv2d"));  // an aten alias, not a library body
  EXPECT_EQ(functionalBuiltinName("conv2d"), "aten::conv2d");
  EXPECT_TRUE(isLibraryQualifiedName("__torch__.torch.nn.functional.relu"));
  EXPECT_FALSE(isLibraryQualifiedName("__torch__.torch.nn.functionalx.relu"));
  testing::TestTarget target;
  EXPECT_EQ(functionalLibraryFunction(target, "__torch__.torch.nn.functional.no_such_function",
                                      &testing::allSchemasRegistry()),
            nullptr);
}

}  // namespace
}  // namespace kindling
