// Fuzz target: reading a torch.save file (serialize/torch_save.h), the CLI's `--input IN.pt`. A value that
// loads is printed, which walks all of it.
#include "core/ivalue.h"
#include "fuzz_input.h"
#include "serialize/torch_save.h"

using namespace kindling;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::acceptCleanErrors([&] {
    IValue v = loadTorchSave(fuzz::inputStorage(data, size), "<fuzz input>");
    (void)v.repr();
  });
  return 0;
}
