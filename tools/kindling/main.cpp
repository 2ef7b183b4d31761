// The `kindling` command line (DESIGN.md, "The command line"):
//   kindling run     PROGRAM [--method NAME | --function NAME] [--input IN.pt] [--output OUT.pt] [--threads N] [--verify]
//   kindling graph   PROGRAM [--method NAME | --function NAME] [--format text|dot|svg|png] [--verify]
//   kindling code    PROGRAM [--method NAME | --function NAME] [--verify]
//   kindling bench   PROGRAM --input IN.pt [--threads N] [--warmup W] [--iters K] [--profile] [--verify]
//   kindling inspect ARCHIVE [--json]
//   kindling save    PROGRAM -o OUT.pt [--function NAME] [--extra NAME=FILE]... [--reprint]
//   kindling ops
// Exit codes: 0 ok, 1 compile/load error, 2 runtime error raised by the program, 64 usage error,
// 70 internal error (a bug in Kindling, core/internal_error.h: the message asks for a report).
// --verify runs the graph verifier (ir/lint.h) after every pass; a failure is an internal error.
// Errors are printed to stderr as "error: <message>" (compile errors add TorchScript's source excerpt).
#include <CLI/CLI.hpp>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <new>
#include <sstream>

#include "api/api.h"
#include "api/program.h"
#include "graphviz_render.h"
#include "ir/dot_printer.h"
#include "ir/ir.h"
#include "ir/irparser.h"
#include "ir/lint.h"
#include "core/internal_error.h"
#include "ops/registry/operator.h"
#include "runtime/graph_function.h"
#include "runtime/op_profiler.h"
#include "serialize/export_archive.h"
#include "serialize/import_archive.h"
#include "serialize/python_print.h"
#include "serialize/torch_save.h"

using namespace kindling;

namespace {

constexpr int kExitOk = 0, kExitLoad = 1, kExitRuntime = 2, kExitUsage = 64, kExitInternal = 70;
// Bounds of numeric options: more OpenMP threads than this only oversubscribes the machine.
constexpr int kMaxThreads = 1024, kMaxCalls = 1000000;

double nowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double cpuMs() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct CommonOptions {
  std::string program;
  std::string method;
  std::string function;
  std::string input;
  std::string output;
  int threads = 0;
  int warmup = 3;
  int iters = 20;
  bool profile = false;
  std::string format = "text";  // kindling graph
  bool json = false;            // kindling inspect
  bool verify = false;          // --verify: lint after every pass (ir/lint.h)
};

// errno of the first failed flush of stdout (reported at exit).
int gStdoutErrno = 0;

void flushStdout() {
  errno = 0;
  if ((std::fflush(stdout) != 0 || std::ferror(stdout)) && !gStdoutErrno) gStdoutErrno = errno;
}

// Runs a step that reads the user's files (archive, source, inputs): running out of memory there is a load
// error (exit 1) naming the file, not a runtime error of the program.
template <class F>
auto loading(const std::string& path, F&& step) -> decltype(step()) {
  try {
    return step();
  } catch (const std::bad_alloc&) {
    throw LoadError(fmt::format("out of memory while loading '{}'", path));
  }
}

Program openProgram(const std::string& path) {
  return loading(path, [&] { return Program::open(path); });
}

std::vector<IValue> readInputs(const std::string& path) {
  if (path.empty()) return {};
  IValue v = loading(path, [&] { return loadTorchSave(path); });
  if (v.isTuple()) return v.toTupleRef().elements;
  return {v};
}

void applyThreads(int n) {
  if (n != 0) set_num_threads(n);
}

int cmdRun(const CommonOptions& o) {
  applyThreads(o.threads);
  double t0 = nowMs();
  Program p = openProgram(o.program);
  Callable c = loading(o.program, [&] { return p.select(o.method, o.function, /*forInference=*/true); });
  double t1 = nowMs();
  std::vector<IValue> args = readInputs(o.input);
  double t2 = nowMs();
  IValue out = c.call(std::move(args));
  double t3 = nowMs();
  if (!o.output.empty()) {
    saveTorchSave(out, o.output);
  } else {
    std::string s = out.str();
    std::fwrite(s.data(), 1, s.size(), stdout);
    std::fputc('\n', stdout);
    flushStdout();
  }
  std::fprintf(stderr, "load: %.3f ms, run: %.3f ms\n", t1 - t0, t3 - t2);
  return kExitOk;
}

// Hidden `kindling graph FILE --parse-ir`: FILE holds graph text (as `kindling graph` prints it); parse it
// with ir/irparser.h and print it again (without source locations). Class types named in the text become
// empty classes, function constants empty functions: the round trip test of the printer and the parser.
int cmdParseIR(const CommonOptions& o) {
  std::ifstream f(o.program, std::ios::binary);
  if (!f) throw LoadError(fmt::format("cannot open '{}': No such file or directory", o.program));
  std::stringstream ss;
  ss << f.rdbuf();
  std::unordered_map<std::string, TypePtr> classes;
  std::vector<std::unique_ptr<GraphFunction>> functions;
  IRParserOptions opts;
  opts.resolveType = [&](const std::string& name) -> TypePtr {
    if (name.rfind("__torch__.", 0) != 0) return nullptr;
    auto& t = classes[name];
    if (!t) t = ClassType::create(name, false);
    return t;
  };
  opts.resolveFunction = [&](const std::string& name) -> Function* {
    functions.push_back(std::make_unique<GraphFunction>(name, nullptr));
    return functions.back().get();
  };
  std::string s = parseIR(ss.str(), opts)->toString();
  std::fwrite(s.data(), 1, s.size(), stdout);
  return kExitOk;
}

// Hidden `kindling code PROGRAM --function F --code-files`: the chosen function (or method's class) and
// everything it depends on, as the code/ files of an archive, each introduced by a line "#@file PATH".
int cmdCodeFiles(const CommonOptions& o) {
  Program p = openProgram(o.program);
  Callable c = loading(o.program, [&] { return p.select(o.method, o.function); });
  std::vector<IValue> constants;
  TypePtr root = c.self ? TypePtr(c.self->type()) : TypePtr(std::make_shared<FunctionType>(c.function));
  for (const CodeFile& file : printCodeFiles({root}, &constants)) {
    std::printf("#@file %s\n", file.path.c_str());
    std::fwrite(file.text.data(), 1, file.text.size(), stdout);
  }
  if (!constants.empty()) std::printf("#@constants %zu\n", constants.size());
  return kExitOk;
}

int cmdGraph(const CommonOptions& o) {
  Program p = openProgram(o.program);
  Callable c = loading(o.program, [&] { return p.select(o.method, o.function); });
  if (o.verify) {
    // The printed graph went through the cleanup passes (linted); the inference passes run here too so
    // that all of them are verified, as they would be before a run.
    c.function->graph()->lint();
    if (auto* gf = dynamic_cast<GraphFunction*>(c.function)) gf->optimizedGraph();
  }
  std::string s;
  if (o.format == "text") {
    s = c.function->graph()->toString();
    if (s.empty() || s.back() != '\n') s += '\n';
  } else {
    s = graphToDot(*c.function->graph(), c.function->qualname());
    if (o.format != "dot") s = renderDot(s, o.format);
  }
  std::fwrite(s.data(), 1, s.size(), stdout);
  return kExitOk;
}

int cmdCode(const CommonOptions& o) {
  Program p = openProgram(o.program);
  Callable c = loading(o.program, [&] { return p.select(o.method, o.function); });
  // As print(fn.code) / print(m.forward.code): the code printer over the compiled graph.
  std::string s = pythonCodeOf(*c.function, /*isMethod=*/c.self.has_value());
  std::fwrite(s.data(), 1, s.size(), stdout);
  if (s.empty() || s.back() != '\n') std::fputc('\n', stdout);
  return kExitOk;
}

// The --profile table: per node kind, wall and process CPU time per call (the timed calls' totals / their
// number) and their share of the call, most wall time first; "(outside operators)" is what the calls spent
// in the interpreter between operators.
void printProfile(const std::vector<double>& wall, const std::vector<double>& cpu) {
  double total = 0, totalCpu = 0;
  for (double w : wall) total += w;
  for (double c : cpu) totalCpu += c;
  const double n = static_cast<double>(wall.size());
  std::vector<profiler::Entry> entries = profiler::snapshot();
  double inOps = 0, inOpsCpu = 0;
  for (const auto& e : entries) {
    inOps += e.totalMs;
    inOpsCpu += e.totalCpuMs;
  }
  auto pct = [](double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; };
  std::printf("profile: %zu timed calls; per call: %.4f ms wall, %.4f ms cpu\n", wall.size(), total / n, totalCpu / n);
  std::printf("profile: %-36s %11s %7s %11s %7s %8s\n", "node kind", "wall ms", "wall %", "cpu ms", "cpu %", "nodes");
  for (const auto& e : entries)
    std::printf("profile: %-36s %11.4f %7.2f %11.4f %7.2f %8.1f\n", e.kind.c_str(), e.totalMs / n, pct(e.totalMs, total),
                e.totalCpuMs / n, pct(e.totalCpuMs, totalCpu), static_cast<double>(e.calls) / n);
  std::printf("profile: %-36s %11.4f %7.2f %11.4f %7.2f\n", "(outside operators)", (total - inOps) / n,
              pct(total - inOps, total), (totalCpu - inOpsCpu) / n, pct(totalCpu - inOpsCpu, totalCpu));
}

int cmdBench(const CommonOptions& o) {
  if (o.iters < 1) throw UsageError("--iters must be at least 1");
  if (o.warmup < 0) throw UsageError("--warmup must be >= 0");
  applyThreads(o.threads);
  profiler::setEnabled(o.profile);  // before compiling: only Code compiled while enabled is timed
  double t0 = nowMs();
  Program p = openProgram(o.program);
  Callable c = loading(o.program, [&] { return p.select(o.method, o.function, /*forInference=*/true); });
  double loadMs = nowMs() - t0;
  std::vector<IValue> args = readInputs(o.input);
  double f0 = nowMs();
  c.call(args);
  double firstMs = nowMs() - f0;
  for (int i = 0; i < o.warmup; ++i) c.call(args);
  profiler::reset();  // the profile covers the timed calls only
  std::vector<double> wall, cpu;
  for (int i = 0; i < o.iters; ++i) {
    double w = nowMs(), u = cpuMs();
    c.call(args);
    cpu.push_back(cpuMs() - u);
    wall.push_back(nowMs() - w);
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  };
  std::vector<double> sorted = wall;
  std::sort(sorted.begin(), sorted.end());
  double mean = 0;
  for (double w : wall) mean += w;
  mean /= wall.size();
  std::printf("program=%s threads=%d warmup=%d iters=%d\n", o.program.c_str(), get_num_threads(), o.warmup, o.iters);
  std::printf("load_ms=%.3f\n", loadMs);
  std::printf("first_call_ms=%.3f\n", firstMs);
  for (size_t i = 0; i < wall.size(); ++i) std::printf("iter %zu: %.3f ms (cpu %.3f ms)\n", i, wall[i], cpu[i]);
  std::printf("min_ms=%.3f\n", sorted.front());
  std::printf("mean_ms=%.3f\n", mean);
  std::printf("p90_ms=%.3f\n", sorted[std::min(sorted.size() - 1, static_cast<size_t>(0.9 * sorted.size()))]);
  std::printf("max_ms=%.3f\n", sorted.back());
  std::printf("cpu_median_ms=%.4f\n", median(cpu));
  if (o.profile) printProfile(wall, cpu);
  std::printf("median_ms=%.4f\n", median(wall));
  return kExitOk;
}

int cmdInspect(const CommonOptions& o) {
  ImportOptions io;
  ImportedArchive a = loading(o.program, [&] { return importArchive(o.program, io); });
  std::string s = o.json ? describeArchiveJson(a) : describeArchive(a);
  std::fwrite(s.data(), 1, s.size(), stdout);
  return kExitOk;
}

int cmdSave(const CommonOptions& o, const std::vector<std::string>& extras, bool reprint) {
  ExtraFilesMap extraFiles;
  for (const std::string& e : extras) {  // NAME=FILE
    size_t eq = e.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError(fmt::format("--extra expects NAME=FILE, got '{}'", e));
    std::ifstream f(e.substr(eq + 1), std::ios::binary);
    if (!f) throw LoadError(fmt::format("cannot open '{}': No such file or directory", e.substr(eq + 1)));
    std::stringstream ss;
    ss << f.rdbuf();
    extraFiles[e.substr(0, eq)] = ss.str();
  }
  Program p = openProgram(o.program);  // surfaces compile/load errors first
  p.save(o.output, o.function, extraFiles, reprint);
  return kExitOk;
}

int cmdOps() {
  for (const std::string& s : allSchemaStrings()) std::printf("%s\n", s.c_str());
  return kExitOk;
}

std::string firstLine(const std::string& s) {
  size_t nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

int runCli(int argc, char** argv) {
  CLI::App app{"kindling: TorchScript without libtorch — run, inspect and benchmark TorchScript programs"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for all subcommands");
  CommonOptions o;
  std::string cmd;

  auto addProgram = [&](CLI::App* sc, const char* what) {
    sc->add_option("PROGRAM", o.program, what)->required();
  };
  auto addSelect = [&](CLI::App* sc) {
    auto* m = sc->add_option("--method", o.method, "method of the archive's root module (default: forward)");
    auto* f = sc->add_option("--function", o.function, "free function to use (source programs, or archive functions)");
    m->excludes(f);
    f->excludes(m);
  };
  const char* progHelp = "archive written by torch.jit.save (or Kindling), or a TorchScript source file (.py)";

  auto addVerify = [&](CLI::App* sc) {
    sc->add_flag("--verify", o.verify, "check every graph with the IR verifier after each pass (a failure is an internal error, exit 70)");
  };

  CLI::App* run = app.add_subcommand("run", "run a method or function and print (or save) its result");
  addVerify(run);
  addProgram(run, progHelp);
  addSelect(run);
  run->add_option("--input", o.input, "torch.save'd tuple of positional arguments (a non-tuple value is one argument)");
  run->add_option("--output", o.output, "write the result here in torch.save format (else print it)");
  run->add_option("--threads", o.threads, "intra-op threads (1 to 1024)")->check(CLI::Range(1, kMaxThreads));

  CLI::App* graph = app.add_subcommand("graph", "print the IR graph, as print(fn.graph)");
  addVerify(graph);
  addProgram(graph, progHelp);
  addSelect(graph);
  bool parseIRFlag = false;
  graph->add_flag("--parse-ir", parseIRFlag, "PROGRAM is graph text: parse and print it again")->group("");
  graph->add_option("--format", o.format, "text (as print(fn.graph)), dot (Graphviz), svg or png (rendered by Graphviz's dot)")
      ->check(CLI::IsMember({"text", "dot", "svg", "png"}));

  CLI::App* code = app.add_subcommand("code", "print the code, as print(fn.code)");
  addVerify(code);
  addProgram(code, progHelp);
  addSelect(code);
  bool codeFilesFlag = false;
  code->add_flag("--code-files", codeFilesFlag, "print the code/ files of the function and its dependencies")->group("");

  CLI::App* bench = app.add_subcommand("bench", "time repeated calls; the last line is median_ms=<float>");
  addVerify(bench);
  addProgram(bench, progHelp);
  addSelect(bench);
  bench->add_option("--input", o.input, "torch.save'd tuple of positional arguments")->required();
  bench->add_option("--threads", o.threads, "intra-op threads (1 to 1024)")->check(CLI::Range(1, kMaxThreads));
  bench->add_option("--warmup", o.warmup, "untimed calls after the first (default 3)")->check(CLI::Range(0, kMaxCalls));
  bench->add_option("--iters", o.iters, "timed calls (default 20)")->check(CLI::Range(1, kMaxCalls));
  bench->add_flag("--profile", o.profile, "print the time per node kind of the timed calls (before the last line)");

  CLI::App* inspect = app.add_subcommand("inspect", "list an archive's classes, methods, parameters and attributes");
  addProgram(inspect, "archive written by torch.jit.save");
  inspect->add_flag("--json", o.json, "print one JSON object (for tools) instead of text");

  CLI::App* save = app.add_subcommand("save", "compile a source program, or re-save an archive");
  addProgram(save, progHelp);
  save->add_option("-o,--output", o.output, "archive to write")->required();
  save->add_option("--function", o.function, "function of a source program to save (as torch.jit.script(fn).save)");
  std::vector<std::string> saveExtras;
  bool saveReprint = false;
  save->add_option("--extra", saveExtras, "add extra/NAME with the content of FILE (repeatable)")->type_name("NAME=FILE");
  save->add_flag("--reprint", saveReprint, "archives: print code/ from the compiled classes instead of copying it");

  CLI::App* ops = app.add_subcommand("ops", "print every registered operator schema, one per line");
  // Hidden: raise an InternalError on purpose, so tests can check how the CLI reports one (exit 70).
  bool debugInternalError = false;
  ops->add_flag("--debug-internal-error", debugInternalError, "raise an internal error (for tests)")->group("");

  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    for (const CLI::App* sc : app.get_subcommands([](CLI::App*) { return true; }))
      if (sc->get_name() == argv[1]) known = true;
    if (!known) {
      std::fprintf(stderr, "error: unknown command '%s' (commands: run, graph, code, bench, inspect, save, ops)\n", argv[1]);
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "error: %s\n", firstLine(e.what()).c_str());
    std::fprintf(stderr, "%s", app.help().c_str());
    return kExitUsage;
  }

  try {
    if (o.verify) setGraphVerification(true);
    if (debugInternalError) throw InternalError("deliberate internal error (kindling ops --debug-internal-error)");
    if (run->parsed()) return cmdRun(o);
    if (graph->parsed()) return parseIRFlag ? cmdParseIR(o) : cmdGraph(o);
    if (code->parsed()) return codeFilesFlag ? cmdCodeFiles(o) : cmdCode(o);
    if (bench->parsed()) return cmdBench(o);
    if (inspect->parsed()) return cmdInspect(o);
    if (save->parsed()) return cmdSave(o, saveExtras, saveReprint);
    if (ops->parsed()) return cmdOps();
    std::fprintf(stderr, "error: no command given\n");
    return kExitUsage;
  } catch (const InternalError& e) {
    // The whole message: after its first line come the context lines a report needs (node, graph).
    std::string msg = e.what();
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    std::fprintf(stderr, "error: %s\n", msg.c_str());
    return kExitInternal;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return kExitUsage;
  } catch (const CompileError& e) {
    std::string msg = e.what();
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    std::fprintf(stderr, "error: %s\n", msg.c_str());
    return kExitLoad;
  } catch (const LoadError& e) {
    std::fprintf(stderr, "error: %s\n", firstLine(e.what()).c_str());
    return kExitLoad;
  } catch (const RuntimeError& e) {
    std::string cls = e.pythonClass();
    size_t dot = cls.rfind('.');
    if (dot != std::string::npos) cls = cls.substr(dot + 1);
    std::fprintf(stderr, "error: %s: %s\n", cls.c_str(), firstLine(e.message()).c_str());
    if (!e.callStack.empty()) {
      std::string frames;
      for (const auto& f : e.callStack) frames += (frames.empty() ? "" : " -> ") + f;
      std::fprintf(stderr, "  in TorchScript: %s\n", frames.c_str());
    }
    return kExitRuntime;
  } catch (const Error& e) {
    std::fprintf(stderr, "error: %s\n", firstLine(e.what()).c_str());
    return kExitLoad;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "error: out of memory\n");
    return kExitRuntime;
  } catch (const std::exception& e) {
    // Not one of Kindling's errors (std::out_of_range from an .at(), ...): a Kindling bug.
    std::fprintf(stderr, "error: %s%s\n", InternalError::kPrefix, firstLine(e.what()).c_str());
    return kExitInternal;
  }
}

}  // namespace

// The process ends with _Exit after flushing the output: forked tasks (torch.jit.fork) the program never
// waited for may still run on the inter-op pool, and static destructors (operator registry, oneDNN engine)
// must not run under them.
// Output that could not be written (a full disk, /dev/full, a closed pipe when SIGPIPE is ignored) is an
// error: exit 1 with a message, unless the command already failed. With SIGPIPE at its default, a reader
// that goes away ends the process as it ends other Unix tools.
int main(int argc, char** argv) {
  // Output to a file or pipe is held until the end (up to 1 MiB), so that a failing write is seen by the
  // final fflush with its errno (ENOSPC, EPIPE) rather than inside an earlier printf.
  static char stdoutBuffer[1 << 20];
  if (!isatty(fileno(stdout))) std::setvbuf(stdout, stdoutBuffer, _IOFBF, sizeof stdoutBuffer);
  int rc = runCli(argc, argv);
  flushStdout();
  std::cout.flush();
  if (std::ferror(stdout)) {
    int err = gStdoutErrno;
    std::fprintf(stderr, "error: cannot write to standard output: %s\n", err ? std::strerror(err) : "write error");
    if (rc == kExitOk) rc = kExitLoad;
  }
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(rc);
}
