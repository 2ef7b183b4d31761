// The interpreter (see runtime/interpreter.h).
//
// Compilation: every non-constant Value gets a register; constants go to a constant table that
// instructions read directly. Instruction operands say how to read a value: LOAD (copy from a register),
// MOVE (the value's last use: move it out, so tensors die early and in-place kernels see refcount 1), or
// CONST. Liveness: a use is a MOVE when no use of the value can run after it — later uses in the
// other branch of an If do not count, and a use inside a loop that does not contain the definition is
// never a MOVE; such values are dropped right after the outermost node that holds their uses.
//
// Control flow: prim::If → JF/JMP; prim::Loop → a LOOP test instruction over hidden counter, trip-count
// and condition registers, the body, a parallel MOVES of the body outputs into the carried registers, JMP.
// prim::Try (try/except) → TRY (pushes a handler: its first instruction and the registers of the handler
// block's class and message inputs), the body, its output MOVES, POP_TRY, JMP over the handler block. A
// RuntimeError raised while a handler is pushed (by this function's instructions or by a function it
// calls) pops it and continues at the handler instead of leaving the function.
#include "runtime/interpreter.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <string_view>
#include <cstdio>
#include <unordered_map>

#include "core/stack_headroom.h"
#include "ir/operator_matching.h"
#include "ir/subgraph.h"
#include "runtime/future.h"
#include "runtime/op_profiler.h"
#include "runtime/thread_pool.h"
#include "tensor/tensor.h"

namespace kindling {

namespace {

enum class OpCode : uint8_t {
  OP,            // p=fn: push inputs, call, pop nOut outputs
  OPN,           // as OP, and pushes nIn as an int after the inputs (vararg schemas)
  JF,            // in[0] bool; jump to x when false
  JMP,           // jump to x
  LOOP,          // in: ctr, max, cond registers (as LOAD), out[0]: iteration value register or -1; exit to x
  MOVES,         // parallel assignment: push inputs, pop into outputs
  DROP,          // clear registers listed as inputs
  GET_ATTR,      // in[0] object, slot x → out[0]
  GET_ATTR_NAME, // in[0] object, name aux → out[0] (type not known at compile time)
  SET_ATTR,      // in[0] object, in[1] value, slot x
  SET_ATTR_NAME,
  CALL,          // p=Function*: push inputs, run, pop outputs
  CALL_METHOD_NAME,  // method looked up on the object's runtime type (interfaces)
  TUPLE_CONSTRUCT,   // aux type (may be null)
  TUPLE_UNPACK,
  TUPLE_INDEX,
  TUPLE_SLICE,       // x=begin, aux int end
  LIST_CONSTRUCT,    // aux element type
  LIST_UNPACK,
  DICT_CONSTRUCT,    // aux key/value types
  CREATE_OBJECT,     // aux class type
  UNINITIALIZED,
  ISINSTANCE,        // aux types
  RAISE,
  PRINT,
  NUM_TO_TENSOR,
  DEVICE,
  DTYPE,
  IS,
  ISNOT,
  NOT,
  CAST,              // unchecked_cast / no-op copies
  ENUM_NAME,
  ENUM_VALUE,
  FORK,              // aux code: the forked subgraph, run on the inter-op pool → out[0] Future
  WAIT,              // in[0] Future → out[0] its value (blocks; runtime/future.h)
  NOP,
  RET,
  TRY,           // push a handler: continue at x with the class, message and str() in outs[o .. o + 2]
  POP_TRY,       // the body ended normally: pop the innermost handler
  OP_PROFILED,   // as OP (x=0) or OPN (x=1), timed into runtime/op_profiler.h (compiled only when profiling)
};

const char* opName(OpCode c) {
  static const char* names[] = {"OP", "OPN", "JF", "JMP", "LOOP", "MOVES", "DROP", "GET_ATTR", "GET_ATTR_NAME",
                                "SET_ATTR", "SET_ATTR_NAME", "CALL", "CALL_METHOD_NAME", "TUPLE_CONSTRUCT",
                                "TUPLE_UNPACK", "TUPLE_INDEX", "TUPLE_SLICE", "LIST_CONSTRUCT", "LIST_UNPACK",
                                "DICT_CONSTRUCT", "CREATE_OBJECT", "UNINITIALIZED", "ISINSTANCE", "RAISE",
                                "PRINT", "NUM_TO_TENSOR", "DEVICE", "DTYPE", "IS", "ISNOT", "NOT", "CAST", "ENUM_NAME", "ENUM_VALUE",
                                "FORK", "WAIT", "NOP", "RET", "TRY", "POP_TRY", "OP_PROFILED"};
  return names[static_cast<int>(c)];
}

enum class Mode : uint8_t { LOAD, MOVE, CONST };

struct Operand {
  int32_t idx;
  Mode mode;
};

struct Instr {
  OpCode op;
  uint32_t nIn = 0;      // 32 bits: a list literal may have more than 65,535 elements
  uint32_t nOut = 0;
  uint32_t a = 0;        // first input operand in operands; outputs (register indices) follow in outs
  uint32_t o = 0;        // first output register in outs
  int32_t x = 0;         // jump target, slot, begin...
  int32_t aux = -1;      // index into aux tables
  const void* p = nullptr;  // OperationFn / Function*
  const Node* node = nullptr;  // source of the instruction (errors)
};

struct Aux {
  std::shared_ptr<Code> code;  // FORK: the compiled subgraph
  TypePtr type;
  TypePtr type2;
  std::vector<TypePtr> types;
  std::string name;
  int64_t i = 0;
};

}  // namespace

struct Code::Impl {
  std::string functionName;
  std::shared_ptr<Graph> graph;
  std::vector<Instr> instrs;
  std::vector<Operand> operands;
  std::vector<int32_t> outs;
  std::vector<IValue> constants;
  std::vector<Aux> aux;
  std::vector<int32_t> inputRegs;
  size_t numRegs = 0;

  // --- compile-time state ---
  std::unordered_map<const Value*, int32_t> reg;
  std::unordered_map<const Value*, int32_t> constIdx;
  std::unordered_map<const Node*, size_t> pos;
  std::unordered_map<const Node*, std::vector<uint8_t>> moveInput;  // per node, per input: 1 = MOVE
  std::unordered_map<const Node*, std::vector<int32_t>> dropsAfter;

  // ---------------------------------------------------------------- compile
  void compile() {
    size_t counter = 0;
    number(graph->block(), counter);
    analyzeLiveness(graph->block());
    for (Value* v : graph->inputs()) inputRegs.push_back(v->hasUses() ? regFor(v) : -1);
    emitBlock(graph->block());
    Instr r;
    r.op = OpCode::RET;
    r.a = operands.size();
    r.nIn = graph->outputs().size();
    for (size_t i = 0; i < graph->outputs().size(); ++i) operands.push_back(operand(graph->block()->returnNode(), i));
    instrs.push_back(r);
    // release compile-time maps
    reg.clear();
    constIdx.clear();
    pos.clear();
    moveInput.clear();
    dropsAfter.clear();
  }

  void number(const Block* b, size_t& c) {
    pos[b->paramNode()] = c++;
    for (Node* n : *b) {
      pos[n] = c++;
      for (Block* sb : n->blocks()) number(sb, c);
    }
    pos[b->returnNode()] = c++;
  }

  static const Node* anchorIn(const Node* n, const Block* b) {
    while (n->owningBlock() != b) {
      const Block* ob = n->owningBlock();
      if (!ob || !ob->owningNode()) return nullptr;
      n = ob->owningNode();
    }
    return n;
  }

  // True if a and b sit in different blocks of the same prim::If (so at most one of them runs).
  static bool exclusive(const Node* a, const Node* b) {
    std::vector<const Node*> chain;  // a, then the nodes owning a's enclosing blocks, outward
    for (const Node* x = a; x;) {
      chain.push_back(x);
      const Block* bl = x->owningBlock();
      x = bl ? bl->owningNode() : nullptr;
    }
    for (const Node* y = b; y;) {
      const Block* yb = y->owningBlock();
      if (!yb) break;
      const Node* owner = yb->owningNode();
      if (!owner) break;
      for (size_t k = 0; k < chain.size(); ++k) {
        if (chain[k] != owner) continue;
        if (k == 0) return false;  // a is the node whose block holds b
        return owner->kind() == prim::If && chain[k - 1]->owningBlock() != yb;
      }
      y = owner;
    }
    return false;
  }

  static bool crossesLoop(const Node* user, const Block* defBlock) {
    for (const Block* b = user->owningBlock(); b && b != defBlock; b = b->owningNode()->owningBlock()) {
      const Node* owner = b->owningNode();
      if (!owner) break;
      if (owner->kind() == prim::Loop) return true;
    }
    return false;
  }

  void analyzeValue(const Value* v) {
    if (v->node()->kind() == prim::Constant) return;
    const auto& uses = v->uses();
    if (uses.empty()) return;
    const Block* defBlock = v->node()->owningBlock();
    const Node* lastAnchor = nullptr;
    for (const Use& u : uses) {
      const Node* an = anchorIn(u.user, defBlock);
      if (!an) throw CompileError("value %" + v->debugName() + " is used outside its scope", u.user->sourceRange());
      if (!lastAnchor || pos[an] > pos[lastAnchor]) lastAnchor = an;
    }
    bool nested = false;
    // The uses inside lastAnchor, latest first: only they can be last uses, and only later ones among
    // them can make a use not last. Visiting them in that order, a use is last when every later use sits
    // in another branch of an If (usually the latest use alone), so a value used many times costs
    // O(U log U), not O(U^2).
    std::vector<std::pair<size_t, const Use*>> inAnchor;
    for (const Use& u : uses) {
      const Node* an = anchorIn(u.user, defBlock);
      if (u.user != an) nested = true;
      if (an == lastAnchor) inAnchor.emplace_back(pos[u.user], &u);
    }
    std::sort(inAnchor.begin(), inAnchor.end(), [](const auto& x, const auto& y) {
      return x.first != y.first ? x.first > y.first : x.second->offset > y.second->offset;
    });
    for (size_t k = 0; k < inAnchor.size(); ++k) {
      const Use& u = *inAnchor[k].second;
      if (crossesLoop(u.user, defBlock)) continue;
      bool last = true;
      for (size_t j = 0; j < k; ++j) {
        const Use& w = *inAnchor[j].second;
        if (!(w.user != u.user && exclusive(u.user, w.user))) { last = false; break; }
      }
      if (last) {
        auto& mv = moveInput[u.user];
        if (mv.size() < u.user->inputs().size()) mv.resize(u.user->inputs().size(), 0);
        mv[u.offset] = 1;
      }
    }
    if (nested && lastAnchor->kind() != prim::Return) dropsAfter[lastAnchor].push_back(regFor(v));
  }

  void analyzeLiveness(const Block* b) {
    for (Value* v : b->inputs()) analyzeValue(v);
    for (Node* n : *b) {
      for (Value* v : n->outputs()) analyzeValue(v);
      for (Block* sb : n->blocks()) analyzeLiveness(sb);
    }
  }

  int32_t regFor(const Value* v) {
    auto it = reg.find(v);
    if (it != reg.end()) return it->second;
    int32_t r = static_cast<int32_t>(numRegs++);
    reg.emplace(v, r);
    return r;
  }
  int32_t hiddenReg() { return static_cast<int32_t>(numRegs++); }
  int32_t outReg(const Value* v) { return v->hasUses() ? regFor(v) : -1; }

  int32_t constantIndex(const IValue& v) {
    constants.push_back(v);
    return static_cast<int32_t>(constants.size() - 1);
  }

  Operand operand(const Node* user, size_t i) {
    const Value* v = user->inputs()[i];
    if (v->node()->kind() == prim::Constant) {
      auto it = constIdx.find(v);
      if (it != constIdx.end()) return {it->second, Mode::CONST};
      auto cv = v->constantValue();
      if (!cv) throw CompileError("constant %" + v->debugName() + " of type " + (v->type() ? v->type()->str() : "?") +
                                      " has no runtime value", v->node()->sourceRange());
      int32_t k = constantIndex(*cv);
      constIdx.emplace(v, k);
      return {k, Mode::CONST};
    }
    auto mit = moveInput.find(user);
    bool mv = mit != moveInput.end() && i < mit->second.size() && mit->second[i];
    return {regFor(v), mv ? Mode::MOVE : Mode::LOAD};
  }

  Instr& emit(OpCode op, const Node* n, size_t firstInput = 0) {
    Instr in;
    in.op = op;
    in.node = n;
    in.a = operands.size();
    if (n) {
      for (size_t i = firstInput; i < n->inputs().size(); ++i) operands.push_back(operand(n, i));
      in.nIn = n->inputs().size() - firstInput;
      in.o = outs.size();
      for (Value* v : n->outputs()) outs.push_back(outReg(v));
      in.nOut = n->outputs().size();
    } else {
      in.o = outs.size();
    }
    instrs.push_back(in);
    return instrs.back();
  }

  int32_t addAux(Aux a) {
    aux.push_back(std::move(a));
    return static_cast<int32_t>(aux.size() - 1);
  }

  // Parallel moves of block outputs (or any operands) into registers.
  void emitMoves(const std::vector<Operand>& src, const std::vector<int32_t>& dst, const Node* n) {
    if (src.empty()) return;
    Instr in;
    in.op = OpCode::MOVES;
    in.node = n;
    in.a = operands.size();
    in.nIn = src.size();
    for (const Operand& o : src) operands.push_back(o);
    in.o = outs.size();
    in.nOut = dst.size();
    for (int32_t d : dst) outs.push_back(d);
    instrs.push_back(in);
  }

  std::vector<Operand> blockOutputs(const Block* b) {
    std::vector<Operand> r;
    for (size_t i = 0; i < b->outputs().size(); ++i) r.push_back(operand(b->returnNode(), i));
    return r;
  }

  void emitBlock(const Block* b) {
    for (Node* n : *b) {
      emitNode(n);
      auto it = dropsAfter.find(n);
      if (it != dropsAfter.end()) {
        Instr d;
        d.op = OpCode::DROP;
        d.node = n;
        d.o = outs.size();
        d.nOut = it->second.size();
        for (int32_t r : it->second) outs.push_back(r);
        instrs.push_back(d);
      }
    }
  }

  [[noreturn]] static void unsupported(const Node* n, const std::string& why) {
    throw CompileError("cannot run node " + n->kind().toQualString() + ": " + why, n->sourceRange());
  }

  const ClassType* classOf(const Value* v) {
    return v->type() ? v->type()->cast<ClassType>() : nullptr;
  }

  void emitOperator(const Node* n, const Operator* op) {
    const bool profiled = profiler::enabled();
    Instr& in = emit(profiled ? OpCode::OP_PROFILED : op->schema.isVarArg ? OpCode::OPN : OpCode::OP, n);
    in.p = reinterpret_cast<const void*>(op->fn);
    if (profiled) in.x = op->schema.isVarArg ? 1 : 0;
    if (op->writtenArgs) {  // in-place writes bump the tensors' version counters (ops/registry/operator.h)
      Aux a;
      a.i = static_cast<int64_t>(op->writtenArgs);
      const int32_t idx = addAux(std::move(a));
      instrs.back().aux = idx;
    }
  }

  void emitNode(const Node* n) {
    Symbol k = n->kind();
    if (k == prim::Constant) return;  // read from the constant table by users
    if (k == prim::If) {
      if (n->blocks().size() != 2) unsupported(n, "prim::If needs two blocks");
      Instr& jf = emit(OpCode::JF, n);
      jf.nOut = 0;
      size_t jfIdx = instrs.size() - 1;
      std::vector<int32_t> dst;
      for (Value* v : n->outputs()) dst.push_back(outReg(v));
      emitBlock(n->blocks()[0]);
      emitMoves(blockOutputs(n->blocks()[0]), dst, n);
      Instr j;
      j.op = OpCode::JMP;
      j.node = n;
      instrs.push_back(j);
      size_t jmpIdx = instrs.size() - 1;
      instrs[jfIdx].x = static_cast<int32_t>(instrs.size());
      emitBlock(n->blocks()[1]);
      emitMoves(blockOutputs(n->blocks()[1]), dst, n);
      instrs[jmpIdx].x = static_cast<int32_t>(instrs.size());
      return;
    }
    if (k == prim::Try) {
      if (n->blocks().size() != 2 || n->blocks()[1]->inputs().size() != 3) unsupported(n, "malformed prim::Try");
      const Block* handler = n->blocks()[1];
      std::vector<int32_t> dst;
      for (Value* v : n->outputs()) dst.push_back(outReg(v));
      Instr tr;
      tr.op = OpCode::TRY;
      tr.node = n;
      tr.o = outs.size();
      outs.push_back(regFor(handler->inputs()[0]));
      outs.push_back(regFor(handler->inputs()[1]));
      outs.push_back(regFor(handler->inputs()[2]));
      tr.nOut = 3;
      instrs.push_back(tr);
      size_t tryIdx = instrs.size() - 1;
      emitBlock(n->blocks()[0]);
      emitMoves(blockOutputs(n->blocks()[0]), dst, n);
      Instr pop;
      pop.op = OpCode::POP_TRY;
      pop.node = n;
      instrs.push_back(pop);
      Instr j;
      j.op = OpCode::JMP;
      j.node = n;
      instrs.push_back(j);
      size_t jmpIdx = instrs.size() - 1;
      instrs[tryIdx].x = static_cast<int32_t>(instrs.size());
      emitBlock(handler);
      emitMoves(blockOutputs(handler), dst, n);
      instrs[jmpIdx].x = static_cast<int32_t>(instrs.size());
      return;
    }
    if (k == prim::Loop) {
      if (n->blocks().size() != 1 || n->inputs().size() < 2) unsupported(n, "malformed prim::Loop");
      const Block* body = n->blocks()[0];
      size_t nc = n->inputs().size() - 2;
      if (body->inputs().size() != nc + 1 || body->outputs().size() != nc + 1 || n->outputs().size() != nc)
        unsupported(n, "prim::Loop carried value counts do not match");
      int32_t ctr = hiddenReg(), maxR = hiddenReg(), condR = hiddenReg();
      std::vector<Operand> src;
      std::vector<int32_t> dst;
      src.push_back({constantIndex(IValue(int64_t(0))), Mode::CONST});
      dst.push_back(ctr);
      for (size_t i = 0; i < n->inputs().size(); ++i) src.push_back(operand(n, i));
      dst.push_back(maxR);
      dst.push_back(condR);
      for (size_t i = 0; i < nc; ++i) dst.push_back(regFor(body->inputs()[i + 1]));
      emitMoves(src, dst, n);
      size_t top = instrs.size();
      Instr lp;
      lp.op = OpCode::LOOP;
      lp.node = n;
      lp.a = operands.size();
      operands.push_back({ctr, Mode::LOAD});
      operands.push_back({maxR, Mode::LOAD});
      operands.push_back({condR, Mode::LOAD});
      lp.nIn = 3;
      lp.o = outs.size();
      outs.push_back(body->inputs()[0]->hasUses() ? regFor(body->inputs()[0]) : -1);
      lp.nOut = 1;
      instrs.push_back(lp);
      size_t lpIdx = instrs.size() - 1;
      emitBlock(body);
      std::vector<int32_t> carried;
      carried.push_back(condR);
      for (size_t i = 0; i < nc; ++i) carried.push_back(regFor(body->inputs()[i + 1]));
      emitMoves(blockOutputs(body), carried, n);
      Instr j;
      j.op = OpCode::JMP;
      j.node = n;
      j.x = static_cast<int32_t>(top);
      instrs.push_back(j);
      instrs[lpIdx].x = static_cast<int32_t>(instrs.size());
      std::vector<Operand> fin;
      std::vector<int32_t> fdst;
      for (size_t i = 0; i < nc; ++i) {
        fin.push_back({regFor(body->inputs()[i + 1]), Mode::MOVE});
        fdst.push_back(outReg(n->outputs()[i]));
      }
      emitMoves(fin, fdst, n);
      return;
    }
    // aten::wait blocks on the runtime Future (runtime/future.h), not through its registered kernel.
    if (k == aten::wait) { emit(OpCode::WAIT, n); return; }
    // Operators resolved by the frontend (or parser) run as OP, whatever their kind.
    if (n->op()) {
      emitOperator(n, n->op());
      return;
    }
    if (k == prim::GetAttr || k == prim::SetAttr) {
      const std::string& name = n->s("name");
      const ClassType* ct = classOf(n->input(0));
      bool get = k == prim::GetAttr;
      if (ct) {
        int slot = ct->findAttributeSlot(name);
        if (slot < 0) unsupported(n, "class " + ct->qualName() + " has no attribute '" + name + "'");
        Instr& in = emit(get ? OpCode::GET_ATTR : OpCode::SET_ATTR, n);
        in.x = slot;
      } else {
        Instr& in = emit(get ? OpCode::GET_ATTR_NAME : OpCode::SET_ATTR_NAME, n);
        Aux a;
        a.name = name;
        in.aux = addAux(std::move(a));
      }
      return;
    }
    if (k == prim::CallMethod) {
      const std::string& name = n->s("name");
      const ClassType* ct = classOf(n->input(0));
      Function* fn = ct ? ct->findMethod(name) : nullptr;
      if (ct && !fn) unsupported(n, "class " + ct->qualName() + " has no method '" + name + "'");
      if (fn) {
        Instr& in = emit(OpCode::CALL, n);
        in.p = fn;
      } else {
        Instr& in = emit(OpCode::CALL_METHOD_NAME, n);
        Aux a;
        a.name = name;
        in.aux = addAux(std::move(a));
      }
      return;
    }
    if (k == prim::CallFunction) {
      Function* fn = n->callee();
      if (!fn) unsupported(n, "callee is not known");
      bool fnConst = !n->inputs().empty() && n->input(0)->type() && n->input(0)->type()->kind() == TypeKind::Function;
      Instr& in = emit(OpCode::CALL, n, fnConst ? 1 : 0);
      in.p = fn;
      return;
    }
    if (k == prim::TupleConstruct) {
      Instr& in = emit(OpCode::TUPLE_CONSTRUCT, n);
      Aux a;
      const TupleType* tt = n->output()->type() ? n->output()->type()->cast<TupleType>() : nullptr;
      if (tt && tt->qualName()) a.type = n->output()->type();
      in.aux = addAux(std::move(a));
      return;
    }
    if (k == prim::TupleUnpack) { emit(OpCode::TUPLE_UNPACK, n); return; }
    if (k == prim::TupleIndex) { emit(OpCode::TUPLE_INDEX, n); return; }
    if (k == prim::TupleSlice) {
      Instr& in = emit(OpCode::TUPLE_SLICE, n);
      in.x = static_cast<int32_t>(n->i("beg"));
      Aux a;
      a.i = n->i("end");
      in.aux = addAux(std::move(a));
      return;
    }
    if (k == prim::ListConstruct) {
      const ListType* lt = n->output()->type() ? n->output()->type()->cast<ListType>() : nullptr;
      if (!lt) unsupported(n, "output is not a list type");
      Instr& in = emit(OpCode::LIST_CONSTRUCT, n);
      Aux a;
      a.type = lt->elementType();
      in.aux = addAux(std::move(a));
      return;
    }
    if (k == prim::ListUnpack) { emit(OpCode::LIST_UNPACK, n); return; }
    if (k == prim::DictConstruct) {
      const DictType* dt = n->output()->type() ? n->output()->type()->cast<DictType>() : nullptr;
      if (!dt) unsupported(n, "output is not a dict type");
      if (n->inputs().size() % 2) unsupported(n, "odd number of inputs");
      Instr& in = emit(OpCode::DICT_CONSTRUCT, n);
      Aux a;
      a.type = dt->keyType();
      a.type2 = dt->valueType();
      in.aux = addAux(std::move(a));
      return;
    }
    if (k == prim::CreateObject) {
      const TypePtr& t = n->output()->type();
      if (!t || !t->cast<ClassType>()) unsupported(n, "output is not a class type");
      Instr& in = emit(OpCode::CREATE_OBJECT, n);
      Aux a;
      a.type = t;
      in.aux = addAux(std::move(a));
      return;
    }
    if (k == prim::Uninitialized) { emit(OpCode::UNINITIALIZED, n); return; }
    if (k == prim::unchecked_cast) { emit(OpCode::CAST, n); return; }
    if (k == prim::isinstance) {
      Instr& in = emit(OpCode::ISINSTANCE, n);
      Aux a;
      if (n->hasTypeListAttribute("types")) a.types = n->tys("types");
      else if (n->hasTypeAttribute("types")) a.types = {n->ty("types")};
      else unsupported(n, "missing 'types' attribute");
      in.aux = addAux(std::move(a));
      return;
    }
    if (k == prim::Enter || k == prim::Exit) {
      // torch.no_grad() & co: no autograd here, nothing to do. Outputs (Enter's) are None.
      emit(OpCode::NOP, n);
      return;
    }
    // Nodes without a resolved operator: prefer a registered operator that matches.
    if (const Operator* op = matchOperator(n)) {
      emitOperator(n, op);
      return;
    }
    if (k == prim::RaiseException) { emit(OpCode::RAISE, n); return; }
    if (k == prim::Print) { emit(OpCode::PRINT, n); return; }
    if (k == prim::NumToTensor) { emit(OpCode::NUM_TO_TENSOR, n); return; }
    if (k == prim::device) { emit(OpCode::DEVICE, n); return; }
    if (k == prim::dtype) { emit(OpCode::DTYPE, n); return; }
    if (k == aten::__is__) { emit(OpCode::IS, n); return; }
    if (k == aten::__isnot__) { emit(OpCode::ISNOT, n); return; }
    if (k == aten::__not__) { emit(OpCode::NOT, n); return; }
    if (k == prim::EnumName) { emit(OpCode::ENUM_NAME, n); return; }
    if (k == prim::EnumValue) { emit(OpCode::ENUM_VALUE, n); return; }
    if (k == prim::fork) {
      std::shared_ptr<Graph> sub = subgraphOf(n);
      if (!sub) unsupported(n, "prim::fork without a subgraph");
      const FutureType* ft = n->output()->type() ? n->output()->type()->cast<FutureType>() : nullptr;
      Instr& in = emit(OpCode::FORK, n);
      Aux a;
      a.code = std::make_shared<Code>(sub, "<forked function>");
      a.type = ft ? ft->elementType() : AnyType();
      in.aux = addAux(std::move(a));
      return;
    }
    static const Symbol kUnwrap = Symbol::fromQualString("prim::unchecked_unwrap_optional");
    if (k == kUnwrap) { emit(OpCode::CAST, n); return; }
    std::string types;
    for (size_t i = 0; i < n->inputs().size(); ++i)
      types += (i ? ", " : "") + (n->input(i)->type() ? n->input(i)->type()->str() : std::string("?"));
    throw CompileError("unknown builtin op: " + k.toQualString() + " for argument types (" + types + ")",
                       n->sourceRange());
  }

  // ---------------------------------------------------------------- run
  static inline void pushOperand(Stack& st, const Operand& o, IValue* regs, const IValue* consts) {
    switch (o.mode) {
      case Mode::LOAD: st.push_back(regs[o.idx]); break;
      case Mode::MOVE: st.push_back(std::move(regs[o.idx])); break;
      case Mode::CONST: st.push_back(consts[o.idx]); break;
    }
  }
  static inline const IValue& ref(const Operand& o, IValue* regs, const IValue* consts) {
    return o.mode == Mode::CONST ? consts[o.idx] : regs[o.idx];
  }
  static inline IValue take(const Operand& o, IValue* regs, const IValue* consts) {
    switch (o.mode) {
      case Mode::MOVE: return std::move(regs[o.idx]);
      case Mode::LOAD: return regs[o.idx];
      default: return consts[o.idx];
    }
  }
  inline void popOutputs(Stack& st, const Instr& in, IValue* regs) const {
    const int32_t* o = outs.data() + in.o;
    for (size_t k = in.nOut; k-- > 0;) {
      if (o[k] >= 0) regs[o[k]] = std::move(st.back());
      st.pop_back();
    }
  }
  inline void store(IValue* regs, const Instr& in, size_t k, IValue v) const {
    int32_t r = outs[in.o + k];
    if (r >= 0) regs[r] = std::move(v);
  }

  [[noreturn]] static void badSlot(const Object& obj, const Instr& in) {
    throw RuntimeError(fmt::format("object of type {} has {} attribute slots, attribute '{}' is slot {}",
                                   obj.type->qualName(), obj.slots.size(), in.node ? in.node->s("name") : std::string("?"),
                                   in.x));
  }
  [[noreturn]] static void badReturnCount(const Instr& in) {
    throw RuntimeError(fmt::format("{} returned the wrong number of values (expected {})",
                                   in.node ? in.node->kind().toQualString() : std::string("call"), in.nOut));
  }

  void run(Stack& stack) const;
};

namespace {
// The class, message and str() an except clause sees. A RuntimeError whose message starts with a Python
// exception class ("AssertionError: msg" from a failed assert, as PyTorch words it; "KeyError: k" from a
// dict; "ValueError: ..." from str.index) is that class with the rest of the message. str() of a
// KeyError is the repr of its message, as in Python.
struct HandledException {
  std::string cls, msg, text;
};
// Errors PyTorch reports as RuntimeError where Python raises another class, by their message.
const char* pythonClassOfMessage(const std::string& m) {
  static const std::pair<const char*, const char*> table[] = {
      {"list index out of range", "builtins.IndexError"},
      {"division by 0", "builtins.ZeroDivisionError"},
      {"stoll", "builtins.ValueError"},  // int("x"), as PyTorch words it
      {"stod", "builtins.ValueError"},   // float("x")
      {"invalid literal for int()", "builtins.ValueError"},
      {"could not convert string to float", "builtins.ValueError"},
      {"pop from empty list", "builtins.IndexError"},
      {"pop index out of range", "builtins.IndexError"},
  };
  for (const auto& [prefix, cls] : table)
    if (m.rfind(prefix, 0) == 0) return cls;
  return nullptr;
}

HandledException handledException(const RuntimeError& e) {
  HandledException h{e.pythonClass(), e.message(), ""};
  const std::string& m = e.message();
  if (h.cls == "builtins.RuntimeError") {
    if (const char* cls = pythonClassOfMessage(m)) h.cls = cls;
    size_t colon = m.find(": ");
    if (colon != std::string::npos && colon > 0 && std::isupper(static_cast<unsigned char>(m[0]))) {
      std::string_view name(m.data(), colon);
      bool ident = std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
      auto endsWith = [&](std::string_view suf) { return name.size() > suf.size() && name.substr(name.size() - suf.size()) == suf; };
      if (ident && (endsWith("Error") || name == "StopIteration")) {
        h.cls = "builtins." + std::string(name);
        h.msg = m.substr(colon + 2);
      }
    }
  }
  h.text = h.cls == "builtins.KeyError" && !h.msg.empty() ? pythonStringRepr(h.msg) : h.msg;
  return h;
}

// Calls that were not inlined (interfaces, recursion through them) are bounded like Python's stack: at most
// kMaxCallDepth levels, and fewer when the thread's stack would not hold them (a small thread stack, or a
// sanitizer build, whose frames are larger): a nested call that would leave less than kMinCallHeadroom of
// stack for the levels below it (the op kernels it runs, the unwinding of the error) raises the same
// error. The outermost call is never refused, so a thread with a small stack still runs what does not recurse.
thread_local int callDepth = 0;
constexpr int kMaxCallDepth = 1000;
constexpr size_t kMinCallHeadroom = 128 * 1024;
struct DepthGuard {
  DepthGuard() {
    if (++callDepth > kMaxCallDepth || (callDepth > 1 && stackHeadroom() < kMinCallHeadroom)) {
      --callDepth;
      throw RuntimeError("maximum recursion depth exceeded", "builtins.RecursionError");
    }
  }
  ~DepthGuard() { --callDepth; }
};
}  // namespace

void Code::Impl::run(Stack& stack) const {
  DepthGuard depth;
  std::vector<IValue> registers(numRegs);
  IValue* regs = registers.data();
  const IValue* consts = constants.data();
  const size_t nIn = inputRegs.size();
  if (stack.size() < nIn) throw RuntimeError(fmt::format("{}() expected {} arguments but got {}", functionName, nIn, stack.size()));
  {
    size_t base = stack.size() - nIn;
    for (size_t i = 0; i < nIn; ++i)
      if (inputRegs[i] >= 0) regs[inputRegs[i]] = std::move(stack[base + i]);
    stack.resize(base);
  }
  const size_t stackBase = stack.size();
  size_t pc = 0;
  const Instr* code = instrs.data();
  const Operand* ops = operands.data();
  // Handlers of the prim::Try bodies being run, innermost last (no allocation unless a try runs).
  std::vector<const Instr*> handlers;
resume:
  try {
    for (;;) {
      const Instr& in = code[pc];
      const Operand* a = ops + in.a;
      switch (in.op) {
        case OpCode::OP: {
          const size_t before = stack.size();
          for (size_t i = 0; i < in.nIn; ++i) pushOperand(stack, a[i], regs, consts);
          if (__builtin_expect(in.aux >= 0, 0)) bumpWrittenVersions(static_cast<uint64_t>(aux[in.aux].i), &stack[before]);
          reinterpret_cast<OperationFn>(const_cast<void*>(in.p))(stack);
          if (__builtin_expect(stack.size() != before + in.nOut, 0)) badReturnCount(in);
          popOutputs(stack, in, regs);
          ++pc;
          break;
        }
        case OpCode::OPN: {
          const size_t before = stack.size();
          for (size_t i = 0; i < in.nIn; ++i) pushOperand(stack, a[i], regs, consts);
          stack.emplace_back(static_cast<int64_t>(in.nIn));
          if (__builtin_expect(in.aux >= 0, 0)) bumpWrittenVersions(static_cast<uint64_t>(aux[in.aux].i), &stack[before]);
          reinterpret_cast<OperationFn>(const_cast<void*>(in.p))(stack);
          if (__builtin_expect(stack.size() != before + in.nOut, 0)) badReturnCount(in);
          popOutputs(stack, in, regs);
          ++pc;
          break;
        }
        case OpCode::OP_PROFILED: {
          const size_t before = stack.size();
          for (size_t i = 0; i < in.nIn; ++i) pushOperand(stack, a[i], regs, consts);
          if (in.x) stack.emplace_back(static_cast<int64_t>(in.nIn));
          if (in.aux >= 0) bumpWrittenVersions(static_cast<uint64_t>(aux[in.aux].i), &stack[before]);
          const auto t0 = std::chrono::steady_clock::now();
          const int64_t c0 = profiler::processCpuNs();
          reinterpret_cast<OperationFn>(const_cast<void*>(in.p))(stack);
          const int64_t c1 = profiler::processCpuNs();
          profiler::record(in.node->kind(),
                           std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count(),
                           c1 - c0);
          if (__builtin_expect(stack.size() != before + in.nOut, 0)) badReturnCount(in);
          popOutputs(stack, in, regs);
          ++pc;
          break;
        }
        case OpCode::JF: {
          bool c = ref(a[0], regs, consts).toBool();
          pc = c ? pc + 1 : static_cast<size_t>(in.x);
          break;
        }
        case OpCode::JMP:
          pc = static_cast<size_t>(in.x);
          break;
        case OpCode::LOOP: {
          IValue& ctr = regs[a[0].idx];
          int64_t i = ctr.toInt();
          if (i < regs[a[1].idx].toInt() && regs[a[2].idx].toBool()) {
            int32_t ir = outs[in.o];
            if (ir >= 0) regs[ir] = IValue(i);
            ctr = IValue(i + 1);
            ++pc;
          } else {
            pc = static_cast<size_t>(in.x);
          }
          break;
        }
        case OpCode::MOVES: {
          for (size_t i = 0; i < in.nIn; ++i) pushOperand(stack, a[i], regs, consts);
          popOutputs(stack, in, regs);
          ++pc;
          break;
        }
        case OpCode::DROP: {
          for (size_t k = 0; k < in.nOut; ++k) regs[outs[in.o + k]] = IValue();
          ++pc;
          break;
        }
        case OpCode::GET_ATTR: {
          // Read through a reference: no refcount traffic on `self` for every attribute access.
          const Object& obj = ref(a[0], regs, consts).toObjectRef();
          if (__builtin_expect(static_cast<size_t>(in.x) >= obj.slots.size(), 0)) badSlot(obj, in);
          IValue r = obj.slots[in.x];
          if (a[0].mode == Mode::MOVE) regs[a[0].idx] = IValue();
          store(regs, in, 0, std::move(r));
          ++pc;
          break;
        }
        case OpCode::GET_ATTR_NAME: {
          IValue obj = take(a[0], regs, consts);
          store(regs, in, 0, obj.toObjectRef().getAttr(aux[in.aux].name));
          ++pc;
          break;
        }
        case OpCode::SET_ATTR: {
          IValue v = take(a[1], regs, consts);
          Object& obj = ref(a[0], regs, consts).toObjectRef();
          if (__builtin_expect(static_cast<size_t>(in.x) >= obj.slots.size(), 0)) badSlot(obj, in);
          obj.slots[in.x] = std::move(v);
          if (a[0].mode == Mode::MOVE) regs[a[0].idx] = IValue();
          ++pc;
          break;
        }
        case OpCode::SET_ATTR_NAME: {
          IValue obj = take(a[0], regs, consts);
          obj.toObjectRef().setAttr(aux[in.aux].name, take(a[1], regs, consts));
          ++pc;
          break;
        }
        case OpCode::CALL: {
          const size_t before = stack.size();
          for (size_t i = 0; i < in.nIn; ++i) pushOperand(stack, a[i], regs, consts);
          static_cast<Function*>(const_cast<void*>(in.p))->run(stack);
          if (__builtin_expect(stack.size() != before + in.nOut, 0)) badReturnCount(in);
          popOutputs(stack, in, regs);
          ++pc;
          break;
        }
        case OpCode::CALL_METHOD_NAME: {
          const IValue& self = ref(a[0], regs, consts);
          Function* fn = self.toObjectRef().type->findMethod(aux[in.aux].name);
          if (!fn)
            throw RuntimeError(fmt::format("'{}' object has no attribute or method '{}'",
                                           self.toObjectRef().type->qualName(), aux[in.aux].name));
          const size_t before = stack.size();
          for (size_t i = 0; i < in.nIn; ++i) pushOperand(stack, a[i], regs, consts);
          fn->run(stack);
          if (__builtin_expect(stack.size() != before + in.nOut, 0)) badReturnCount(in);
          popOutputs(stack, in, regs);
          ++pc;
          break;
        }
        case OpCode::TUPLE_CONSTRUCT: {
          std::vector<IValue> elems;
          elems.reserve(in.nIn);
          for (size_t i = 0; i < in.nIn; ++i) elems.push_back(take(a[i], regs, consts));
          store(regs, in, 0, IValue(makeIntrusive<TupleValue>(std::move(elems), aux[in.aux].type)));
          ++pc;
          break;
        }
        case OpCode::TUPLE_UNPACK: {
          IValue t = take(a[0], regs, consts);
          const auto& e = t.toTupleRef().elements;
          if (e.size() != in.nOut)
            throw RuntimeError(fmt::format("Expected a tuple of {} elements but found {}", in.nOut, e.size()));
          bool unique = t.rawPtr()->use_count() == 1;
          for (size_t k = 0; k < in.nOut; ++k)
            store(regs, in, k, unique ? std::move(const_cast<IValue&>(e[k])) : e[k]);
          ++pc;
          break;
        }
        case OpCode::TUPLE_INDEX: {
          int64_t i = ref(a[1], regs, consts).toInt();
          const auto& e = ref(a[0], regs, consts).toTupleRef().elements;
          int64_t n = static_cast<int64_t>(e.size());
          if (i < 0) i += n;
          KD_CHECK_INDEX(i >= 0 && i < n, "tuple index out of range");
          IValue r = e[i];
          if (a[0].mode == Mode::MOVE) regs[a[0].idx] = IValue();
          store(regs, in, 0, std::move(r));
          ++pc;
          break;
        }
        case OpCode::TUPLE_SLICE: {
          IValue t = take(a[0], regs, consts);
          const auto& e = t.toTupleRef().elements;
          int64_t b = in.x, en = aux[in.aux].i;
          int64_t n = static_cast<int64_t>(e.size());
          b = std::max<int64_t>(0, std::min(b, n));
          en = std::max<int64_t>(b, std::min(en, n));
          std::vector<IValue> r(e.begin() + b, e.begin() + en);
          store(regs, in, 0, IValue(makeIntrusive<TupleValue>(std::move(r))));
          ++pc;
          break;
        }
        case OpCode::LIST_CONSTRUCT: {
          std::vector<IValue> elems;
          elems.reserve(in.nIn);
          for (size_t i = 0; i < in.nIn; ++i) elems.push_back(take(a[i], regs, consts));
          store(regs, in, 0, IValue(makeIntrusive<ListValue>(aux[in.aux].type, std::move(elems))));
          ++pc;
          break;
        }
        case OpCode::LIST_UNPACK: {
          IValue l = take(a[0], regs, consts);
          const auto& e = l.toListRef().elements;
          KD_CHECK(e.size() == in.nOut, "Expected {} elements in a list but found {}", in.nOut, e.size());
          for (size_t k = 0; k < in.nOut; ++k) store(regs, in, k, e[k]);
          ++pc;
          break;
        }
        case OpCode::DICT_CONSTRUCT: {
          auto d = makeIntrusive<DictValue>(aux[in.aux].type, aux[in.aux].type2);
          for (size_t i = 0; i + 1 < in.nIn; i += 2) d->insertOrAssign(take(a[i], regs, consts), take(a[i + 1], regs, consts));
          store(regs, in, 0, IValue(std::move(d)));
          ++pc;
          break;
        }
        case OpCode::CREATE_OBJECT: {
          auto ct = std::const_pointer_cast<ClassType>(std::static_pointer_cast<const ClassType>(aux[in.aux].type));
          size_t n = ct->attributes().size();
          store(regs, in, 0, IValue(makeIntrusive<Object>(std::move(ct), n)));
          ++pc;
          break;
        }
        case OpCode::UNINITIALIZED:
          store(regs, in, 0, IValue::uninitialized());
          ++pc;
          break;
        case OpCode::CAST:
          for (size_t k = 0; k < in.nOut && k < in.nIn; ++k) store(regs, in, k, take(a[k], regs, consts));
          ++pc;
          break;
        case OpCode::ISINSTANCE: {
          IValue v = take(a[0], regs, consts);
          TypePtr t = v.type();
          bool r = false;
          for (const TypePtr& c : aux[in.aux].types)
            if (t->isSubtypeOf(c)) { r = true; break; }
          store(regs, in, 0, IValue(r));
          ++pc;
          break;
        }
        case OpCode::RAISE: {
          IValue msg = take(a[0], regs, consts);
          std::string cls = "builtins.RuntimeError";
          if (in.nIn > 1) {
            const IValue& c = ref(a[1], regs, consts);
            if (c.isString()) cls = c.toStringRef();
          }
          throw RuntimeError(msg.isString() ? msg.toStringRef() : msg.str(), cls);
        }
        case OpCode::PRINT: {
          std::string line;
          for (size_t i = 0; i < in.nIn; ++i) {
            if (i) line += ' ';
            line += ref(a[i], regs, consts).str();
          }
          line += '\n';
          std::fwrite(line.data(), 1, line.size(), stdout);
          ++pc;
          break;
        }
        case OpCode::NUM_TO_TENSOR: {
          const IValue& v = ref(a[0], regs, consts);
          Tensor t;
          if (v.isDouble()) t = Tensor::scalarTensor(Scalar(v.toDouble()), ScalarType::Double);
          else if (v.isBool()) t = Tensor::scalarTensor(Scalar(v.toBool()), ScalarType::Bool);
          else t = Tensor::scalarTensor(Scalar(v.toInt()), ScalarType::Long);
          store(regs, in, 0, IValue(std::move(t)));
          ++pc;
          break;
        }
        case OpCode::DEVICE: {
          const IValue& v = ref(a[0], regs, consts);
          if (!v.isTensor()) (void)v.toTensor();
          if (a[0].mode == Mode::MOVE) regs[a[0].idx] = IValue();
          store(regs, in, 0, IValue(Device{DeviceType::CPU, -1}));
          ++pc;
          break;
        }
        case OpCode::DTYPE: {
          const IValue& v = ref(a[0], regs, consts);
          if (!v.isTensor()) (void)v.toTensor();  // throws the tag-mismatch error
          int64_t dt = static_cast<int64_t>(v.unsafeTensorImpl()->dtype);
          if (a[0].mode == Mode::MOVE) regs[a[0].idx] = IValue();
          store(regs, in, 0, IValue(dt));
          ++pc;
          break;
        }
        case OpCode::IS:
        case OpCode::ISNOT: {
          bool r = ref(a[0], regs, consts).is(ref(a[1], regs, consts));
          if (in.op == OpCode::ISNOT) r = !r;
          if (a[0].mode == Mode::MOVE) regs[a[0].idx] = IValue();
          if (a[1].mode == Mode::MOVE) regs[a[1].idx] = IValue();
          store(regs, in, 0, IValue(r));
          ++pc;
          break;
        }
        case OpCode::NOT: {
          bool r = !ref(a[0], regs, consts).toBool();
          store(regs, in, 0, IValue(r));
          ++pc;
          break;
        }
        case OpCode::ENUM_NAME:
        case OpCode::ENUM_VALUE: {
          IValue e = take(a[0], regs, consts);
          const EnumHolder& h = *e.toEnum();
          store(regs, in, 0, in.op == OpCode::ENUM_NAME ? IValue(h.name) : h.value);
          ++pc;
          break;
        }
        case OpCode::FORK: {
          // the forked call runs on the inter-op pool with its own copy of the captured values
          std::vector<IValue> args;
          args.reserve(in.nIn);
          for (size_t i = 0; i < in.nIn; ++i) args.push_back(take(a[i], regs, consts));
          const Aux& ax = aux[in.aux];
          auto fut = makeIntrusive<Future>(ax.type);
          fut->launch(interopPool(), [sub = ax.code, args = std::move(args)]() mutable {
            Stack st(std::move(args));
            sub->run(st);
            return st.empty() ? IValue() : std::move(st.back());
          });
          store(regs, in, 0, IValue(IntrusivePtr<FutureValue>(std::move(fut))));
          ++pc;
          break;
        }
        case OpCode::WAIT: {
          IValue f = take(a[0], regs, consts);
          store(regs, in, 0, futureOf(f).waitValue());
          ++pc;
          break;
        }
        case OpCode::NOP:
          for (size_t k = 0; k < in.nOut; ++k) store(regs, in, k, IValue());
          ++pc;
          break;
        case OpCode::RET: {
          for (size_t i = 0; i < in.nIn; ++i) pushOperand(stack, a[i], regs, consts);
          return;
        }
        case OpCode::TRY:
          handlers.push_back(&in);
          ++pc;
          break;
        case OpCode::POP_TRY:
          handlers.pop_back();
          ++pc;
          break;
      }
    }
  } catch (RuntimeError& e) {
    if (!handlers.empty()) {
      const Instr& h = *handlers.back();
      handlers.pop_back();
      stack.resize(std::min(stack.size(), stackBase));
      HandledException x = handledException(e);
      regs[outs[h.o]] = IValue(std::move(x.cls));
      regs[outs[h.o + 1]] = IValue(std::move(x.msg));
      regs[outs[h.o + 2]] = IValue(std::move(x.text));
      pc = static_cast<size_t>(h.x);
      goto resume;
    }
    // Frames for this function and, when the failing node was inlined, for each inlined call: every frame
    // shows where execution was in that function (the call site, or the failing node for the last one).
    const Node* n = code[pc].node;
    auto frame = [](const std::string& fn, const SourceRange& r) {
      std::string f = fn;
      if (r.valid()) {
        std::string loc = r.location();
        if (!loc.empty()) f += " (" + loc + ")";
      }
      return f;
    };
    std::vector<std::string> frames;
    if (n && n->inlinedCallStack()) {
      std::vector<const InlinedFrame*> cs = n->inlinedCallStack()->frames();
      frames.push_back(frame(functionName, cs[0]->callSite));
      for (size_t i = 0; i < cs.size(); ++i)
        frames.push_back(frame(cs[i]->callee, i + 1 < cs.size() ? cs[i + 1]->callSite : n->sourceRange()));
    } else {
      frames.push_back(frame(functionName, n ? n->sourceRange() : SourceRange()));
    }
    e.callStack.insert(e.callStack.begin(), frames.begin(), frames.end());
    stack.resize(std::min(stack.size(), stackBase));
    throw;
  }
}

Code::Code(std::shared_ptr<Graph> graph, std::string functionName) : impl_(std::make_unique<Impl>()) {
  impl_->functionName = std::move(functionName);
  impl_->graph = std::move(graph);
  impl_->compile();
}

Code::~Code() = default;

void Code::run(Stack& stack) const { impl_->run(stack); }

std::string Code::dump() const {
  const Impl& m = *impl_;
  std::string s;
  for (size_t pc = 0; pc < m.instrs.size(); ++pc) {
    const Instr& in = m.instrs[pc];
    s += fmt::format("{:4} {}", pc, opName(in.op));
    if (in.op == OpCode::OP || in.op == OpCode::OPN || in.op == OpCode::OP_PROFILED) s += " " + in.node->kind().toQualString();
    if (in.op == OpCode::CALL) s += " " + static_cast<const Function*>(in.p)->qualname();
    for (size_t i = 0; i < in.nIn; ++i) {
      const Operand& o = m.operands[in.a + i];
      s += o.mode == Mode::CONST ? fmt::format(" c{}", o.idx)
                                 : fmt::format(" {}r{}", o.mode == Mode::MOVE ? "move " : "", o.idx);
    }
    if (in.nOut) {
      s += " ->";
      for (size_t k = 0; k < in.nOut; ++k) s += fmt::format(" r{}", m.outs[in.o + k]);
    }
    if (in.op == OpCode::JF || in.op == OpCode::JMP || in.op == OpCode::LOOP) s += fmt::format(" @{}", in.x);
    s += "\n";
  }
  return s;
}

}  // namespace kindling
