// Fuzz target: the unpickler (serialize/unpickler.h) on a raw pickle, as data.pkl or constants.pkl. Tensor
// storages resolve to zero-filled memory of the requested size (up to 1 MiB; larger is a clean
// LoadError), classes to nothing. A value that loads is printed both ways, which walks all of it.
#include "core/ivalue.h"
#include "fuzz_input.h"
#include "serialize/unpickler.h"

using namespace kindling;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::acceptCleanErrors([&] {
    auto storages = [](const std::string& key, size_t nbytes) -> Storage {
      if (nbytes > (size_t{1} << 20)) throw LoadError("fuzz: storage '" + key + "' is larger than 1 MiB");
      Storage s = makeIntrusive<StorageImpl>(nbytes);
      if (nbytes) std::memset(s->data(), 0, nbytes);
      return s;
    };
    IValue v = unpickle(data, size, "data.pkl", [](const std::string&) -> TypePtr { return nullptr; }, storages);
    (void)v.repr();
    (void)v.printStr();
  });
  return 0;
}
