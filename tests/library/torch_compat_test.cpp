// <kindling/torch_compat.h>: libtorch spellings compile and mean what Kindling's do.
#include <kindling/torch_compat.h>

#include <gtest/gtest.h>

#include <sstream>

namespace {

TEST(TorchCompat, LibtorchSpellings) {
  torch::NoGradGuard no_grad;
  c10::InferenceMode guard(true);
  at::set_num_threads(1);
  EXPECT_EQ(at::get_num_threads(), 1);
  std::vector<torch::jit::IValue> inputs;
  inputs.push_back(torch::ones({1, 3}, torch::kFloat32));
  at::Tensor t = inputs[0].toTensor();
  EXPECT_EQ(t.scalar_type(), at::kFloat);
  EXPECT_EQ(t.sizes(), c10::IntArrayRef({1, 3}));
  float data[] = {3, 1, 2};
  at::Tensor b = torch::from_blob(data, {3}, torch::TensorOptions().dtype(torch::kFloat));
  EXPECT_EQ(std::get<1>(torch::max(b, 0)).item<int64_t>(), 0);
  EXPECT_EQ(torch::argmax(b).item<int64_t>(), 0);
  EXPECT_TRUE(torch::allclose(torch::softmax(b, 0).sum(), torch::ones({})));
  at::Tensor c = torch::cat({b, b});
  EXPECT_EQ(c.size(0), 6);
  EXPECT_EQ(torch::stack({b, b}, 1).sizes(), c10::IntArrayRef({3, 2}));
  EXPECT_FALSE(torch::cuda::is_available());
  torch::Device d(torch::kCPU);
  EXPECT_TRUE(d.is_cpu());
  c10::Dict<std::string, at::Tensor> dict;
  dict.insert("x", b);
  EXPECT_EQ(torch::jit::IValue(dict).type_str(), "Dict[str, Tensor]");
  c10::List<int64_t> list;
  list.push_back(4);
  EXPECT_TRUE(torch::jit::IValue(list).isIntList());
  c10::intrusive_ptr<c10::ivalue::Tuple> tup = torch::jit::IValue::tuple({1, 2.5}).toTuple();
  EXPECT_EQ(tup->elements()[1].toDouble(), 2.5);
  try {
    torch::jit::load("/nonexistent.pt");
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what()).find("nonexistent"), std::string::npos);
  }
}

}  // namespace
