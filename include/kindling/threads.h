// Threads (at::set_num_threads look-alikes). Kindling has one explicit setting for intra-op parallelism
// (the OpenMP threads its kernels and oneDNN use) that it obeys, and one for inter-op tasks
// (torch.jit.fork). Both are process-wide; set them before the first call for predictable timings.
#pragma once
#include "kindling/export.h"

namespace kindling {
namespace api {

/// Threads each kernel may use; n >= 1 (UsageError otherwise). Default: OpenMP's (OMP_NUM_THREADS, else
/// the number of cores).
KINDLING_API void set_num_threads(int n);
KINDLING_API int get_num_threads();
/// Threads that run forked tasks (torch.jit.fork); n >= 1. UsageError after the pool has started, as
/// at::set_num_interop_threads.
KINDLING_API void set_num_interop_threads(int n);
KINDLING_API int get_num_interop_threads();
/// The library's version ("0.1.0"); KINDLING_VERSION_STRING is the headers'.
KINDLING_API const char* version();

}  // namespace api
#if KINDLING_EXPOSE_PUBLIC_NAMES
using namespace api;
#endif
}  // namespace kindling
