"""torch.nn's own modules scripted from their Python source by kindling.jit.script, against eager and
torch.jit.script 1.13: each module is scripted by torch.jit first, then by Kindling inside kindling_only
(torch.jit and torch._C._jit_* raise there), in train and eval mode, on several input shapes; outputs equal
eager's and torch.jit's, and Kindling's saved archive loaded by torch.jit.load gives the same outputs.

Random modules (Dropout with p > 0, the dropout inside Transformer layers) are compared in eval mode only;
in train mode their dropout probability is 0 so the comparison is exact. nn.LSTM / GRU / RNN declare
their forward with @_overload_method: torch's scripted module then has forward__0 / forward__1 and no
forward, so they are scripted inside a module that calls them, as torch.jit users do."""
from pyapi_helpers import assert_same, kindling_only  # noqa: F401  (first: puts the package on sys.path)
import pytest
import torch
import torch.nn as nn

import kindling.jit


class Call(nn.Module):
    """Calls `inner` and returns its first output (for modules returning (output, state))."""

    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, x):
        out, state = self.inner(x)
        return out


class CallWithState(nn.Module):
    """Calls an RNN with an explicit initial state, returns output and final state. `lstm` is a constant, so
    only the branch for the RNN's own state type is compiled (the other call matches no overload)."""
    __constants__ = ["lstm"]

    def __init__(self, inner, state_shape, lstm):
        super().__init__()
        self.inner = inner
        self.state_shape = state_shape
        self.lstm = lstm

    def forward(self, x):
        h = torch.ones(self.state_shape) * 0.1
        if self.lstm:
            out, (hn, cn) = self.inner(x, (h, h * 2))
            return out, hn + cn
        out2, hn2 = self.inner(x, h)
        return out2, hn2


class PackedCall(nn.Module):
    """Packs padded sequences of the given lengths, runs an RNN on the PackedSequence (its forward's
    PackedSequence overload) and pads the output again."""

    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, x, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        out, state = self.inner(packed)
        padded, out_lengths = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
        return padded, out_lengths


class SelfAttention(nn.Module):
    def __init__(self, batch_first=False, need_weights=True):
        super().__init__()
        self.mha = nn.MultiheadAttention(8, 2, batch_first=batch_first)
        self.need_weights = need_weights

    def forward(self, x):
        out, w = self.mha(x, x, x, need_weights=self.need_weights)
        if w is None:
            return out, out.sum()
        return out, w


class MaskedAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.mha = nn.MultiheadAttention(8, 2, kdim=6, vdim=5)

    def forward(self, q, k, v):
        mask = torch.triu(torch.ones(q.size(0), k.size(0)), diagonal=1).bool()
        out, w = self.mha(q, k, v, attn_mask=mask)
        return out, w


class PaddedEncoder(nn.Module):
    """A batch-first TransformerEncoder with a key padding mask: in eval mode its fast-path checks read
    the parameters' requires_grad (True, as eager's), so the sequence is not converted to a nested tensor."""

    def __init__(self):
        super().__init__()
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), 2)

    def forward(self, x, lengths):
        pad = torch.arange(x.size(1)).unsqueeze(0) >= lengths.unsqueeze(1)
        return self.enc(x, src_key_padding_mask=pad)


class CausalTransformer(nn.Module):
    """nn.Transformer with the causal mask of its own @staticmethod generate_square_subsequent_mask (reached
    through self; its unannotated `device='cpu'` parameter is typed from the default)."""

    def __init__(self):
        super().__init__()
        self.t = nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, batch_first=True)

    def forward(self, src, tgt):
        mask = self.t.generate_square_subsequent_mask(tgt.size(1))
        return self.t(src, tgt, tgt_mask=mask)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0)

    def forward(self, x):
        return self.layer(x, x * 0.5)


class FullTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.t = nn.Transformer(8, 2, 1, 1, 16, dropout=0.0)

    def forward(self, src):
        tgt = src[: src.size(0) - 1]
        return self.t(src, tgt)


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Sequential(nn.Linear(8, 8), nn.LayerNorm(8), nn.GELU()) for _ in range(3)])
        self.head = nn.Sequential(nn.Linear(8, 4), nn.Softmax(dim=-1))

    def forward(self, x):
        for i, b in enumerate(self.blocks):
            x = x + b(x) * (i + 1)
        return self.head(x)


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True), nn.MaxPool2d(2),
            nn.Conv2d(8, 8, 3, padding=1, groups=2, bias=False), nn.Hardswish(), nn.AdaptiveAvgPool2d((2, 2)))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.0), nn.Linear(32, 5))

    def forward(self, x):
        return self.classifier(self.features(x))


def _t(*shape):
    return lambda g: (torch.randn(*shape, generator=g),)


# name -> (constructor, [input makers], eval_only)
MODULES = {
    "Linear": (lambda: nn.Linear(8, 4), [_t(3, 8), _t(2, 5, 8)], False),
    "LinearNoBias": (lambda: nn.Linear(8, 4, bias=False), [_t(3, 8)], False),
    "Bilinear": (lambda: nn.Bilinear(4, 5, 3), [lambda g: (torch.randn(2, 4, generator=g), torch.randn(2, 5, generator=g))], False),
    "Conv1d": (lambda: nn.Conv1d(3, 4, 3, padding=1), [_t(2, 3, 10), _t(1, 3, 7)], False),
    "Conv2d": (lambda: nn.Conv2d(3, 4, 3, stride=2, padding=1), [_t(2, 3, 9, 9), _t(1, 3, 6, 8)], False),
    "Conv2dSame": (lambda: nn.Conv2d(3, 4, (3, 5), padding="same", dilation=(1, 2)), [_t(1, 3, 8, 9)], False),
    "Conv2dReflect": (lambda: nn.Conv2d(3, 4, 3, padding=1, padding_mode="reflect"), [_t(1, 3, 8, 8)], False),
    "Conv2dCircular": (lambda: nn.Conv2d(2, 2, 3, padding=2, padding_mode="circular"), [_t(1, 2, 6, 6)], False),
    "Conv3d": (lambda: nn.Conv3d(2, 3, 3), [_t(1, 2, 5, 5, 5)], False),
    "ConvTranspose2d": (lambda: nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1), [_t(1, 3, 5, 5), _t(2, 3, 4, 6)], False),
    "BatchNorm1d": (lambda: nn.BatchNorm1d(4), [_t(5, 4), _t(3, 4, 6)], False),
    "BatchNorm2d": (lambda: nn.BatchNorm2d(3), [_t(2, 3, 4, 4)], False),
    "BatchNorm2dNoStats": (lambda: nn.BatchNorm2d(3, track_running_stats=False, affine=False), [_t(2, 3, 4, 4)], False),
    "LayerNorm": (lambda: nn.LayerNorm(8), [_t(3, 8), _t(2, 4, 8)], False),
    "LayerNorm2d": (lambda: nn.LayerNorm([4, 8], elementwise_affine=False), [_t(3, 4, 8)], False),
    "GroupNorm": (lambda: nn.GroupNorm(2, 4), [_t(2, 4, 3, 3)], False),
    "InstanceNorm2d": (lambda: nn.InstanceNorm2d(3, affine=True), [_t(2, 3, 4, 4), _t(3, 4, 5)], False),
    "Embedding": (lambda: nn.Embedding(10, 4, padding_idx=0), [lambda g: (torch.randint(0, 10, (2, 3), generator=g),)], False),
    "Dropout": (lambda: nn.Dropout(0.5), [_t(3, 8)], True),
    "Dropout0": (lambda: nn.Dropout(0.0), [_t(3, 8)], False),
    "ReLU": (nn.ReLU, [_t(3, 8)], False),
    "ReLU6": (nn.ReLU6, [_t(3, 8)], False),
    "GELU": (nn.GELU, [_t(3, 8)], False),
    "GELUTanh": (lambda: nn.GELU(approximate="tanh"), [_t(3, 8)], False),
    "SiLU": (nn.SiLU, [_t(3, 8)], False),
    "Mish": (nn.Mish, [_t(3, 8)], False),
    "Hardswish": (nn.Hardswish, [_t(3, 8)], False),
    "Hardsigmoid": (nn.Hardsigmoid, [_t(3, 8)], False),
    "Hardtanh": (lambda: nn.Hardtanh(-0.5, 0.5), [_t(3, 8)], False),
    "LeakyReLU": (lambda: nn.LeakyReLU(0.1), [_t(3, 8)], False),
    "PReLU": (lambda: nn.PReLU(3), [_t(2, 3, 4)], False),
    "ELU": (nn.ELU, [_t(3, 8)], False),
    "SELU": (nn.SELU, [_t(3, 8)], False),
    "Softplus": (lambda: nn.Softplus(beta=2.0), [_t(3, 8)], False),
    "Sigmoid": (nn.Sigmoid, [_t(3, 8)], False),
    "Tanh": (nn.Tanh, [_t(3, 8)], False),
    "Softmax": (lambda: nn.Softmax(dim=1), [_t(3, 8), _t(2, 3, 4)], False),
    "LogSoftmax": (lambda: nn.LogSoftmax(dim=-1), [_t(3, 8)], False),
    "MaxPool2d": (lambda: nn.MaxPool2d(2), [_t(1, 2, 6, 6), _t(2, 3, 7, 5)], False),
    "MaxPool2dCeil": (lambda: nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True), [_t(1, 2, 7, 7)], False),
    "AvgPool2d": (lambda: nn.AvgPool2d(3, stride=2, padding=1), [_t(1, 2, 7, 7)], False),
    "AdaptiveAvgPool2d": (lambda: nn.AdaptiveAvgPool2d((1, 1)), [_t(1, 2, 5, 5), _t(2, 2, 3, 4)], False),
    "AdaptiveAvgPool2dInt": (lambda: nn.AdaptiveAvgPool2d(3), [_t(1, 2, 7, 6)], False),
    "Flatten": (nn.Flatten, [_t(2, 3, 4)], False),
    "Identity": (nn.Identity, [_t(2, 3)], False),
    "Upsample": (lambda: nn.Upsample(scale_factor=2, mode="nearest"), [_t(1, 2, 3, 3)], False),
    "UpsampleBilinear": (lambda: nn.Upsample(size=(5, 7), mode="bilinear", align_corners=False), [_t(1, 2, 3, 3)], False),
    "PixelShuffle": (lambda: nn.PixelShuffle(2), [_t(1, 8, 3, 3)], False),
    "MultiheadAttention": (SelfAttention, [_t(5, 2, 8), _t(3, 1, 8)], False),
    "MultiheadAttentionBatchFirst": (lambda: SelfAttention(batch_first=True, need_weights=False), [_t(2, 5, 8)], False),
    "MultiheadAttentionMasked": (MaskedAttention, [lambda g: (torch.randn(4, 2, 8, generator=g), torch.randn(6, 2, 6, generator=g), torch.randn(6, 2, 5, generator=g))], False),
    "TransformerEncoderLayer": (lambda: nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0), [_t(5, 2, 8)], False),
    "TransformerEncoderLayerNormFirst": (lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=True, batch_first=True, activation="gelu"), [_t(2, 5, 8)], False),
    "TransformerEncoder": (lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2), [_t(5, 2, 8)], False),
    "TransformerEncoderPadded": (PaddedEncoder, [lambda g: (torch.randn(3, 5, 8, generator=g), torch.tensor([5, 3, 4]))],
                                 False),
    "TransformerDecoderLayer": (Decoder, [_t(5, 2, 8)], False),
    "Transformer": (FullTransformer, [_t(5, 2, 8)], False),
    "TransformerCausal": (CausalTransformer, [lambda g: (torch.randn(2, 5, 8, generator=g), torch.randn(2, 4, 8, generator=g))],
                          False),
    "TransformerDropout": (lambda: nn.TransformerEncoderLayer(8, 2, dim_feedforward=16), [_t(5, 2, 8)], True),
    "LSTM": (lambda: Call(nn.LSTM(4, 6, num_layers=2)), [_t(5, 2, 4), _t(3, 4)], False),
    "LSTMBidirectional": (lambda: Call(nn.LSTM(4, 6, batch_first=True, bidirectional=True)), [_t(2, 5, 4)], False),
    "LSTMState": (lambda: CallWithState(nn.LSTM(4, 6), [1, 2, 6], True), [_t(5, 2, 4)], False),
    "GRU": (lambda: Call(nn.GRU(4, 6, batch_first=True)), [_t(2, 5, 4)], False),
    "GRUState": (lambda: CallWithState(nn.GRU(4, 6, num_layers=2), [2, 2, 6], False), [_t(5, 2, 4)], False),
    "RNN": (lambda: Call(nn.RNN(4, 6)), [_t(5, 2, 4)], False),
    "LSTMPacked": (lambda: PackedCall(nn.LSTM(4, 6, batch_first=True, bidirectional=True)),
                   [lambda g: (torch.randn(3, 5, 4, generator=g), torch.tensor([5, 2, 3]))], False),
    "GRUPacked": (lambda: PackedCall(nn.GRU(4, 6, batch_first=True, num_layers=2)),
                  [lambda g: (torch.randn(4, 3, 4, generator=g), torch.tensor([1, 3, 2, 3]))], False),
    "RNNRelu": (lambda: Call(nn.RNN(4, 6, nonlinearity="relu", num_layers=2)), [_t(5, 2, 4)], False),
    "Sequential": (lambda: nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.0), nn.Linear(16, 4)), [_t(3, 8)], False),
    "ModuleListStack": (Stack, [_t(3, 8), _t(2, 3, 8)], False),
    "ConvNet": (ConvNet, [_t(2, 3, 8, 8)], False),
}


# Modules Kindling does not script yet, with the reason seen (strict: a fix makes the test fail until the
# entry is removed).
NOT_YET = {
}


# Modules torch.jit.script 1.13 rejects though eager Python runs them; Kindling's outputs are compared with
# eager's only (and its archive loaded by torch.jit.load). MultiheadAttention with kdim/vdim has
# in_proj_weight = None: torch fails on `self.in_proj_weight.dtype` in the fast-path checks (and, scripting the
# same class again in one process, on the method its failed attempt left behind).
# generate_square_subsequent_mask: torch rejects torch.full((sz, sz), float('-inf'), device=device) there.
TORCH_REJECTS = {"MultiheadAttentionMasked": "'NoneType' object has no attribute or method 'dtype'|Can't redefine method",
                 "TransformerCausal": "Arguments for call are not valid|Can't redefine method"}


def _close(actual, expected):
    assert_same(actual, expected, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("name", list(MODULES))
@pytest.mark.parametrize("mode", ["train", "eval"])
def test_torch_nn_module_matches_torch(name, mode, kindling_only, tmp_path):
    make, input_makers, eval_only = MODULES[name]
    if eval_only and mode == "train":
        pytest.skip("random in train mode: compared in eval mode")
    if name in NOT_YET:
        pytest.xfail(NOT_YET[name])
    torch.manual_seed(0)
    model = make()
    model.train(mode == "train")
    inputs = [mk(torch.Generator().manual_seed(i + 1)) for i, mk in enumerate(input_makers)]
    # BatchNorm in train mode updates its running statistics on every call: each run gets its own copy
    state = {k: v.clone() for k, v in model.state_dict().items()}

    def reset():
        model.load_state_dict(state)

    expected = []
    for args in inputs:
        reset()
        expected.append(model(*args))
    reset()
    if name in TORCH_REJECTS:
        with pytest.raises(RuntimeError, match=TORCH_REJECTS[name]):
            torch.jit.script(model)
        theirs = expected
    else:
        theirs_module = torch.jit.script(model)
        theirs = []
        for args in inputs:
            reset()
            theirs.append(theirs_module(*args))
    reset()
    with kindling_only():
        ours = kindling.jit.script(model)
        outs = []
        for args in inputs:
            reset()
            outs.append(ours(*args))
        path = tmp_path / "m.pt"
        reset()
        ours.save(str(path))
    loaded = torch.jit.load(str(path))
    for args, out, exp, th in zip(inputs, outs, expected, theirs):
        _close(out, exp)
        _close(out, th)
        _close(loaded(*args), exp)
