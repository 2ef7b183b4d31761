// libtorch_op_bench: libtorch's side of the op benchmark (bench/run_op_bench.py), the anchor. Loads each
// case's archive with torch::jit::load and calls forward under InferenceMode with at::set_num_threads(N),
// timed by bench/op_timing.h exactly as bench/op_bench.cpp times Kindling. Bench only: never linked into
// Kindling.
//
//   libtorch_op_bench MANIFEST [--threads N] [--batches B] [--batch-ms T] [--warmup-ms W] [--only SUBSTR]
#include <torch/script.h>
#include <torch/csrc/jit/serialization/pickle.h>
#include <ATen/Parallel.h>

#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>

#include "op_timing.h"

namespace {
std::vector<torch::jit::IValue> loadInputs(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open input file " + path);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  torch::jit::IValue v = torch::jit::pickle_load(bytes);
  if (!v.isTuple()) return {v};
  auto elems = v.toTupleRef().elements();
  return std::vector<torch::jit::IValue>(elems.begin(), elems.end());
}
}  // namespace

int main(int argc, char** argv) {
  opbench::Options o;
  if (!opbench::parseArgs(argc, argv, o)) {
    std::fprintf(stderr, "usage: libtorch_op_bench MANIFEST [--threads N] [--batches B] [--batch-ms T] [--warmup-ms W] [--only S]\n");
    return 64;
  }
  at::set_num_threads(o.threads);
  at::set_num_interop_threads(1);
  c10::InferenceMode guard;
  std::printf("threads=%d\n", at::get_num_threads());
  for (const opbench::Case& c : opbench::readManifest(o.manifest)) {
    if (!o.only.empty() && c.name.find(o.only) == std::string::npos) continue;
    try {
      torch::jit::Module m = torch::jit::load(c.archive);
      m.eval();
      const std::vector<torch::jit::IValue> args = loadInputs(c.input);
      opbench::timeCase(c.name, o, [&] { m.forward(args); });
    } catch (const std::exception& e) {
      opbench::printError(c.name, e.what());
    }
  }
  return 0;
}
