"""LSTM / GRU / RNN modules over torch.nn.utils.rnn.pack_padded_sequence / pad_packed_sequence, scripted and
traced with PyTorch 1.13, run by `kindling run` and compared with PyTorch (atol 1e-5): exercises
aten::_pack_padded_sequence, aten::_pad_packed_sequence and the packed (.data) overloads of lstm / gru /
rnn_tanh, with enforce_sorted True and False, batch_first, several layers and bidirectional."""
import pytest

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from conftest import assert_no_crash


class PackedRnn(nn.Module):
    def __init__(self, kind: str, batch_first: bool, enforce_sorted: bool, layers: int, bidirectional: bool):
        super().__init__()
        cls = {"lstm": nn.LSTM, "gru": nn.GRU, "rnn": nn.RNN}[kind]
        self.rnn = cls(3, 5, num_layers=layers, batch_first=batch_first, bidirectional=bidirectional)
        self.batch_first = batch_first
        self.enforce_sorted = enforce_sorted

    def forward(self, x: torch.Tensor, lengths: torch.Tensor):
        packed = pack_padded_sequence(x, lengths, batch_first=self.batch_first, enforce_sorted=self.enforce_sorted)
        out, _ = self.rnn(packed)
        padded, lens = pad_packed_sequence(out, batch_first=self.batch_first, padding_value=0.5)
        return padded, lens


def _inputs(batch_first: bool, enforce_sorted: bool):
    lengths = torch.tensor([6, 4, 4, 1]) if enforce_sorted else torch.tensor([4, 6, 1, 3])
    x = torch.randn(4, 6, 3) if batch_first else torch.randn(6, 4, 3)
    return x, lengths


CASES = [
    ("lstm", True, False, 1, False),
    ("lstm", False, True, 2, False),
    ("lstm", True, True, 1, True),
    ("gru", True, False, 2, True),
    ("gru", False, False, 1, False),
    ("rnn", False, True, 1, False),
]


@pytest.mark.parametrize("mode", ["script", "trace"])
@pytest.mark.parametrize("kind,batch_first,enforce_sorted,layers,bidirectional", CASES)
def test_packed_rnn(run_kindling, tmp_path, mode, kind, batch_first, enforce_sorted, layers, bidirectional):
    torch.manual_seed(0)
    module = PackedRnn(kind, batch_first, enforce_sorted, layers, bidirectional).eval()
    args = _inputs(batch_first, enforce_sorted)
    if mode == "script":
        saved = torch.jit.script(module)
    else:
        saved = torch.jit.trace(module, args)
    archive = tmp_path / "packed.pt"
    saved.save(str(archive))
    inp, out = tmp_path / "in.pt", tmp_path / "out.pt"
    # Fresh inputs of the same shapes: a traced graph must not have baked in the example's values.
    torch.manual_seed(1)
    args = _inputs(batch_first, enforce_sorted)
    torch.save(args, str(inp))
    res = run_kindling("run", archive, "--input", inp, "--output", out)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    got = torch.load(str(out))
    with torch.no_grad():
        want = module(*args)
    assert isinstance(got, tuple) and len(got) == 2
    assert got[0].shape == want[0].shape and got[0].dtype == want[0].dtype
    torch.testing.assert_close(got[0], want[0], atol=1e-5, rtol=1e-5)
    assert torch.equal(got[1], want[1]) and got[1].dtype == torch.int64
