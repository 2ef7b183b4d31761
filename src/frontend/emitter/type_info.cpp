// torch.finfo / torch.iinfo in compiled code. See type_info.h.
#include "frontend/emitter/type_info.h"

#include <cstdint>
#include <vector>

#include "core/scalar_type.h"
#include "frontend/ir_emitter.h"

namespace kindling {

namespace {

// One dtype's attributes: ints for bits (and iinfo's min / max), doubles otherwise.
struct Info {
  ScalarType type;
  int64_t bits;
  IValue max, min, eps, tiny, resolution;
};

const std::vector<Info>& floatingInfos() {
  static const std::vector<Info> infos = {
      {ScalarType::Float, 32, 3.4028234663852886e+38, -3.4028234663852886e+38, 1.1920928955078125e-07,
       1.1754943508222875e-38, 1e-06},
      {ScalarType::Double, 64, 1.7976931348623157e+308, -1.7976931348623157e+308, 2.220446049250313e-16,
       2.2250738585072014e-308, 1e-15},
      {ScalarType::Half, 16, 65504.0, -65504.0, 0.0009765625, 6.103515625e-05, 0.001},
      {ScalarType::BFloat16, 16, 3.3895313892515355e+38, -3.3895313892515355e+38, 0.0078125, 1.1754943508222875e-38,
       0.01},
  };
  return infos;
}

const std::vector<Info>& integerInfos() {
  static const std::vector<Info> infos = {
      {ScalarType::Long, 64, INT64_MAX, INT64_MIN, {}, {}, {}},
      {ScalarType::Int, 32, int64_t(INT32_MAX), int64_t(INT32_MIN), {}, {}, {}},
      {ScalarType::Short, 16, int64_t(INT16_MAX), int64_t(INT16_MIN), {}, {}, {}},
      {ScalarType::Char, 8, int64_t(INT8_MAX), int64_t(INT8_MIN), {}, {}, {}},
      {ScalarType::Byte, 8, int64_t(UINT8_MAX), int64_t(0), {}, {}, {}},
  };
  return infos;
}

IValue fieldOf(const Info& i, const std::string& field) {
  if (field == "bits") return IValue(i.bits);
  if (field == "max") return i.max;
  if (field == "min") return i.min;
  if (field == "eps") return i.eps;
  if (field == "tiny" || field == "smallest_normal") return i.tiny;
  return i.resolution;  // "resolution"
}

}  // namespace

SugaredValuePtr TypeInfoValue::attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) {
  const bool known = field == "bits" || field == "max" || field == "min" ||
                     (isFloating && (field == "eps" || field == "tiny" || field == "smallest_normal" ||
                                     field == "resolution"));
  if (!known) throw CompileError("'" + kind() + "' object has no attribute '" + field + "'", loc);
  const std::vector<Info>& infos = isFloating ? floatingInfos() : integerInfos();
  const std::string wrong = isFloating ? "torch.finfo() requires a floating point input type. Use torch.iinfo to "
                                         "handle 'torch.finfo'"
                                       : "torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                                         "'torch.iinfo'";
  if (auto c = dtype->constantValue()) {
    for (const Info& i : infos)
      if (c->toInt() == static_cast<int64_t>(i.type)) return std::make_shared<SimpleValue>(m.insertConstant(fieldOf(i, field), loc));
    throw CompileError("TypeError: " + wrong, loc);
  }
  // if dtype == t0: v0 elif dtype == t1: v1 ... else: raise TypeError
  Graph& g = m.graph();
  Node* resume = g.insertPoint();  // the code after the attribute read: after the outermost prim::If
  TypePtr resultType = fieldOf(infos[0], field).type();
  std::vector<Node*> ifs;
  Value* result = nullptr;
  for (size_t k = 0; k < infos.size(); ++k) {
    Value* code = m.insertConstant(IValue(static_cast<int64_t>(infos[k].type)), loc);
    Value* same = m.builtinCallValue(loc, "aten::eq", {NamedValue(loc, dtype), NamedValue(loc, code)});
    Node* n = g.insert(prim::If, {same}, 1);
    n->setSourceRange(loc);
    n->output()->setType(resultType);
    Block* thenB = n->addBlock();
    Block* elseB = n->addBlock();
    {
      WithInsertPoint in(thenB);
      thenB->registerOutput(m.insertConstant(fieldOf(infos[k], field), loc));
    }
    if (!result) result = n->output();
    else ifs.back()->blocks().at(1)->registerOutput(n->output());
    ifs.push_back(n);
    g.setInsertPoint(elseB);
  }
  {
    Block* last = ifs.back()->blocks().at(1);
    m.builtinCall(loc, "prim::RaiseException", {NamedValue(loc, m.insertConstant(IValue(wrong), loc)),
                                                NamedValue(loc, m.insertConstant(IValue(std::string("builtins.TypeError")), loc))});
    Node* u = g.insert(prim::Uninitialized, {}, 1);
    u->output()->setType(resultType);
    last->registerOutput(u->output());
  }
  g.setInsertPoint(resume);
  return std::make_shared<SimpleValue>(result);
}

}  // namespace kindling
