// libtorch_runner: the anchor of Kindling's benchmarks (DESIGN.md, "Benchmarks"). It runs a TorchScript
// archive with Debian's libtorch exactly as `kindling bench` runs it with Kindling, and prints the same
// figures, so bench/run_bench.py can alternate the two in one run and report ratios.
//
//   libtorch_runner MODEL.pt --input IN.pt [--threads N] [--warmup W] [--iters K] [--optimize]
//
// IN.pt is a file written by torch.save(args), args a tuple of positional arguments for forward (tensors, lists
// of tensors, ints: whatever forward takes). Models calling torchvision's operators need them registered:
// run with LD_PRELOAD=<torchvision>/_C.<abi>.so (bench/zoo_report.py does).
// --optimize runs torch::jit::freeze + optimize_for_inference first (conv-bn folding, prepacked weights):
// libtorch's best case, reported next to the plain anchor.
// Output, one `key=value` a line: load_ms, first_call_ms, cpu_median_ms (process CPU time per call),
// threads, blas, and last median_ms (wall clock). Exit 1 on any error, with a one-line message on stderr.
//
// Bench only: built with -DKINDLING_BUILD_BENCH=ON, never linked into Kindling.
#include <torch/script.h>
#include <torch/csrc/jit/passes/freeze_module.h>
#include <torch/csrc/jit/passes/frozen_graph_optimizations.h>
#include <torch/csrc/jit/serialization/import.h>
#include <torch/csrc/jit/serialization/pickle.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace {

double wall_ms() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

[[noreturn]] void usage() {
  std::cerr << "usage: libtorch_runner MODEL.pt --input IN.pt [--threads N] [--warmup W] [--iters K] [--optimize]\n";
  std::exit(64);
}

std::vector<torch::jit::IValue> load_inputs(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open input file " + path);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  torch::jit::IValue v = torch::jit::pickle_load(bytes);
  if (!v.isTuple()) throw std::runtime_error(path + ": expected a tuple of arguments (torch.save((x,)))");
  auto elems = v.toTupleRef().elements();
  std::vector<torch::jit::IValue> args(elems.begin(), elems.end());
  for (auto& a : args) {  // unpickled lists are List[Any]: a list of tensors must be a List[Tensor] for forward
    if (!a.isList() || a.toListRef().empty()) continue;
    bool allTensors = true;
    for (const auto& e : a.toListRef()) allTensors = allTensors && e.isTensor();
    if (!allTensors) continue;
    c10::List<at::Tensor> typed;
    for (const auto& e : a.toListRef()) typed.push_back(e.toTensor());
    a = torch::jit::IValue(typed);
  }
  return args;
}

}  // namespace

int main(int argc, char** argv) {
  std::string model, input;
  int threads = 1, warmup = 5, iters = 20;
  bool optimize = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage();
      return argv[++i];
    };
    if (a == "--input") input = next();
    else if (a == "--threads") threads = std::atoi(next().c_str());
    else if (a == "--warmup") warmup = std::atoi(next().c_str());
    else if (a == "--iters") iters = std::atoi(next().c_str());
    else if (a == "--optimize") optimize = true;
    else if (!a.empty() && a[0] == '-') usage();
    else if (model.empty()) model = a;
    else usage();
  }
  if (model.empty() || input.empty() || threads < 1 || iters < 1 || warmup < 0) usage();

  try {
    at::set_num_threads(threads);
    at::set_num_interop_threads(1);
    c10::InferenceMode guard;

    double t0 = wall_ms();
    torch::jit::Module m = torch::jit::load(model);
    m.eval();
    if (optimize) m = torch::jit::optimize_for_inference(m);
    double load_ms = wall_ms() - t0;

    std::vector<torch::jit::IValue> args = load_inputs(input);

    t0 = wall_ms();
    torch::jit::IValue out = m.forward(args);
    double first_ms = wall_ms() - t0;
    (void)out;  // any output (tensor, tuple, list of dicts: the zoo's detection models) is fine

    for (int i = 0; i < warmup; ++i) m.forward(args);
    std::vector<double> wall, cpu;
    for (int i = 0; i < iters; ++i) {
      double w = wall_ms(), c = cpu_ms();
      m.forward(args);
      cpu.push_back(cpu_ms() - c);
      wall.push_back(wall_ms() - w);
    }
    std::printf("threads=%d\n", at::get_num_threads());
    std::printf("optimize=%d\n", optimize ? 1 : 0);
    std::printf("load_ms=%.3f\n", load_ms);
    std::printf("first_call_ms=%.3f\n", first_ms);
    std::printf("min_ms=%.3f\n", *std::min_element(wall.begin(), wall.end()));
    std::printf("cpu_median_ms=%.4f\n", median(cpu));
    std::printf("median_ms=%.3f\n", median(wall));
    return 0;
  } catch (const std::exception& e) {
    std::string msg = e.what();
    std::replace(msg.begin(), msg.end(), '\n', ' ');
    std::cerr << "libtorch_runner: " << msg.substr(0, 500) << "\n";
    return 1;
  }
}
