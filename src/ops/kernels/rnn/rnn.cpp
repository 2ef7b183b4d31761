// Recurrent networks: aten::lstm / gru / rnn_tanh / rnn_relu (the whole multi-layer, optionally
// bidirectional, optionally batch_first network nn.LSTM/nn.GRU/nn.RNN call) and their single-step cells
// (lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell), as ATen's RNN.cpp computes them:
//
//   LSTM  gates = x W_ih^T + b_ih + h W_hh^T + b_hh, chunked (i, f, g, o);
//         c' = sigmoid(f) * c + sigmoid(i) * tanh(g);  h' = sigmoid(o) * tanh(c')  [h' = h' W_hr^T: proj_size]
//   GRU   r = sigmoid(xr + hr), z = sigmoid(xz + hz), n = tanh(xn + r * hn);  h' = (h - n) * z + n
//   RNN   h' = tanh|relu(x W_ih^T + b_ih + h W_hh^T + b_hh)
//
// The params list holds, per layer and direction (forward then reverse), w_ih, w_hh, then b_ih, b_hh when
// has_biases, then w_hr when the LSTM has projections (PyTorch detects them from hx[0].size(2) !=
// hx[1].size(2)). The input projections of a whole layer are computed with one matrix product, then each step
// adds h W_hh^T (aten::linear) and applies the gates in a fused loop. Inference only: dropout between layers
// applies only when train is true, which is rejected (its random mask cannot match PyTorch's anyway).
// Packed sequences (the .data overloads: data (rows, I) and batch_sizes) run step by step on the active rows.
#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"

namespace kindling {

namespace {

const OpHandle kLinear("aten::linear");

enum class Cell { LSTM, GRU, Tanh, Relu };

int64_t gateCount(Cell c) { return c == Cell::LSTM ? 4 : c == Cell::GRU ? 3 : 1; }

template <class T> inline T sigmoidT(T x) { return T(1) / (T(1) + std::exp(-x)); }

/// One direction's weights (views into the params list).
struct Weights {
  Tensor w_ih, w_hh, b_ih, b_hh, w_hr;
};

/// The next hidden state from precomputed input gates `xg` (B, G*H, with b_ih) and hidden gates `hg`
/// (B, G*H, with b_hh). For LSTM, `c` (B, H) is updated in place and `hOut` receives o * tanh(c') before any
/// projection. Contiguous buffers; row b of xg starts at xg + b * xStride.
template <class T>
void applyGates(Cell cell, int64_t B, int64_t H, const T* xg, int64_t xStride, const T* hg, const T* hPrev,
                int64_t hPrevStride, T* c, T* hOut, int64_t hOutStride) {
  const int64_t G = gateCount(cell) * H;
  for (int64_t b = 0; b < B; ++b) {
    const T* x = xg + b * xStride;
    const T* h = hg + b * G;
    T* out = hOut + b * hOutStride;
    switch (cell) {
      case Cell::LSTM: {
        T* cb = c + b * H;
        for (int64_t j = 0; j < H; ++j) {
          const T i = sigmoidT(x[j] + h[j]);
          const T f = sigmoidT(x[H + j] + h[H + j]);
          const T g = std::tanh(x[2 * H + j] + h[2 * H + j]);
          const T o = sigmoidT(x[3 * H + j] + h[3 * H + j]);
          const T cy = f * cb[j] + i * g;
          cb[j] = cy;
          out[j] = o * std::tanh(cy);
        }
        break;
      }
      case Cell::GRU: {
        const T* hp = hPrev + b * hPrevStride;
        for (int64_t j = 0; j < H; ++j) {
          const T r = sigmoidT(x[j] + h[j]);
          const T z = sigmoidT(x[H + j] + h[H + j]);
          const T n = std::tanh(x[2 * H + j] + h[2 * H + j] * r);
          out[j] = (hp[j] - n) * z + n;
        }
        break;
      }
      case Cell::Tanh:
        for (int64_t j = 0; j < H; ++j) out[j] = std::tanh(x[j] + h[j]);
        break;
      case Cell::Relu:
        for (int64_t j = 0; j < H; ++j) {
          const T v = x[j] + h[j];
          out[j] = v > T(0) ? v : T(0);
        }
        break;
    }
  }
}

/// Runs one direction of one layer over the whole sequence.
/// input: (T, B, I) contiguous, or with `batchSizes` a packed sequence (sum(batchSizes), I) whose step t holds
/// the first batchSizes[t] sequences (non-increasing). h0: (B, Hout); c0: (B, H) for LSTM. Writes the outputs
/// into out ((T, B, outW) or (rows, outW)) at column offset `col`; returns h_n (B, Hout) and, for LSTM, c_n in
/// cN. With a packed input, a sequence's h_n is its state after its own last step (forward), and the reverse
/// direction starts each sequence from h0 at its own last step, as PyTorch's packed layers do.
template <class T>
Tensor runDirection(Cell cell, const Tensor& input, const std::vector<int64_t>* batchSizes, const Weights& w,
                    const Tensor& h0, const Tensor& c0, bool reverse, Tensor& out, int64_t col, Tensor& cN) {
  const bool packed = batchSizes != nullptr;
  const int64_t steps = packed ? static_cast<int64_t>(batchSizes->size()) : input.size(0);
  const int64_t B = packed ? (steps ? (*batchSizes)[0] : 0) : input.size(1);
  const int64_t I = input.size(input.dim() - 1);
  const int64_t H = w.w_ih.size(0) / gateCount(cell);
  const bool proj = w.w_hr.defined();
  const int64_t Hout = proj ? w.w_hr.size(0) : H;
  const int64_t G = gateCount(cell) * H;
  std::vector<int64_t> offsets(steps + 1, 0);
  for (int64_t t = 0; t < steps; ++t) offsets[t + 1] = offsets[t] + (packed ? (*batchSizes)[t] : B);
  // All input projections at once: (rows, G).
  Tensor xg = kLinear(input.reshape({offsets[steps], I}), w.w_ih, w.b_ih).contiguous();
  Tensor h = h0.contiguous().clone();  // (B, Hout): rows past the active batch keep their state
  Tensor c;
  if (cell == Cell::LSTM) c = c0.contiguous().clone();
  Tensor hRaw = proj ? Tensor::empty({B, H}, input.dtype()) : Tensor();
  const int64_t outW = out.size(out.dim() - 1);
  T* O = out.data_ptr<T>();
  for (int64_t s = 0; s < steps; ++s) {
    const int64_t t = reverse ? steps - 1 - s : s;
    const int64_t bt = offsets[t + 1] - offsets[t];
    if (bt == 0) continue;
    Tensor hAct = bt == B ? h : h.narrow(0, 0, bt);
    Tensor hg = kLinear(hAct, w.w_hh, w.b_hh).contiguous();
    Tensor hNext = Tensor::empty({bt, Hout}, input.dtype());
    T* dst = proj ? hRaw.data_ptr<T>() : hNext.data_ptr<T>();
    applyGates<T>(cell, bt, H, xg.data_ptr<T>() + offsets[t] * G, G, hg.data_ptr<T>(), h.data_ptr<T>(), Hout,
                  cell == Cell::LSTM ? c.data_ptr<T>() : nullptr, dst, proj ? H : Hout);
    if (proj) hNext.copy_(kLinear(bt == B ? hRaw : hRaw.narrow(0, 0, bt), w.w_hr, Tensor()));
    const T* hn = hNext.data_ptr<T>();
    T* hp = h.data_ptr<T>();
    for (int64_t b = 0; b < bt; ++b) {
      T* o = O + (offsets[t] + b) * outW + col;
      for (int64_t j = 0; j < Hout; ++j) {
        o[j] = hn[b * Hout + j];
        hp[b * Hout + j] = hn[b * Hout + j];
      }
    }
  }
  cN = c;
  return h;
}

/// The whole network. hx: {h0} or {h0, c0} (LSTM), each (layers * D, B, Hout|H). Returns output, h_n[, c_n].
/// batchSizes (the .data overloads): input is a packed sequence (rows, I) and so is the output.
std::vector<Tensor> runNetwork(Cell cell, Tensor input, const std::vector<Tensor>& hx, const std::vector<Tensor>& params,
                               bool hasBiases, int64_t numLayers, double dropout, bool train, bool bidirectional,
                               bool batchFirst, const Tensor& batchSizesT = Tensor()) {
  const char* name = cell == Cell::LSTM ? "lstm" : cell == Cell::GRU ? "gru" : cell == Cell::Tanh ? "rnn_tanh" : "rnn_relu";
  KD_CHECK(!(train && dropout > 0), "{}: dropout in training mode is not supported (inference only)", name);
  const bool packed = batchSizesT.defined();
  std::vector<int64_t> batchSizes;
  if (packed) {
    KD_CHECK(input.dim() == 2, "{}: expected a 2-D packed input, got {}-D", name, input.dim());
    KD_CHECK(batchSizesT.dim() == 1, "{}: batch_sizes must be 1-D", name);
    Tensor bs = batchSizesT.to(ScalarType::Long).contiguous();
    batchSizes.assign(bs.data_ptr<int64_t>(), bs.data_ptr<int64_t>() + bs.numel());
    int64_t total = 0;
    for (size_t t = 0; t < batchSizes.size(); ++t) {
      KD_CHECK(batchSizes[t] > 0 && (t == 0 || batchSizes[t] <= batchSizes[t - 1]),
               "{}: batch_sizes must be positive and non-increasing", name);
      total += batchSizes[t];
    }
    KD_CHECK(total == input.size(0), "{}: batch_sizes sum to {} but the packed input has {} rows", name, total,
             input.size(0));
  } else {
    KD_CHECK(input.dim() == 3, "{}: Expected input to be 3-D, got {}-D", name, input.dim());
  }
  KD_CHECK(input.dtype() == ScalarType::Float || input.dtype() == ScalarType::Double,
           "{}: expected a float or double input, got {}", name, scalarTypeName(input.dtype()));
  KD_CHECK(numLayers >= 1, "{}: num_layers must be positive", name);
  const int64_t D = bidirectional ? 2 : 1;
  const bool proj = cell == Cell::LSTM && hx.size() == 2 && hx[0].size(2) != hx[1].size(2);
  const size_t per = 2 + (hasBiases ? 2 : 0) + (proj ? 1 : 0);
  KD_CHECK(params.size() == per * numLayers * D, "{}: got {} parameters, expected {}", name, params.size(),
           per * numLayers * D);
  KD_CHECK(hx.size() == (cell == Cell::LSTM ? 2u : 1u), "{}: wrong number of hidden states", name);
  if (batchFirst && !packed) input = input.transpose(0, 1);
  Tensor x = input.contiguous();
  const ScalarType dt = x.dtype();
  const int64_t B = packed ? (batchSizes.empty() ? 0 : batchSizes[0]) : x.size(1);
  const int64_t steps = x.size(0);  // time steps, or packed rows
  for (const Tensor& h : hx)
    KD_CHECK(h.dim() == 3 && h.size(0) == numLayers * D && h.size(1) == B,
             "{}: expected hidden size ({}, {}, *), got {}", name, numLayers * D, B, h.sizesStr());
  std::vector<Tensor> hN, cN;
  for (int64_t l = 0; l < numLayers; ++l) {
    const size_t base = static_cast<size_t>(l * D) * per;
    const int64_t Hout = hx[0].size(2);
    Tensor out = packed ? Tensor::empty({steps, D * Hout}, dt) : Tensor::empty({steps, B, D * Hout}, dt);
    for (int64_t d = 0; d < D; ++d) {
      const size_t p = base + d * per;
      Weights w;
      w.w_ih = params[p].to(dt);
      w.w_hh = params[p + 1].to(dt);
      if (hasBiases) {
        w.b_ih = params[p + 2].to(dt);
        w.b_hh = params[p + 3].to(dt);
      }
      if (proj) w.w_hr = params[p + per - 1].to(dt);
      const int64_t inSize = x.size(x.dim() - 1);
      KD_CHECK(w.w_ih.dim() == 2 && w.w_ih.size(1) == inSize, "{}: input size {} does not match weight_ih {}", name,
               inSize, w.w_ih.sizesStr());
      const int64_t idx = l * D + d;
      Tensor h0 = hx[0].select(0, idx).to(dt);
      Tensor c0 = cell == Cell::LSTM ? hx[1].select(0, idx).to(dt) : Tensor();
      Tensor cOut;
      const std::vector<int64_t>* bsp = packed ? &batchSizes : nullptr;
      Tensor h = dt == ScalarType::Float
                     ? runDirection<float>(cell, x, bsp, w, h0, c0, d == 1, out, d * Hout, cOut)
                     : runDirection<double>(cell, x, bsp, w, h0, c0, d == 1, out, d * Hout, cOut);
      hN.push_back(h);
      if (cell == Cell::LSTM) cN.push_back(cOut);
    }
    x = out;
  }
  auto stack0 = [](const std::vector<Tensor>& ts) {
    const Tensor& f = ts[0];
    IntArray sz{static_cast<int64_t>(ts.size())};
    for (int64_t s : f.sizes()) sz.push_back(s);
    Tensor r = Tensor::empty(sz, f.dtype());
    for (size_t i = 0; i < ts.size(); ++i) r.select(0, static_cast<int64_t>(i)).copy_(ts[i]);
    return r;
  };
  std::vector<Tensor> result{batchFirst && !packed ? x.transpose(0, 1) : x, stack0(hN)};
  if (cell == Cell::LSTM) result.push_back(stack0(cN));
  return result;
}

template <Cell C>
void rnnInputOp(Stack& s) {
  // (input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first)
  Args a(s, 9);
  std::vector<Tensor> hx;
  if constexpr (C == Cell::LSTM) {
    hx = a.tensorList(1);
  } else {
    hx = {a.tensor(1)};
  }
  auto r = runNetwork(C, a.tensor(0), hx, a.tensorList(2), a.toBool(3), a.toInt(4), a.toDouble(5), a.toBool(6),
                      a.toBool(7), a.toBool(8));
  if constexpr (C == Cell::LSTM) {
    a.ret(r[0], r[1], r[2]);
  } else {
    a.ret(r[0], r[1]);
  }
}

template <Cell C>
void rnnDataOp(Stack& s) {
  // (data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional)
  Args a(s, 9);
  std::vector<Tensor> hx;
  if constexpr (C == Cell::LSTM) {
    hx = a.tensorList(2);
  } else {
    hx = {a.tensor(2)};
  }
  auto r = runNetwork(C, a.tensor(0), hx, a.tensorList(3), a.toBool(4), a.toInt(5), a.toDouble(6), a.toBool(7),
                      a.toBool(8), false, a.tensor(1));
  if constexpr (C == Cell::LSTM) {
    a.ret(r[0], r[1], r[2]);
  } else {
    a.ret(r[0], r[1]);
  }
}

/// One step of a cell: input (B, I), hx (B, H).
template <Cell C>
std::vector<Tensor> cellStep(const Tensor& input, const std::vector<Tensor>& hx, const Tensor& wih, const Tensor& whh,
                             const Tensor& bih, const Tensor& bhh) {
  const char* name = C == Cell::LSTM ? "lstm_cell" : C == Cell::GRU ? "gru_cell" : C == Cell::Tanh ? "rnn_tanh_cell" : "rnn_relu_cell";
  // The aten cells take batched (B, I) inputs only (nn.*Cell unsqueezes unbatched ones); PyTorch fails on the
  // hidden size lookup with this message.
  KD_CHECK(input.dim() == 2, "Dimension out of range (expected to be in range of [{}, {}], but got 1)",
           -std::max<int64_t>(input.dim(), 1), std::max<int64_t>(input.dim(), 1) - 1);
  const bool batched = true;
  const ScalarType dt = input.dtype();
  KD_CHECK(dt == ScalarType::Float || dt == ScalarType::Double, "{}: expected a float or double input", name);
  Tensor x = batched ? input : input.unsqueeze(0);
  std::vector<Tensor> h;
  for (const Tensor& t : hx) h.push_back((batched ? t : t.unsqueeze(0)).to(dt).contiguous());
  const int64_t B = x.size(0), H = whh.size(1);
  KD_CHECK(wih.size(0) == gateCount(C) * H, "{}: weight_ih has {} rows, expected {}", name, wih.size(0), gateCount(C) * H);
  for (const Tensor& t : h)
    KD_CHECK(t.dim() == 2 && t.size(0) == B && t.size(1) == H, "{}: hidden size {} does not match ({}, {})", name,
             t.sizesStr(), B, H);
  Tensor xg = kLinear(x, wih, bih).contiguous();
  Tensor hg = kLinear(h[0], whh, bhh).contiguous();
  Tensor hOut = Tensor::empty({B, H}, dt);
  Tensor c = C == Cell::LSTM ? h[1].clone() : Tensor();
  const int64_t G = gateCount(C) * H;
  if (dt == ScalarType::Float)
    applyGates<float>(C, B, H, xg.data_ptr<float>(), G, hg.data_ptr<float>(), h[0].data_ptr<float>(), H,
                      C == Cell::LSTM ? c.data_ptr<float>() : nullptr, hOut.data_ptr<float>(), H);
  else
    applyGates<double>(C, B, H, xg.data_ptr<double>(), G, hg.data_ptr<double>(), h[0].data_ptr<double>(), H,
                       C == Cell::LSTM ? c.data_ptr<double>() : nullptr, hOut.data_ptr<double>(), H);
  if (!batched) {
    hOut = hOut.squeeze(0);
    if (c.defined()) c = c.squeeze(0);
  }
  if (C == Cell::LSTM) return {hOut, c};
  return {hOut};
}

void lstmCellOp(Stack& s) {
  Args a(s, 6);
  std::vector<Tensor> hx = a.tensorList(1);
  KD_CHECK(hx.size() == 2, "lstm_cell: expected hx to be a list of two tensors (h, c), got {}", hx.size());
  auto r = cellStep<Cell::LSTM>(a.tensor(0), hx, a.tensor(2), a.tensor(3), a.optTensor(4), a.optTensor(5));
  a.ret(r[0], r[1]);
}

template <Cell C>
void simpleCellOp(Stack& s) {
  Args a(s, 6);
  auto r = cellStep<C>(a.tensor(0), {a.tensor(1)}, a.tensor(2), a.tensor(3), a.optTensor(4), a.optTensor(5));
  a.ret(r[0]);
}

}  // namespace

void registerRnnOps(OperatorRegistry& r) {
  r.add("aten::lstm.input(Tensor input, Tensor[] hx, Tensor[] params, bool has_biases, int num_layers, float dropout, "
        "bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor, Tensor)", rnnInputOp<Cell::LSTM>);
  r.add("aten::gru.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, "
        "bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)", rnnInputOp<Cell::GRU>);
  r.add("aten::rnn_tanh.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, "
        "float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)", rnnInputOp<Cell::Tanh>);
  r.add("aten::rnn_relu.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, "
        "float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)", rnnInputOp<Cell::Relu>);
  r.add("aten::lstm.data(Tensor data, Tensor batch_sizes, Tensor[] hx, Tensor[] params, bool has_biases, "
        "int num_layers, float dropout, bool train, bool bidirectional) -> (Tensor, Tensor, Tensor)", rnnDataOp<Cell::LSTM>);
  r.add("aten::gru.data(Tensor data, Tensor batch_sizes, Tensor hx, Tensor[] params, bool has_biases, int num_layers, "
        "float dropout, bool train, bool bidirectional) -> (Tensor, Tensor)", rnnDataOp<Cell::GRU>);
  r.add("aten::rnn_tanh.data(Tensor data, Tensor batch_sizes, Tensor hx, Tensor[] params, bool has_biases, "
        "int num_layers, float dropout, bool train, bool bidirectional) -> (Tensor, Tensor)", rnnDataOp<Cell::Tanh>);
  r.add("aten::rnn_relu.data(Tensor data, Tensor batch_sizes, Tensor hx, Tensor[] params, bool has_biases, "
        "int num_layers, float dropout, bool train, bool bidirectional) -> (Tensor, Tensor)", rnnDataOp<Cell::Relu>);
  r.add("aten::lstm_cell(Tensor input, Tensor[] hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, Tensor? b_hh=None) "
        "-> (Tensor, Tensor)", lstmCellOp);
  r.add("aten::gru_cell(Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, Tensor? b_hh=None) "
        "-> Tensor", simpleCellOp<Cell::GRU>);
  r.add("aten::rnn_tanh_cell(Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, "
        "Tensor? b_hh=None) -> Tensor", simpleCellOp<Cell::Tanh>);
  r.add("aten::rnn_relu_cell(Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, "
        "Tensor? b_hh=None) -> Tensor", simpleCellOp<Cell::Relu>);
}

}  // namespace kindling
