#!/usr/bin/python3
"""The model zoo (issue 5, item 4): real models, random weights with fixed seeds, saved by PyTorch 1.13.

Every entry of ZOO names a model, how to build it (torchvision 0.14, torchaudio 0.13, torch.nn, or a small
module of ours), its input (a tuple of forward's positional arguments), and the variants PyTorch can make:

    scripted    torch.jit.script(m)
    traced      torch.jit.trace(m, args, strict=False)     (not for models PyTorch cannot trace)
    frozen      torch.jit.freeze(torch.jit.script(m))
    optimized   torch.jit.optimize_for_inference(torch.jit.script(m))

For each model, ensure_model(out_dir, name) writes into out_dir/<name>/:

    <variant>.pt                archive written by torch.jit.save
    input.pt                    torch.save(args)
    <variant>_expected.pt       torch.save(out): the output of the *loaded* archive run by PyTorch (grad enabled,
                                its default; traces are recorded under no_grad, so they hold the fast-path ops)
    <variant>.error             instead of the two above when PyTorch itself cannot make the variant
    STAMP                       GENERATOR_VERSION and the spec digest; regenerated only when it differs

Nothing is downloaded (weights=None) and nothing is committed: the test (tests/oracle/test_zoo.py) generates
into build/zoo-fixtures (or $KINDLING_ZOO_FIXTURES) on first use, per model, and reuses what is there.

Run by hand: /usr/bin/python3 tests/oracle/zoo/gen_zoo.py OUT_DIR [name ...]   (no names: the default set)
             /usr/bin/python3 tests/oracle/zoo/gen_zoo.py --list
"""
import os
import sys
import time
import traceback

GENERATOR_VERSION = "3"

CLASSIFICATION_SIZE = 64  # small inputs keep the zoo fast; models with a minimum get theirs (SIZES)
SIZES = {"inception_v3": 75, "maxvit_t": 224, "vit_h_14": 56}
# The default (CI) run covers one or two small models per torchvision family; every other classification
# model (well over ~20 s per test on a shared 2-core machine with generation, or archives of hundreds of MB)
# carries the zoo_slow marker and runs with KINDLING_ZOO=all.
DEFAULT_CLASSIFICATION = {
    "resnet18", "mobilenet_v3_small", "squeezenet1_1", "shufflenet_v2_x0_5", "mnasnet0_5", "efficientnet_b0",
    "regnet_x_400mf", "googlenet", "densenet121", "convnext_tiny", "swin_t",
}

# Models whose float32 result is noisier than the default tolerance, with the measurement that sets theirs.
# fcn_resnet50 (dilated ResNet-50, 96x96): PyTorch's own float32 output differs from the float64 model by 1.1e-4
# (max |out| 1.64), Kindling's by 1.6e-4 (its oneDNN channels-last convolutions round differently from
# PyTorch's blocked-layout ones, same oneDNN 2.6.3); they differ from each other by 2.1e-4.
# resnet101 / resnet152 (64x64): max |logit| 12.2 / 19.8, PyTorch float32 vs float64 1.3e-3 / 4.0e-3, Kindling
# 1.2e-3 / 3.2e-3, Kindling vs PyTorch 1.5e-3 / 6.1e-3 (calibrating on 8 images does not help: 2.7 and 1.7e-3).
TOLERANCES = {"fcn_resnet50": 3e-4, "efficientnet_b4": 3e-4, "resnet101": 3e-4, "resnet152": 5e-4}
# BatchNorm calibration batch (randomize_norms) where 2 images are too few: EfficientNet-B1..B7 end at 2x2, and
# running variances from 8 values per channel leave some channels nearly constant, so eval-mode BN divides by a
# tiny std: efficientnet_b1's logits reach 3441 and PyTorch's own float32 result is off by 8 from float64.
# With 8 images: logits ~22, float32 noise 2e-4. EfficientNet-V2 likewise (v2_s: logits 2.4e4 and float32 noise 1e4
# with 2 images, 38 and 6e-4 with 8). The deeper ones need more (max |logit|, float32-vs-float64 error):
# b4 2118/457 (8 images), 202/0.035 (32), 49/0.0042 (64); b6 653/0.066 (8), 13.5/1.7e-4 (16); b7 3288/2.0 (8),
# 1.15/1.6e-5 (32); v2_l 8097/5470 (8), 16.7/5e-4 (32). b4 stays noisy (relative 1e-4): atol 3e-4 (TOLERANCES).
CALIBRATION_BATCH = {"efficientnet_b1": 8, "efficientnet_b2": 8, "efficientnet_b3": 8, "efficientnet_b4": 64,
                     "efficientnet_b5": 8, "efficientnet_b6": 16, "efficientnet_b7": 32, "efficientnet_v2_s": 8,
                     "efficientnet_v2_m": 8, "efficientnet_v2_l": 32}


class Spec:
    """One zoo model: build() -> eval nn.Module, inputs() -> args tuple, variants, category, slow.
    atol: the comparison's absolute tolerance (times max(1, max|expected|), zoo/compare.py); 1e-4 unless the
    model's own float32 rounding noise (PyTorch float32 vs the same model in float64) is larger: see TOLERANCES."""

    def __init__(self, name, category, build, inputs, variants=("scripted", "traced"), slow=False,
                 calibrate=None, note="", atol=None, gen_rev=""):
        self.name, self.category, self.build, self.inputs = name, category, build, inputs
        self.gen_rev = gen_rev  # part of the fixture STAMP: a change regenerates this model's fixtures
        self.variants, self.slow, self.calibrate, self.note = tuple(variants), slow, calibrate, note
        self.atol = atol if atol is not None else TOLERANCES.get(name, 1e-4)


def _gen(seed):
    import torch
    return torch.Generator().manual_seed(seed)


def _randn(*shape, seed=1234):
    import torch
    return torch.randn(*shape, generator=_gen(seed))


def randomize_norms(module, run_calibration):
    """Non-trivial BatchNorm statistics, so eval-mode BN is really tested (see gen_models._randomize_bn):
    random gamma/beta, then one forward with only the BN layers in train mode and momentum 1 sets every
    running mean/var to the statistics of a calibration batch, keeping activations O(1) as in a trained net."""
    import torch
    bns = [m for m in module.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if not bns or run_calibration is None:
        return
    g = _gen(99)
    with torch.no_grad():
        for m in bns:
            if m.affine:
                m.weight.copy_(torch.rand(m.weight.shape, generator=g) + 0.5)
                m.bias.copy_(torch.rand(m.bias.shape, generator=g) * 0.4 - 0.2)
            m.momentum = 1.0
            m.train()
        run_calibration(module)
        for m in bns:
            m.momentum = 0.1
            m.eval()
    module.eval()


# ----------------------------------------------------------------------------------------------- models

def _tv_classifier(name):
    def build():
        import torchvision
        kw = {}
        if name.startswith("vit_"):
            kw["image_size"] = SIZES.get(name, CLASSIFICATION_SIZE)
        if name == "maxvit_t":
            kw["input_size"] = (224, 224)
        if name in ("googlenet", "inception_v3"):
            kw["aux_logits"] = False
            kw["init_weights"] = True
        return torchvision.models.get_model(name, weights=None, **kw)

    size = SIZES.get(name, CLASSIFICATION_SIZE)

    def inputs():
        return (_randn(1, 3, size, size),)

    batch = CALIBRATION_BATCH.get(name, 2)

    def calib(m):
        m(_randn(batch, 3, size, size, seed=7))

    return Spec(name, "classification", build, inputs, slow=name not in DEFAULT_CLASSIFICATION, calibrate=calib,
                gen_rev="" if batch == 2 else f"calib{batch}")


def _tv_segmentation(name):
    def build():
        import torchvision
        return torchvision.models.segmentation.__dict__[name](weights=None, weights_backbone=None, aux_loss=False)

    def inputs():
        return (_randn(1, 3, 96, 96),)

    def calib(m):
        m(_randn(2, 3, 96, 96, seed=7))

    return Spec(name, "segmentation", build, inputs, slow=(name == "fcn_resnet50"), calibrate=calib)


def _tv_detection(name, **kw):
    def build():
        import torchvision
        return torchvision.models.detection.__dict__[name](weights=None, weights_backbone=None, **kw)

    def inputs():
        return ([_randn(3, 120, 160, seed=1234), _randn(3, 100, 90, seed=1235)],)

    def calib(m):
        m([_randn(3, 120, 160, seed=7), _randn(3, 100, 90, seed=8)])

    # Detection models are scripted only: their forward takes lists of images and returns lists of dicts.
    return Spec(name, "detection", build, inputs, variants=("scripted",), calibrate=calib,
                slow=(name == "retinanet_resnet50_fpn"))


def _r3d():
    def build():
        import torchvision
        return torchvision.models.video.r3d_18(weights=None)

    def calib(m):
        m(_randn(2, 3, 8, 32, 32, seed=7))

    return Spec("r3d_18", "video", build, lambda: (_randn(1, 3, 8, 32, 32),), calibrate=calib)


def _raft():
    def build():
        import torchvision
        return torchvision.models.optical_flow.raft_small(weights=None)

    def calib(m):
        m(_randn(2, 3, 64, 64, seed=7), _randn(2, 3, 64, 64, seed=8), num_flow_updates=2)

    return Spec("raft_small", "optical_flow", build, lambda: (_randn(1, 3, 64, 64), _randn(1, 3, 64, 64, seed=5)),
                calibrate=calib, slow=True)


def _nn_modules():
    import torch
    import torch.nn as nn
    from typing import Optional, Tuple

    specs = []

    def add(name, category, build, inputs, variants=("scripted", "traced"), slow=False):
        specs.append(Spec(name, category, build, inputs, variants=variants, slow=slow))

    # --- transformers and attention
    class EncoderWithMask(nn.Module):
        def __init__(self):
            super().__init__()
            layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, batch_first=True)
            self.enc = nn.TransformerEncoder(layer, num_layers=2)

        def forward(self, x: torch.Tensor, pad: torch.Tensor) -> torch.Tensor:
            return self.enc(x, src_key_padding_mask=pad)

    def pad_mask():
        m = torch.zeros(2, 7, dtype=torch.bool)
        m[1, 5:] = True
        return m

    add("transformer_encoder", "attention",
        lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(32, 4, 64), num_layers=2),
        lambda: (_randn(7, 2, 32),))
    add("transformer_encoder_bf_mask", "attention", EncoderWithMask, lambda: (_randn(2, 7, 32), pad_mask()))

    def short_mask():  # every sequence padded: the traced (nested tensor) output is (3, 5, 32), not (3, 7, 32)
        m = torch.zeros(3, 7, dtype=torch.bool)
        m[0, 5:] = True
        m[1, 3:] = True
        m[2, 1:] = True
        return m

    add("transformer_encoder_bf_short", "attention", EncoderWithMask, lambda: (_randn(3, 7, 32), short_mask()))
    add("transformer_encoder_norm_first", "attention",
        lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(32, 4, 64, batch_first=True, norm_first=True,
                                                                 activation="gelu"), num_layers=2,
                                      norm=nn.LayerNorm(32)),
        lambda: (_randn(2, 7, 32),))

    class Seq2Seq(nn.Module):
        def __init__(self):
            super().__init__()
            self.t = nn.Transformer(d_model=32, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
                                    dim_feedforward=64, batch_first=True)

        def forward(self, src: torch.Tensor, tgt: torch.Tensor) -> torch.Tensor:
            n = tgt.size(1)
            mask = torch.triu(torch.full((n, n), float("-inf")), diagonal=1)
            return self.t(src, tgt, tgt_mask=mask)

    add("transformer", "attention", Seq2Seq, lambda: (_randn(2, 6, 32), _randn(2, 5, 32, seed=5)))

    class SelfAttention(nn.Module):
        def __init__(self):
            super().__init__()
            self.mha = nn.MultiheadAttention(32, 4, batch_first=True)

        def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
            return self.mha(x, x, x)

    class CrossAttention(nn.Module):
        def __init__(self):
            super().__init__()
            self.mha = nn.MultiheadAttention(32, 4)

        def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                    mask: torch.Tensor) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
            return self.mha(q, k, v, key_padding_mask=mask, average_attn_weights=False)

    add("mha_self", "attention", SelfAttention, lambda: (_randn(2, 5, 32),))
    add("mha_cross", "attention", CrossAttention,
        lambda: (_randn(4, 2, 32), _randn(6, 2, 32, seed=5), _randn(6, 2, 32, seed=6), pad_mask()[:, :6]))

    # --- recurrent networks
    class LSTMWrap(nn.Module):
        """Returns (output, (h_n, c_n)) as nn.LSTM does; with or without the initial state."""

        def __init__(self, rnn, with_state: bool):
            super().__init__()
            self.rnn = rnn
            self.with_state = with_state

        def forward(self, x: torch.Tensor, h0: torch.Tensor, c0: torch.Tensor):
            if self.with_state:
                return self.rnn(x, (h0, c0))
            return self.rnn(x)

    class GRUWrap(nn.Module):
        """nn.GRU / nn.RNN: returns (output, h_n); with or without the initial state (c0 unused)."""

        def __init__(self, rnn, with_state: bool):
            super().__init__()
            self.rnn = rnn
            self.with_state = with_state

        def forward(self, x: torch.Tensor, h0: torch.Tensor, c0: torch.Tensor):
            if self.with_state:
                return self.rnn(x, h0)
            return self.rnn(x)

    def RNNWrap(rnn, with_state):
        return LSTMWrap(rnn, with_state) if isinstance(rnn, nn.LSTM) else GRUWrap(rnn, with_state)

    def rnn_case(name, cls, with_state, batch_first=False, bidirectional=False, layers=1, proj=0, **kw):
        T, B, I, H = 5, 3, 8, 6
        D = 2 if bidirectional else 1
        hout = proj if proj else H

        def build():
            extra = {"proj_size": proj} if proj else {}
            return RNNWrap(cls(I, H, num_layers=layers, batch_first=batch_first, bidirectional=bidirectional,
                               **extra, **kw), with_state)

        def inputs():
            x = _randn(B, T, I) if batch_first else _randn(T, B, I)
            return (x, _randn(D * layers, B, hout, seed=5), _randn(D * layers, B, H, seed=6))

        add(name, "rnn", build, inputs, variants=("scripted",))

    rnn_case("lstm", nn.LSTM, False)
    rnn_case("lstm_state_bi_2layer", nn.LSTM, True, bidirectional=True, layers=2)
    rnn_case("lstm_batch_first_bi", nn.LSTM, False, batch_first=True, bidirectional=True)
    rnn_case("lstm_proj", nn.LSTM, True, layers=2, proj=4)
    rnn_case("gru", nn.GRU, False)
    rnn_case("gru_state_bi_2layer_bf", nn.GRU, True, batch_first=True, bidirectional=True, layers=2)
    rnn_case("rnn_tanh_bi", nn.RNN, True, bidirectional=True, layers=2)
    rnn_case("rnn_relu_nobias", nn.RNN, False, nonlinearity="relu", bias=False)

    class Cells(nn.Module):
        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTMCell(8, 6)
            self.gru = nn.GRUCell(8, 6)
            self.rnn = nn.RNNCell(8, 6)

        def forward(self, xs: torch.Tensor, h: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
            hl, cl, hg, hr = h, c, h, h
            outs = []
            for t in range(xs.size(0)):
                hl, cl = self.lstm(xs[t], (hl, cl))
                hg = self.gru(xs[t], hg)
                hr = self.rnn(xs[t], hr)
                outs.append(hl + hg + hr)
            return torch.stack(outs)

    add("rnn_cells", "rnn", Cells, lambda: (_randn(5, 3, 8), _randn(3, 6, seed=5), _randn(3, 6, seed=6)))

    for name, cls, kw in (("lstm_traced", nn.LSTM, {"num_layers": 2, "bidirectional": True}),
                          ("gru_traced", nn.GRU, {"batch_first": True})):
        add(name, "rnn", (lambda cls=cls, kw=kw: cls(8, 6, **kw)), lambda: (_randn(5, 3, 8),), variants=("traced",))

    # --- frozen / optimize_for_inference / fork / traced-in-scripted
    def resnet18():
        import torchvision
        return torchvision.models.resnet18(weights=None)

    def mnv3():
        import torchvision
        return torchvision.models.mobilenet_v3_small(weights=None)

    def calib64(m):
        m(_randn(2, 3, 64, 64, seed=7))

    specs.append(Spec("resnet18_frozen", "frozen", resnet18, lambda: (_randn(1, 3, 64, 64),),
                      variants=("frozen", "optimized"), calibrate=calib64))
    specs.append(Spec("mobilenet_v3_small_frozen", "frozen", mnv3, lambda: (_randn(1, 3, 64, 64),),
                      variants=("frozen", "optimized"), calibrate=calib64))
    add("lstm_frozen", "frozen", lambda: RNNWrap(nn.LSTM(8, 6, num_layers=2), True),
        lambda: (_randn(5, 3, 8), _randn(2, 3, 6, seed=5), _randn(2, 3, 6, seed=6)), variants=("frozen",))
    add("transformer_encoder_frozen", "frozen", EncoderWithMask, lambda: (_randn(2, 7, 32), pad_mask()),
        variants=("frozen", "optimized"))

    class Branch(nn.Module):
        def __init__(self, k):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, k, padding=k // 2)
            self.fc = nn.Linear(8, 4)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.fc(torch.relu(self.conv(x)).mean(dim=(2, 3)))

    class ForkJoin(nn.Module):
        """torch.jit.fork of two submodules and a function, joined with torch.jit.wait."""

        def __init__(self):
            super().__init__()
            self.a = Branch(3)
            self.b = Branch(5)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            fa = torch.jit.fork(self.a, x)
            fb = torch.jit.fork(self.b, x * 2.0)
            fc = torch.jit.fork(torch.sigmoid, x.sum(dim=1))
            ya = torch.jit.wait(fa)
            yb = torch.jit.wait(fb)
            return torch.cat([ya, yb], dim=1) + torch.jit.wait(fc).mean()

    add("fork_wait", "language", ForkJoin, lambda: (_randn(2, 3, 16, 16),), variants=("scripted",))

    class Mixed(nn.Module):
        """A traced CNN inside a scripted module with data-dependent control flow (the seeds' example)."""

        def __init__(self):
            super().__init__()
            self.features = torch.jit.trace(nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Conv2d(8, 4, 3)),
                                            (_randn(1, 3, 12, 12, seed=3),))
            self.head = nn.Linear(4, 3)

        def forward(self, x: torch.Tensor, steps: int) -> torch.Tensor:
            y = self.features(x).mean(dim=(2, 3))
            for _ in range(steps):
                if bool(y.sum() > 0):
                    y = y * 0.5
                else:
                    y = y + 1.0
            return self.head(y)

    add("traced_in_scripted", "language", Mixed, lambda: (_randn(2, 3, 12, 12), 3), variants=("scripted",))
    return specs


def _torchaudio_models():
    def wav2letter():
        import torchaudio
        return torchaudio.models.Wav2Letter(num_classes=20, input_type="waveform", num_features=1)

    def convtasnet():
        import torchaudio
        return torchaudio.models.ConvTasNet(num_sources=2, enc_kernel_size=16, enc_num_feats=32, msk_kernel_size=3,
                                            msk_num_feats=16, msk_num_hidden_feats=32, msk_num_layers=2,
                                            msk_num_stacks=2)

    def wav2vec2():
        import torchaudio
        return torchaudio.models.wav2vec2_model(
            extractor_mode="group_norm", extractor_conv_layer_config=[(16, 10, 5), (16, 3, 2), (16, 2, 2)],
            extractor_conv_bias=False, encoder_embed_dim=32, encoder_projection_dropout=0.0,
            encoder_pos_conv_kernel=16, encoder_pos_conv_groups=4, encoder_num_layers=2, encoder_num_heads=4,
            encoder_attention_dropout=0.0, encoder_ff_interm_features=64, encoder_ff_interm_dropout=0.0,
            encoder_dropout=0.0, encoder_layer_norm_first=False, encoder_layer_drop=0.0, aux_num_out=10)

    def emformer():
        import torchaudio
        return torchaudio.models.Emformer(input_dim=32, num_heads=4, ffn_dim=64, num_layers=2, segment_length=4,
                                          right_context_length=1)

    import torch

    def calib_w2l(m):
        m(_randn(2, 1, 2000, seed=7))

    def calib_tas(m):
        m(_randn(2, 1, 800, seed=7))

    return [
        Spec("wav2letter", "audio", wav2letter, lambda: (_randn(1, 1, 2000),), calibrate=calib_w2l),
        Spec("convtasnet", "audio", convtasnet, lambda: (_randn(1, 1, 800),), calibrate=calib_tas),
        Spec("wav2vec2_small", "audio", wav2vec2, lambda: (_randn(2, 800), torch.tensor([800, 600])),
             variants=("scripted",)),
        Spec("emformer", "audio", emformer, lambda: (_randn(2, 9, 32), torch.tensor([9, 7])),
             variants=("scripted",)),
    ]


def _all_specs():
    import torchvision
    specs = [_tv_classifier(n) for n in torchvision.models.list_models(module=torchvision.models)]
    specs += [_tv_segmentation(n) for n in ("fcn_resnet50", "deeplabv3_mobilenet_v3_large",
                                            "lraspp_mobilenet_v3_large")]
    specs += [_tv_detection("fasterrcnn_mobilenet_v3_large_320_fpn"),
              _tv_detection("retinanet_resnet50_fpn", min_size=160, max_size=200),
              _tv_detection("ssdlite320_mobilenet_v3_large")]
    specs += [_r3d(), _raft()]
    specs += _nn_modules()
    try:
        specs += _torchaudio_models()
    except ImportError:  # python3-torchaudio missing: the test reports these as skipped
        pass
    return specs


_SPECS = None


def zoo():
    """name -> Spec, in a stable order."""
    global _SPECS
    if _SPECS is None:
        _SPECS = {s.name: s for s in _all_specs()}
    return _SPECS


# -------------------------------------------------------------------------------------------- generation

def _make_variant(m, args, variant):
    import torch
    if variant == "scripted":
        return torch.jit.script(m)
    if variant == "traced":
        with torch.no_grad():
            return torch.jit.trace(m, args, check_trace=False, strict=False)
    if variant == "frozen":
        return torch.jit.freeze(torch.jit.script(m))
    if variant == "optimized":
        return torch.jit.optimize_for_inference(torch.jit.script(m))
    raise ValueError(variant)


def plain(v):
    """Outputs as torch.load gives them back from Kindling: namedtuples (GoogLeNetOutputs, ...) as tuples,
    tensors detached."""
    import torch
    if isinstance(v, tuple):
        return tuple(plain(x) for x in v)
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, torch.Tensor):
        return v.detach()
    return v


def _stamp(spec):
    return f"{GENERATOR_VERSION} {','.join(spec.variants)}" + (f" {spec.gen_rev}" if spec.gen_rev else "")


def ensure_model(out_dir, name, verbose=True):
    """Generates out_dir/<name>/ unless its STAMP is current; returns that folder."""
    import torch
    spec = zoo()[name]
    d = os.path.join(out_dir, name)
    stamp_path = os.path.join(d, "STAMP")
    if os.path.exists(stamp_path) and open(stamp_path).read().strip() == _stamp(spec):
        return d
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    t0 = time.time()
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    torch.manual_seed(0)
    m = spec.build().eval()
    randomize_norms(m, spec.calibrate)
    args = spec.inputs()
    torch.save(args, os.path.join(d, "input.pt"))
    for variant in spec.variants:
        path = os.path.join(d, f"{variant}.pt")
        try:
            jm = _make_variant(m, args, variant)
            torch.jit.save(jm, path)
            loaded = torch.jit.load(path)
            loaded.eval()
            # Grad enabled, PyTorch's default and Kindling's (torch.is_grad_enabled() is True in both): the
            # attention modules then take their dense path, not the no-grad nested-tensor fast path.
            y = loaded(*args)
            torch.save(plain(y), os.path.join(d, f"{variant}_expected.pt"))
        except Exception as e:  # PyTorch itself cannot make this variant: recorded, the test skips it
            if os.path.exists(path):
                os.remove(path)
            msg = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
            with open(os.path.join(d, f"{variant}.error"), "w") as f:
                f.write(msg[:400] + "\n")
            if verbose:
                print(f"[gen_zoo] {name} {variant}: PyTorch fails: {msg[:200]}", file=sys.stderr)
                traceback.print_exc(limit=2)
    with open(os.path.join(d, "GEN_SECONDS"), "w") as f:
        f.write(f"{time.time() - t0:.2f}\n")
    with open(stamp_path, "w") as f:
        f.write(_stamp(spec) + "\n")
    if verbose:
        print(f"[gen_zoo] {name}: {time.time() - t0:.1f}s", file=sys.stderr)
    return d


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--list":
        for s in zoo().values():
            print(f"{s.name:40s} {s.category:15s} {','.join(s.variants):25s} {'slow' if s.slow else ''}")
        sys.exit(0)
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    names = sys.argv[2:] or [n for n, s in zoo().items() if not s.slow]
    for n in names:
        ensure_model(sys.argv[1], n)
