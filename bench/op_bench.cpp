// op_bench: Kindling's side of the op benchmark (bench/run_op_bench.py). Runs each case of a manifest — a
// scripted module whose forward calls one operator, and its torch.save'd inputs — through Kindling's own
// path (archive import, Module::freezeMethod, the interpreter, the registered kernel), timed by
// bench/op_timing.h exactly as bench/libtorch_op_bench.cpp times libtorch.
//
//   op_bench MANIFEST [--threads N] [--batches B] [--batch-ms T] [--warmup-ms W] [--only SUBSTR]
#include <cstdio>
#include <exception>

#include "api/api.h"
#include "api/program.h"
#include "op_timing.h"
#include "serialize/torch_save.h"

int main(int argc, char** argv) {
  opbench::Options o;
  if (!opbench::parseArgs(argc, argv, o)) {
    std::fprintf(stderr, "usage: op_bench MANIFEST [--threads N] [--batches B] [--batch-ms T] [--warmup-ms W] [--only S]\n");
    return 64;
  }
  kindling::set_num_threads(o.threads);
  std::printf("threads=%d\n", kindling::get_num_threads());
  for (const opbench::Case& c : opbench::readManifest(o.manifest)) {
    if (!o.only.empty() && c.name.find(o.only) == std::string::npos) continue;
    try {
      kindling::Program p = kindling::Program::open(c.archive);
      kindling::Callable fn = p.select("forward", "", /*forInference=*/true);
      kindling::IValue in = kindling::loadTorchSave(c.input);
      const std::vector<kindling::IValue> args =
          in.isTuple() ? in.toTupleRef().elements : std::vector<kindling::IValue>{in};
      opbench::timeCase(c.name, o, [&] { fn.call(args); });
    } catch (const std::exception& e) {
      opbench::printError(c.name, e.what());
    }
  }
  return 0;
}
