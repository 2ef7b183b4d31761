// Kindling's public C++ API: run TorchScript archives without libtorch. Everything a program needs comes
// from the headers in include/kindling/ and libkindling (find_package(kindling) → kindling::kindling, or
// pkg-config kindling); none of them includes anything but the C++ standard library.
//
//   #include <kindling/kindling.h>
//   kindling::set_num_threads(1);
//   kindling::jit::Module m = kindling::jit::load("model.pt");           // torch::jit::load
//   kindling::Tensor x = kindling::ones({1, 3, 224, 224});
//   kindling::Tensor y = m.forward({x}).toTensor();                       // module.forward({x})
//   auto [values, indices] = y.softmax(1).topk(5);
//   m.save("copy.pt", {{"meta.json", "{}"}});                             // module.save(path, extra_files)
//
//   kindling/module.h       jit::load, jit::Module, jit::Method
//   kindling/ivalue.h       IValue, Tuple, List, GenericDict, Object, call_op
//   kindling/tensor.h       Tensor, from_blob, factories
//   kindling/scalar_type.h  ScalarType (kFloat, ...), Device
//   kindling/threads.h      set_num_threads, version
//   kindling/guards.h       NoGradGuard, InferenceMode (no-ops)
//   kindling/error.h        Error, LoadError, CompileError, RuntimeError, UsageError
//   kindling/torch_compat.h torch:: / at:: / c10:: names for code ported from libtorch (not included here)
#pragma once

#include "kindling/error.h"
#include "kindling/export.h"
#include "kindling/guards.h"
#include "kindling/ivalue.h"
#include "kindling/module.h"
#include "kindling/scalar_type.h"
#include "kindling/tensor.h"
#include "kindling/threads.h"
#include "kindling/version.h"
