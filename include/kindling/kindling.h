// Kindling's public C++ API: TorchScript archives without libtorch. Mirrors libtorch's inference API:
//
//   #include <kindling/kindling.h>
//   kindling::set_num_threads(1);
//   kindling::jit::Module m = kindling::jit::load("model.pt");          // torch::jit::load
//   kindling::Tensor x = kindling::Tensor::zeros({1, 3, 224, 224});
//   kindling::IValue y = m.forward({x});                                  // module.forward({x})
//   std::cout << y.repr() << "\n";
//   m.save("copy.pt", {{"meta.json", "{}"}});                            // module.save(path, extra_files)
//
// Errors are exceptions derived from kindling::Error: LoadError (bad file/archive), CompileError (bad
// TorchScript in the archive), RuntimeError (raised while running, e.g. a wrong input shape).
// Build against the include path <repo>/src and link kindling_api.
#pragma once

#include "api/api.h"
#include "core/error.h"
#include "core/ivalue.h"
#include "runtime/module.h"
#include "tensor/tensor.h"

namespace kindling {
namespace jit {
using ::kindling::ExtraFilesMap;
using ::kindling::IValue;
}  // namespace jit
}  // namespace kindling
