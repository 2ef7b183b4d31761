#!/usr/bin/python3
"""The models of the model benchmark (bench/run_bench.py), built with PyTorch 1.13 at bench time.

Every entry of MODELS names one model: how to build it (torchvision 0.14 with random weights and calibrated
BatchNorm statistics, or a torch.nn module of ours), its input (a tuple of forward's positional arguments,
fixed seeds), and how the TorchScript archive is made (torch.jit.script, or torch.jit.trace for the
straight-line chains). ensure_model(out_dir, name) writes into out_dir/<name>/:

    model.pt        the archive (torch.jit.save), run by `kindling bench` and bench/libtorch_runner
    input.pt        torch.save(args)
    model.onnx      torch.onnx.export(module, args, opset_version=17): what ONNX Runtime runs
    inputs.json     the ONNX inputs for bench/ort_runner.js: [{name, dtype, shape, file}], file = raw bytes
    expected.bin    PyTorch's first output as raw float32 (the runners' outputs are checked against it)
    meta.json       {"gflop": forward FLOPs / 1e9, "category": ...}
    STAMP           GENERATOR_VERSION: regenerated only when it differs

Nothing is downloaded (weights=None) and nothing is committed: the folder lives under build/.

FLOPs (2 x multiply-adds) are counted on the ATen operators an eager forward dispatches: convolutions and
matrix products (mm, bmm, addmm, baddbmm; linear, matmul and the recurrent layers arrive decomposed into
them). Elementwise work is not counted: GFLOP/s says how close the matrix work runs to the machine's peak.

Run by hand: /usr/bin/python3 bench/bench_models.py OUT_DIR [name ...]     (--list: the names)
"""
import json
import os
import pathlib
import sys

GENERATOR_VERSION = "1"
IMAGE = (1, 3, 224, 224)


def _gen(seed):
    import torch
    return torch.Generator().manual_seed(seed)


def _randn(*shape, seed=1234):
    import torch
    return torch.randn(*shape, generator=_gen(seed))


def _calibrate_bn(module, shape):
    """Random affine BatchNorm parameters and running statistics from one train-mode batch (momentum 1), so
    activations stay O(1) through deep random-weight nets as in a trained model (tests/oracle/gen_models.py)."""
    import torch
    bns = [m for m in module.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if not bns:
        return
    g = _gen(99)
    with torch.no_grad():
        for m in bns:
            m.weight.copy_(torch.rand(m.weight.shape, generator=g) + 0.5)
            m.bias.copy_(torch.rand(m.bias.shape, generator=g) * 0.4 - 0.2)
            m.momentum = 1.0
        module.train()
        module(torch.randn(2, *shape[1:], generator=g))
        for m in bns:
            m.momentum = 0.1


def _torchvision(name, **kw):
    def build():
        import torch
        import torchvision
        torch.manual_seed(0)
        m = getattr(torchvision.models, name)(weights=None, **kw)
        _calibrate_bn(m, IMAGE)
        return m

    return build


def _define_modules():
    import math
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class TransformerEncoder(nn.Module):
        """nn.TransformerEncoder: 2 post-norm layers, d_model 256, 4 heads, feed-forward 1024, batch first."""

        def __init__(self):
            super().__init__()
            layer = nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024, batch_first=True)
            self.enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.enc(x)

    class BertLayer(nn.Module):
        def __init__(self, d: int, heads: int, ff: int):
            super().__init__()
            self.heads = heads
            self.head_dim = d // heads
            self.query = nn.Linear(d, d)
            self.key = nn.Linear(d, d)
            self.value = nn.Linear(d, d)
            self.attn_out = nn.Linear(d, d)
            self.attn_norm = nn.LayerNorm(d, eps=1e-12)
            self.intermediate = nn.Linear(d, ff)
            self.output = nn.Linear(ff, d)
            self.out_norm = nn.LayerNorm(d, eps=1e-12)

        def split(self, x: torch.Tensor) -> torch.Tensor:
            b, s = x.size(0), x.size(1)
            return x.view(b, s, self.heads, self.head_dim).permute(0, 2, 1, 3)

        def forward(self, x: torch.Tensor, mask_bias: torch.Tensor) -> torch.Tensor:
            q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
            scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim) + mask_bias
            ctx = torch.matmul(F.softmax(scores, dim=-1), v).permute(0, 2, 1, 3).contiguous()
            ctx = ctx.view(x.size(0), x.size(1), -1)
            x = self.attn_norm(x + self.attn_out(ctx))
            return self.out_norm(x + self.output(F.gelu(self.intermediate(x))))

    class BertLike(nn.Module):
        """A BERT-style encoder as exported from common NLP code: token + position embeddings, LayerNorm, 2
        layers of masked self-attention (separate q/k/v projections, additive mask -10000 where the
        attention mask is 0) and a GELU feed-forward, d 256, 4 heads, feed-forward 1024."""

        def __init__(self, vocab: int = 1000, d: int = 256, layers: int = 2, seq: int = 64):
            super().__init__()
            self.tok = nn.Embedding(vocab, d)
            self.pos = nn.Embedding(seq, d)
            self.norm = nn.LayerNorm(d, eps=1e-12)
            self.layers = nn.ModuleList([BertLayer(d, 4, 4 * d) for _ in range(layers)])

        def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
            positions = torch.arange(ids.size(1), device=ids.device).unsqueeze(0)
            x = self.norm(self.tok(ids) + self.pos(positions))
            bias = (1.0 - mask[:, None, None, :].to(x.dtype)) * -10000.0
            for layer in self.layers:
                x = layer(x, bias)
            return x

    class LanguageModel(nn.Module):
        """Embedding -> 2-layer LSTM or GRU (256) -> Linear to the vocabulary, sequence first."""

        def __init__(self, cell: str, vocab: int = 1000, d: int = 256):
            super().__init__()
            self.emb = nn.Embedding(vocab, d)
            self.rnn = (nn.LSTM if cell == "lstm" else nn.GRU)(d, d, num_layers=2)
            self.head = nn.Linear(d, vocab)

        def forward(self, tokens: torch.Tensor) -> torch.Tensor:
            y, _ = self.rnn(self.emb(tokens))
            return self.head(y)

    class MLP(nn.Module):
        """3 x Linear(64, 64) with ReLU between: per-call overhead on a tiny model."""

        def __init__(self):
            super().__init__()
            self.fc1, self.fc2, self.fc3 = nn.Linear(64, 64), nn.Linear(64, 64), nn.Linear(64, 64)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))

    class AddChain(nn.Module):
        """1000 dependent adds of 4-element tensors: per-operator overhead (traced: straight-line code)."""

        def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
            for _ in range(1000):
                x = x + y
            return x

    return TransformerEncoder, BertLike, LanguageModel, MLP, AddChain


def _module(index, *args):
    def build():
        import torch
        torch.manual_seed(0)
        return _define_modules()[index](*args)

    return build


def _tokens(shape, vocab=1000, seed=4321):
    import torch
    return torch.randint(0, vocab, shape, generator=_gen(seed))


def _bert_inputs():
    import torch
    mask = torch.ones(1, 64, dtype=torch.int64)
    mask[0, 48:] = 0  # the last 16 positions are padding
    return (_tokens((1, 64)), mask)


class Spec:
    """build() -> nn.Module, inputs() -> args tuple, archive: "scripted" or "traced", category, iters: timed
    calls per round (enough that a round is not dominated by process start), input_names for ONNX."""

    def __init__(self, name, category, build, inputs, archive="scripted", iters=20, input_names=("x",)):
        self.name, self.category, self.build, self.inputs = name, category, build, inputs
        self.archive, self.iters, self.input_names = archive, iters, tuple(input_names)


def _specs():
    img = lambda: (_randn(*IMAGE),)  # noqa: E731
    s = [
        Spec("resnet18", "cnn", _torchvision("resnet18"), img),
        Spec("resnet50", "cnn", _torchvision("resnet50"), img, iters=10),
        Spec("mobilenet_v2", "cnn", _torchvision("mobilenet_v2"), img, iters=40),
        Spec("mobilenet_v3_small", "cnn", _torchvision("mobilenet_v3_small"), img, iters=100),
        Spec("squeezenet1_1", "cnn", _torchvision("squeezenet1_1"), img, iters=40),
        Spec("googlenet", "cnn", _torchvision("googlenet", aux_logits=False, init_weights=True), img),
        Spec("efficientnet_b0", "cnn", _torchvision("efficientnet_b0"), img),
        Spec("convnext_tiny", "cnn", _torchvision("convnext_tiny"), img, iters=10),
        Spec("vit_b_16", "transformer", _torchvision("vit_b_16"), img, iters=5),
        Spec("transformer_encoder", "encoder", _module(0), lambda: (_randn(1, 32, 256),), iters=200),
        Spec("bert_like", "encoder", _module(1), _bert_inputs, iters=200, input_names=("ids", "mask")),
        Spec("lstm_lm", "rnn", _module(2, "lstm"), lambda: (_tokens((32, 1)),), iters=200),
        Spec("gru_lm", "rnn", _module(2, "gru"), lambda: (_tokens((32, 1)),), iters=200),
        Spec("mlp3", "overhead", _module(3), lambda: (_randn(1, 64),), iters=5000),
        Spec("add_chain_1000", "overhead", _module(4), lambda: (_randn(4), _randn(4, seed=5)),
             archive="traced", iters=500, input_names=("x", "y")),
    ]
    return {x.name: x for x in s}


MODELS = _specs()


def count_gflop(module, args):
    """Forward FLOPs / 1e9 of the matrix work (see the module docstring), counted on the ATen operators the
    eager forward dispatches (composite ops such as linear, matmul and lstm arrive decomposed into these)."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    def numel(shape):
        n = 1
        for d in shape:
            n *= d
        return n

    aten = torch.ops.aten
    macs = [0]

    class Count(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            packet = func.overloadpacket
            if packet is aten.convolution:
                x, w, transposed = args[0], args[1], args[6]
                # weight (Cout, Cin/groups, k...): each output element sums Cin/groups x k... products;
                # transposed (Cin, Cout/groups, k...): each input element meets Cout/groups x k... outputs
                macs[0] += (x.numel() if transposed else out.numel()) * numel(w.shape[1:])
            elif packet in (aten.mm, aten.bmm):
                macs[0] += out.numel() * args[0].shape[-1]
            elif packet in (aten.addmm, aten.baddbmm):
                macs[0] += out.numel() * args[1].shape[-1]
            return out

    with Count():  # grad enabled: nn.TransformerEncoderLayer takes its composite path, whose products we see
        module(*args)
    return 2 * macs[0] / 1e9


def _onnx_dtype(t):
    import torch
    return {torch.float32: "float32", torch.int64: "int64", torch.int32: "int32", torch.bool: "bool"}[t.dtype]


def ensure_model(out_dir, name, verbose=True):
    """Generates out_dir/<name>/ unless its STAMP is current; returns that folder (a pathlib.Path)."""
    spec = MODELS[name]
    d = pathlib.Path(out_dir) / name
    stamp = d / "STAMP"
    if stamp.exists() and stamp.read_text().strip() == GENERATOR_VERSION:
        return d
    import time
    import torch
    t0 = time.time()
    d.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    m = spec.build().eval()
    args = spec.inputs()
    torch.save(args, d / "input.pt")
    with torch.no_grad():
        if spec.archive == "traced":
            jm = torch.jit.trace(m, args, check_trace=False)
        else:
            jm = torch.jit.script(m)
        torch.jit.save(jm, d / "model.pt")
        expected = m(*args)
    expected.detach().contiguous().float().numpy().tofile(d / "expected.bin")
    # Exported with grad enabled: nn.TransformerEncoderLayer then takes its composite path (linear, softmax,
    # layer_norm), which ONNX has operators for, instead of the fused _transformer_encoder_layer_fwd it has none.
    torch.onnx.export(m, args, str(d / "model.onnx"), opset_version=17, input_names=list(spec.input_names),
                      output_names=["out"], do_constant_folding=True)
    feeds = []
    for i, (iname, a) in enumerate(zip(spec.input_names, args)):
        f = f"input{i}.bin"
        a.contiguous().numpy().tofile(d / f)
        feeds.append({"name": iname, "dtype": _onnx_dtype(a), "shape": list(a.shape), "file": f})
    (d / "inputs.json").write_text(json.dumps(feeds, indent=1) + "\n")
    meta = {"gflop": count_gflop(m, args), "category": spec.category, "iters": spec.iters,
            "expected_shape": list(expected.shape)}
    (d / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    stamp.write_text(GENERATOR_VERSION + "\n")
    if verbose:
        print(f"[bench_models] {name}: {time.time() - t0:.1f}s, {meta['gflop']:.3f} GFLOP", file=sys.stderr)
    return d


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--list":
        print("\n".join(MODELS))
        sys.exit(0)
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    for n in sys.argv[2:] or list(MODELS):
        if n not in MODELS:
            print(f"unknown model '{n}' (--list shows the names)", file=sys.stderr)
            sys.exit(64)
        ensure_model(sys.argv[1], n)
