// Tensor metadata / conversion builtins. Expected values and messages from PyTorch 1.13 TorchScript
// (expression in each comment).
#include <gtest/gtest.h>

#include "prim_test_util.h"
#include "tensor/tensor.h"

using namespace kindling;
using kindling::testing::callOp;
using kindling::testing::errorOf;

namespace {
Tensor longs(std::vector<int64_t> v) { return Tensor::fromVector(v, ScalarType::Long); }
Tensor floats(std::vector<float> v) { return Tensor::fromVector(v, ScalarType::Float); }
}  // namespace

TEST(TensorPrim, Metadata) {
  Tensor t = Tensor::zeros({2, 3});
  EXPECT_EQ(callOp("aten::size", {t}).toIntVector(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(callOp("aten::size.int", {t, int64_t(-1)}).toInt(), 3);
  // t.size(2) on a 2-d tensor
  EXPECT_EQ(errorOf("aten::size.int", {t, int64_t(2)}), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_EQ(errorOf("aten::size.int", {Tensor::scalarTensor(Scalar(1.0)), int64_t(0)}),
            "Dimension specified as 0 but tensor has no dimensions");
  EXPECT_EQ(callOp("aten::dim", {t}).toInt(), 2);
  EXPECT_EQ(callOp("aten::numel", {t}).toInt(), 6);
  EXPECT_EQ(callOp("aten::len.Tensor", {t}).toInt(), 2);
  EXPECT_EQ(errorOf("aten::len.Tensor", {Tensor::scalarTensor(Scalar(int64_t(1)))}), "len() of a 0-d tensor");
  EXPECT_EQ(callOp("aten::stride", {t}).toIntVector(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(callOp("aten::element_size", {t}).toInt(), 4);
  EXPECT_EQ(callOp("prim::dtype", {Tensor::zeros({1}, ScalarType::Half)}).toInt(), 5);  // t.dtype → 5
  EXPECT_TRUE(callOp("prim::device", {t}).toDevice() == (Device{DeviceType::CPU, -1}));
  EXPECT_EQ(callOp("aten::get_device", {t}).toInt(), -1);
  EXPECT_FALSE(callOp("prim::is_cuda", {t}).toBool());
  EXPECT_TRUE(callOp("prim::is_cpu", {t}).toBool());
  EXPECT_TRUE(callOp("aten::is_floating_point", {t}).toBool());
  EXPECT_FALSE(callOp("aten::is_signed", {Tensor::zeros({1}, ScalarType::Byte)}).toBool());
  EXPECT_TRUE(callOp("aten::is_contiguous", {t}).toBool());
  EXPECT_FALSE(callOp("aten::is_contiguous", {t.transpose(0, 1)}).toBool());
  Tensor nchw = Tensor::zeros({2, 3, 4, 5});
  EXPECT_FALSE(callOp("aten::is_contiguous.memory_format", {nchw, int64_t(2)}).toBool());
  EXPECT_TRUE(callOp("aten::is_contiguous.memory_format", {nchw.permute({0, 2, 3, 1}).contiguous().permute({0, 3, 1, 2}), int64_t(2)}).toBool());
  IValue dev = Device{DeviceType::CPU, -1};
  EXPECT_EQ(callOp("prim::type", {dev}).toStringRef(), "cpu");  // t.device.type
  EXPECT_TRUE(callOp("prim::index", {dev}).isNone());           // t.device.index → None
}

TEST(TensorPrim, Conversions) {
  EXPECT_EQ(errorOf("aten::Int.Tensor", {longs({1, 2})}), "a Tensor with 2 elements cannot be converted to Scalar");
  EXPECT_EQ(callOp("aten::Int.Tensor", {floats({2.7f})}).toInt(), 2);               // int(tensor([2.7]))
  EXPECT_EQ(callOp("aten::Int.Tensor", {floats({-2.7f}).view({1, 1})}).toInt(), -2); // int(tensor([[-2.7]]))
  EXPECT_DOUBLE_EQ(callOp("aten::Float.Tensor", {Tensor::scalarTensor(Scalar(int64_t(3)))}).toDouble(), 3.0);
  EXPECT_EQ(errorOf("aten::Bool.Tensor", {longs({1, 2})}), "Boolean value of Tensor with more than one value is ambiguous");
  EXPECT_EQ(errorOf("aten::Bool.Tensor", {floats({})}), "Boolean value of Tensor with no values is ambiguous");
  EXPECT_TRUE(callOp("aten::Bool.Tensor", {floats({0.5f})}).toBool());
  IValue it = callOp("aten::item", {floats({2.5f})});
  EXPECT_TRUE(it.isDouble());
  EXPECT_DOUBLE_EQ(it.toDouble(), 2.5);
  EXPECT_TRUE(callOp("aten::item", {longs({7})}).isInt());
  // torch.zeros(t) with t = tensor([2.0]) / tensor(2.0)
  EXPECT_EQ(errorOf("aten::IntImplicit", {floats({2.0f})}), "Cannot input a tensor of dimension other than 0 as a scalar argument");
  EXPECT_EQ(errorOf("aten::IntImplicit", {Tensor::scalarTensor(Scalar(2.0), ScalarType::Float)}),
            "Cannot input a tensor of type Float as an integral argument");
  EXPECT_EQ(callOp("aten::IntImplicit", {Tensor::scalarTensor(Scalar(int64_t(4)))}).toInt(), 4);
  EXPECT_DOUBLE_EQ(callOp("aten::FloatImplicit", {Tensor::scalarTensor(Scalar(int64_t(4)))}).toDouble(), 4.0);
  EXPECT_EQ(errorOf("aten::ScalarImplicit", {longs({2, 3})}), "Cannot input a tensor of dimension other than 0 as a scalar argument");
  // prim::NumToTensor: float → float64, int → int64, bool → bool (at::scalar_to_tensor)
  Tensor d = callOp("prim::NumToTensor.Scalar", {2.5}).toTensor();
  EXPECT_EQ(d.dtype(), ScalarType::Double);
  EXPECT_EQ(d.dim(), 0);
  EXPECT_DOUBLE_EQ(d.item().toDouble(), 2.5);
  EXPECT_EQ(callOp("prim::NumToTensor.Scalar", {int64_t(3)}).toTensor().dtype(), ScalarType::Long);
  EXPECT_EQ(callOp("prim::NumToTensor.bool", {true}).toTensor().dtype(), ScalarType::Bool);
}

TEST(TensorPrim, OptionalsAndState) {
  EXPECT_EQ(errorOf("aten::_unwrap_optional", {IValue()}), "Unwrapping null optional");
  EXPECT_EQ(callOp("aten::_unwrap_optional", {int64_t(3)}).toInt(), 3);
  EXPECT_TRUE(callOp("aten::is_scripting", {}).toBool());
  EXPECT_TRUE(callOp("aten::is_grad_enabled", {}).toBool());
  callOp("aten::set_grad_enabled", {false});
  EXPECT_FALSE(callOp("aten::is_grad_enabled", {}).toBool());
  callOp("aten::set_grad_enabled", {true});
  EXPECT_TRUE(callOp("aten::eq.device", {IValue(Device{DeviceType::CPU, -1}), IValue(Device{DeviceType::CPU, -1})}).toBool());
}

TEST(TensorPrim, Tolist) {
  auto tolist = [](Tensor t, int64_t dims, int64_t elemTy) {
    Stack s{IValue(t), IValue(dims), IValue(elemTy), IValue(int64_t(3))};
    OperatorRegistry::global().find("prim::tolist")->fn(s);
    EXPECT_EQ(s.size(), 1u);
    return s.back();
  };
  // a: List[List[float]] = tensor([[1.5, 2]]).tolist() → [[1.5, 2.0]]
  IValue l = tolist(floats({1.5f, 2.0f}).view({1, 2}), 2, 1);
  ASSERT_EQ(l.toListRef().elements.size(), 1u);
  EXPECT_EQ(l.toListRef().elements[0].toDoubleVector(), (std::vector<double>{1.5, 2.0}));
  EXPECT_EQ(l.toListRef().elementType->kind(), TypeKind::List);
  EXPECT_EQ(tolist(longs({1, 2}), 1, 0).toIntVector(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(tolist(longs({9000000000000000001}), 1, 0).toIntVector(), (std::vector<int64_t>{9000000000000000001}));
  EXPECT_THROW(tolist(longs({1, 2}).view({1, 2}), 1, 0), RuntimeError);  // dimension mismatch
  try {
    tolist(floats({1.5f, 2.0f}), 1, 0);
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.message(), "Output annotation element type and runtime tensor element type must match for tolist()");
  }
}
