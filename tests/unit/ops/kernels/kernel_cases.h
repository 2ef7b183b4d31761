// Data-driven kernel tests against PyTorch 1.13: gen_kernel_cases.py (run here with /usr/bin/python3, or
// read from $KINDLING_KERNEL_CASES when set) writes each case's arguments and PyTorch's results; this
// harness builds the arguments, runs the registered kernel and compares results (float tolerance 1e-4
// relative + absolute; exact for integers/bools; errors must carry PyTorch's message).
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ops/registry/operator.h"
#include "tensor/tensor.h"

namespace kindling::testing {

struct KernelCase {
  std::string family, op, name;
  std::vector<std::string> args;      // "a ..." lines (nested tensor lists inline)
  std::vector<std::string> expects;   // "e ..." lines
  std::string error;                  // "x ..." message, empty when the call succeeds
  bool hasError = false;
};

struct KernelCaseFile {
  std::vector<KernelCase> cases;
  std::vector<std::string> schemas;  // PyTorch's schema strings
};

inline const KernelCaseFile& kernelCaseFile() {
  static KernelCaseFile file = [] {
    std::string path;
    if (const char* env = std::getenv("KINDLING_KERNEL_CASES")) {
      path = env;
    } else {
      char tmpl[] = "/tmp/kindling_kernel_cases_XXXXXX";
      int fd = mkstemp(tmpl);
      if (fd >= 0) close(fd);
      path = tmpl;
      const std::string script = std::string(KINDLING_TEST_DATA_DIR) + "/../ops/kernels/gen_kernel_cases.py";
      const std::string cmd = "/usr/bin/python3 " + script + " " + path + " 2>/dev/null";
      if (std::system(cmd.c_str()) != 0) ADD_FAILURE() << "generator failed: " << cmd;
    }
    KernelCaseFile out;
    std::ifstream in(path);
    std::string line;
    KernelCase cur;
    while (std::getline(in, line)) {
      if (line.rfind("case ", 0) == 0) {
        cur = KernelCase();
        std::istringstream ss(line.substr(5));
        ss >> cur.family >> cur.op >> cur.name;
      } else if (line.rfind("a ", 0) == 0) {
        cur.args.push_back(line.substr(2));
      } else if (line.rfind("e ", 0) == 0) {
        cur.expects.push_back(line.substr(2));
      } else if (line.rfind("x ", 0) == 0) {
        cur.error = line.substr(2);
        cur.hasError = true;
      } else if (line == "end") {
        out.cases.push_back(cur);
      } else if (line.rfind("schema ", 0) == 0) {
        out.schemas.push_back(line.substr(7));
      }
    }
    if (!std::getenv("KINDLING_KERNEL_CASES")) std::remove(path.c_str());
    return out;
  }();
  return file;
}

inline const std::vector<KernelCase>& kernelCases() { return kernelCaseFile().cases; }

/// Every operator in `registry` must carry one of PyTorch 1.13's schema strings verbatim, or one of the
/// PyTorch 2.x schemas of data/ops/pytorch2_schemas.txt (operators 1.13 lacks).
inline void expectPyTorchSchemas(const OperatorRegistry& registry) {
  std::vector<std::string> all = kernelCaseFile().schemas;
  ASSERT_FALSE(all.empty());
  std::ifstream newer(std::string(KINDLING_TEST_DATA_DIR) + "/ops/pytorch2_schemas.txt");
  for (std::string line; std::getline(newer, line);) all.push_back(line);
  for (const auto& op : registry.all()) {
    const std::string s = op->schema.str();
    EXPECT_NE(std::find(all.begin(), all.end(), s), all.end()) << "not a PyTorch 1.13 schema: " << s;
  }
}

/// Parses "<dtype> [layout] <ndim> <sizes...> <values...>" into a tensor.
inline Tensor parseTensor(std::istringstream& ss, bool hasLayout) {
  int dt;
  std::string layout = "c";
  int64_t nd;
  ss >> dt;
  if (hasLayout) ss >> layout;
  ss >> nd;
  IntArray sizes(nd);
  int64_t n = 1;
  for (auto& s : sizes) {
    ss >> s;
    n *= s;
  }
  std::vector<double> vals(n);
  for (auto& v : vals) {
    std::string tok;
    ss >> tok;
    v = std::strtod(tok.c_str(), nullptr);
  }
  const ScalarType dtype = static_cast<ScalarType>(dt);
  Tensor t = Tensor::fromVector<double>(vals, ScalarType::Double).reshape(sizes).to(dtype, /*copy=*/true);
  if (layout == "cl") {
    IntArray st;
    if (nd == 4) st = {sizes[1] * sizes[2] * sizes[3], 1, sizes[3] * sizes[1], sizes[1]};
    Tensor c = Tensor::emptyStrided(sizes, st, dtype);
    c.copy_(t);
    return c;
  }
  if (layout == "t") {
    Tensor y = Tensor::empty(t.transpose(-1, -2).sizes(), dtype);
    y.copy_(t.transpose(-1, -2));
    return y.transpose(-1, -2);
  }
  return t;
}

/// Builds the argument IValues of a case (tensor lists consume the following lines).
inline std::vector<IValue> buildArgs(const KernelCase& c, std::vector<Tensor>& tensorArgs) {
  std::vector<IValue> out;
  for (size_t i = 0; i < c.args.size(); ++i) {
    std::istringstream ss(c.args[i]);
    std::string kind;
    ss >> kind;
    if (kind == "tensor") {
      Tensor t = parseTensor(ss, true);
      tensorArgs.push_back(t);
      out.emplace_back(t);
    } else if (kind == "int") {
      int64_t v;
      ss >> v;
      out.emplace_back(v);
    } else if (kind == "float") {
      std::string tok;
      ss >> tok;
      out.emplace_back(std::strtod(tok.c_str(), nullptr));
    } else if (kind == "bool") {
      int v;
      ss >> v;
      out.emplace_back(v != 0);
    } else if (kind == "none") {
      out.emplace_back();
    } else if (kind == "str") {
      std::string v;
      ss >> v;
      out.emplace_back(v);
    } else if (kind == "ints") {
      size_t n;
      ss >> n;
      std::vector<int64_t> v(n);
      for (auto& x : v) ss >> x;
      out.push_back(makeIntList(v));
    } else if (kind == "floats") {
      size_t n;
      ss >> n;
      std::vector<double> v(n);
      for (auto& x : v) ss >> x;
      out.push_back(makeDoubleList(v));
    } else if (kind == "tensors") {
      size_t n;
      ss >> n;
      std::vector<IValue> elems;
      bool anyNone = false;
      for (size_t k = 0; k < n; ++k) {
        std::istringstream es(c.args[++i]);
        std::string ek;
        es >> ek;
        if (ek == "none") {
          elems.emplace_back();
          anyNone = true;
        } else {
          elems.emplace_back(parseTensor(es, true));
        }
      }
      out.push_back(makeList(anyNone ? OptionalType::create(TensorType()) : TensorType(), std::move(elems)));
    } else {
      ADD_FAILURE() << c.name << ": unknown argument kind " << kind;
    }
  }
  return out;
}

inline void expectTensorEq(const Tensor& got, const Tensor& want, const std::string& where) {
  ASSERT_TRUE(got.defined()) << where << ": undefined result";
  EXPECT_EQ(got.dtype(), want.dtype()) << where << ": dtype " << scalarTypeName(got.dtype()) << " vs "
                                       << scalarTypeName(want.dtype());
  ASSERT_EQ(got.sizes(), want.sizes()) << where << ": sizes " << got.sizesStr() << " vs " << want.sizesStr();
  const Tensor g = got.to(ScalarType::Double).contiguous();
  const Tensor w = want.to(ScalarType::Double).contiguous();
  const double tol = (want.dtype() == ScalarType::Half || want.dtype() == ScalarType::BFloat16) ? 1e-2 : 1e-4;
  int bad = 0;
  for (int64_t i = 0; i < g.numel() && bad < 5; ++i) {
    const double a = g.data_ptr<double>()[i], b = w.data_ptr<double>()[i];
    const bool ok = (std::isnan(a) && std::isnan(b)) || a == b || std::abs(a - b) <= tol + tol * std::abs(b);
    if (!ok) {
      ++bad;
      ADD_FAILURE() << where << ": element " << i << " got " << a << " want " << b;
    }
  }
}

/// Runs every case of `family` through `registry`.
inline void runKernelFamily(const std::string& family, const OperatorRegistry& registry) {
  int ran = 0;
  for (const auto& c : kernelCases()) {
    if (c.family != family) continue;
    ++ran;
    SCOPED_TRACE(c.name + " (aten::" + c.op + ")");
    const Operator* op = registry.find("aten::" + c.op);
    if (!op) {
      ADD_FAILURE() << "operator aten::" << c.op << " is not registered";
      continue;
    }
    std::vector<Tensor> tensorArgs;
    Stack stack = buildArgs(c, tensorArgs);
    const size_t nargs = stack.size();
    EXPECT_EQ(nargs, op->schema.arguments.size()) << "argument count";
    try {
      op->fn(stack);
    } catch (const Error& e) {
      if (c.hasError) {
        EXPECT_EQ(std::string(e.what()), c.error);
      } else {
        ADD_FAILURE() << "unexpected error: " << e.what();
      }
      continue;
    }
    if (c.hasError) {
      ADD_FAILURE() << "expected error: " << c.error;
      continue;
    }
    // flatten results: a tensor list result expands into its elements
    std::vector<IValue> results;
    for (auto& v : stack) {
      if (v.isList()) {
        results.push_back(IValue(int64_t(v.toListRef().elements.size())));
        for (auto& e : v.toListRef().elements) results.push_back(e);
      } else {
        results.push_back(v);
      }
    }
    size_t ri = 0;
    for (const auto& e : c.expects) {
      std::istringstream ss(e);
      std::string kind;
      ss >> kind;
      if (ri >= results.size()) {
        ADD_FAILURE() << "missing result for " << e.substr(0, 40);
        break;
      }
      const IValue& got = results[ri++];
      if (kind == "tensor") {
        ASSERT_TRUE(got.isTensor()) << "result " << ri - 1 << " is " << got.tagName();
        expectTensorEq(got.toTensor(), parseTensor(ss, false), "result " + std::to_string(ri - 1));
      } else if (kind == "tensors") {
        int64_t n;
        ss >> n;
        ASSERT_TRUE(got.isInt()) << "expected a list result";
        EXPECT_EQ(got.toInt(), n) << "list length";
      } else if (kind == "int") {
        int64_t n;
        ss >> n;
        EXPECT_EQ(got.toInt(), n);
      } else if (kind == "bool") {
        int n;
        ss >> n;
        EXPECT_EQ(got.toBool(), n != 0);
      } else if (kind == "float") {
        double d;
        ss >> d;
        EXPECT_NEAR(got.toDouble(), d, 1e-6);
      }
    }
    EXPECT_EQ(ri, results.size()) << "extra results";
    // In-place ops return their self argument.
    const std::string base = c.op.substr(0, c.op.find('.'));
    if (!base.empty() && base.back() == '_' && base.front() != '_' && !tensorArgs.empty() && !results.empty() &&
        results[0].isTensor()) {
      EXPECT_TRUE(results[0].toTensor().is_same(tensorArgs[0])) << "in-place op must return self";
    }
  }
  EXPECT_GT(ran, 0) << "no cases for family " << family;
}

}  // namespace kindling::testing
