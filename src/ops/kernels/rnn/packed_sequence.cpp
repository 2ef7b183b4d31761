// torch.nn.utils.rnn's two kernels, as ATen 1.13's PackedSequence.cpp:
//   _pack_padded_sequence(input [T, B, *] (or [B, T, *] batch_first), lengths int64 [B] sorted decreasing)
//     -> (data [sum(lengths), *], batch_sizes int64 [lengths[0]]): time step t holds the batch_sizes[t]
//        sequences still running, in batch order.
//   _pad_packed_sequence(data, batch_sizes, batch_first, padding_value, total_length)
//     -> (output [max(T, total_length), B, *] filled with padding_value (a transposed view when batch_first),
//         lengths int64 [B]).
// Sorting for enforce_sorted=False happens in the Python bodies (torch.sort + index_select); only the
// decreasing-order check lives here. batch_sizes / lengths are CPU int64 tensors. Also Tensor.cpu() (identity).
#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"

namespace kindling {

namespace {

void checkLongTensor(const Tensor& t) {
  KD_CHECK(t.dim() == 1 && t.dtype() == ScalarType::Long,
           "'lengths' argument should be a 1D CPU int64 tensor, but got {}D cpu {} tensor", t.dim(),
           scalarTypeName(t.dtype()));
}

void packPaddedSequenceK(Stack& s) {
  Args a(s, 3);
  const bool batchFirst = a.toBool(2);
  const Tensor input = batchFirst ? a.tensor(0).transpose(0, 1) : a.tensor(0);
  const Tensor lengthsT = a.tensor(1).contiguous();
  checkLongTensor(lengthsT);
  KD_CHECK(input.numel() > 0, "Cannot pack empty tensors.");
  const int64_t batch = input.sizes()[1];
  const int64_t* lengths = lengthsT.data_ptr<int64_t>();
  KD_CHECK(lengthsT.sizes()[0] == batch, "Expected `len(lengths)` to be equal to batch_size, but got {} (batch_size={})",
           lengthsT.sizes()[0], batch);
  KD_CHECK(lengths[batch - 1] > 0,
           "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0");
  for (int64_t i = 0; i + 1 < batch; ++i)
    KD_CHECK(lengths[batch - 1 - i] <= lengths[batch - 2 - i],
             "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass "
             "`enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this requirement if "
             "you do not need ONNX exportability.");
  const int64_t steps = lengths[0];
  KD_CHECK(steps <= input.sizes()[0], "Expected sequence length to be at most {}, but got {}", input.sizes()[0], steps);
  int64_t total = 0;
  for (int64_t b = 0; b < batch; ++b) total += lengths[b];
  IntArray dataShape{total};
  dataShape.insert(dataShape.end(), input.sizes().begin() + 2, input.sizes().end());
  Tensor data = Tensor::empty(dataShape, input.dtype());
  Tensor batchSizes = Tensor::empty({steps}, ScalarType::Long);
  int64_t* bs = batchSizes.data_ptr<int64_t>();
  // Runs of time steps with the same number of live sequences, shortest sequences last.
  int64_t prev = 0, row = 0;
  for (int64_t i = 0; i < batch; ++i) {
    const int64_t l = lengths[batch - 1 - i];
    if (l > prev) {
      const int64_t live = batch - i;
      Tensor dst = data.narrow(0, row, (l - prev) * live);
      IntArray v{l - prev, live};
      v.insert(v.end(), input.sizes().begin() + 2, input.sizes().end());
      dst.view(v).copy_(input.slice(0, prev, l).slice(1, 0, live));
      for (int64_t t = prev; t < l; ++t) bs[t] = live;
      row += (l - prev) * live;
      prev = l;
    }
  }
  a.ret(std::move(data), std::move(batchSizes));
}

void padPackedSequenceK(Stack& s) {
  Args a(s, 5);
  const Tensor data = a.tensor(0);
  const Tensor bsT = a.tensor(1).contiguous();
  const bool batchFirst = a.toBool(2);
  const Scalar padding = a.scalar(3);
  const int64_t totalLength = a.toInt(4);
  checkLongTensor(bsT);
  KD_CHECK(bsT.numel() > 0, "_pad_packed_sequence: batch_sizes must not be empty");
  const int64_t* bs = bsT.data_ptr<int64_t>();
  const int64_t maxBatch = bs[0], realSteps = bsT.sizes()[0];
  int64_t steps = realSteps;
  if (totalLength > 0) {
    KD_CHECK(totalLength >= steps,
             "Expected total_length to be at least the length of the longest sequence in input, but got "
             "total_length={} and max sequence length being {}",
             totalLength, steps);
    steps = totalLength;
  }
  IntArray outShape{steps, maxBatch};
  outShape.insert(outShape.end(), data.sizes().begin() + 1, data.sizes().end());
  Tensor out = Tensor::full(outShape, padding, data.dtype());
  Tensor lengthsT = Tensor::empty({maxBatch}, ScalarType::Long);
  int64_t* lengths = lengthsT.data_ptr<int64_t>() + maxBatch - 1;
  IntArray v = outShape;
  int64_t offset = 0, prevBatch = maxBatch, prevI = 0;
  for (int64_t i = 0; i <= realSteps; ++i) {
    const int64_t b = i != realSteps ? bs[i] : 0;
    KD_CHECK(b >= 0 && b <= prevBatch, "_pad_packed_sequence: batch_sizes must be non-increasing");
    if (b != prevBatch) {
      const int64_t l = prevBatch * (i - prevI);
      KD_CHECK(offset + l <= data.sizes()[0], "_pad_packed_sequence: data has fewer rows than batch_sizes describes");
      v[0] = i - prevI;
      v[1] = prevBatch;
      out.slice(0, prevI, i).slice(1, 0, prevBatch).copy_(data.narrow(0, offset, l).view(v));
      offset += l;
      prevI = i;
    }
    for (int64_t d = prevBatch - b; d > 0; --d) *lengths-- = i;
    prevBatch = b;
  }
  if (batchFirst) out = out.transpose(0, 1);
  a.ret(std::move(out), std::move(lengthsT));
}

// Tensor.cpu() (pad_packed_sequence indexes its lengths with unsorted_indices.cpu()): every tensor is on the CPU,
// so the tensor itself, as PyTorch returns self for a CPU tensor.
void cpuK(Stack& s) {
  Args a(s, 1);
  Tensor self = a.tensor(0);
  a.ret(std::move(self));
}

}  // namespace

void registerPackedSequenceOps(OperatorRegistry& r) {
  r.add("aten::_pack_padded_sequence(Tensor input, Tensor lengths, bool batch_first) -> (Tensor, Tensor)",
        packPaddedSequenceK);
  r.add("aten::_pad_packed_sequence(Tensor data, Tensor batch_sizes, bool batch_first, Scalar padding_value, "
        "int total_length) -> (Tensor, Tensor)",
        padPackedSequenceK);
  r.add("aten::cpu(Tensor(a) self) -> Tensor(b|a)", cpuK);
}

}  // namespace kindling
