#!/usr/bin/python3
"""Oracle fixtures: TorchScript archives saved by PyTorch 1.13, their inputs, and PyTorch's outputs.

For every model of issue 2 (torchvision resnet18, resnet50, mobilenet_v2, squeezenet1_1, plus a small MLP
and a small CNN of our own), this writes, into OUT_DIR:

    <model>_scripted.pt, <model>_traced.pt   archives written by torch.jit.save (script / trace of one module)
    <model>_input.pt                          torch.save((x,)): the positional arguments of forward
    <model>_<mode>_expected.pt                torch.save(y): the output of the *loaded* archive run by PyTorch

All weights are random (fixed seeds, weights=None): nothing is downloaded. The directory gets a STAMP file
holding GENERATOR_VERSION; `ensure_fixtures` regenerates only when the stamp differs, so the slow models
(resnet50) are generated once per build folder. Bump GENERATOR_VERSION when anything here changes.

Run by hand: /usr/bin/python3 tests/oracle/gen_models.py OUT_DIR [model ...]
"""
import os
import sys
import time

GENERATOR_VERSION = "6"

# name -> input shape for forward (batch first).
MODELS = {
    "mlp": (4, 1, 8, 8),
    "cnn": (2, 3, 32, 32),
    "squeezenet1_1": (1, 3, 224, 224),
    "mobilenet_v2": (1, 3, 224, 224),
    "resnet18": (1, 3, 224, 224),
    "resnet50": (1, 3, 224, 224),
}
MODES = ("scripted", "traced")


def _define_small_models():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class MLP(nn.Module):
        """Flatten -> Linear -> ReLU -> Dropout -> Linear -> ReLU -> Linear (batch, 64) -> (batch, 10)."""

        def __init__(self):
            super().__init__()
            self.flatten = nn.Flatten()
            self.fc1 = nn.Linear(64, 32)
            self.drop = nn.Dropout(0.5)
            self.fc2 = nn.Linear(32, 16)
            self.fc3 = nn.Linear(16, 10)

        def forward(self, x):
            x = self.flatten(x)
            x = self.drop(F.relu(self.fc1(x)))
            x = torch.relu(self.fc2(x))
            return self.fc3(x)

    class Branch(nn.Module):
        def __init__(self, cin, cout):
            super().__init__()
            self.conv = nn.Conv2d(cin, cout, kernel_size=3, padding=1, bias=False)
            self.bn = nn.BatchNorm2d(cout)

        def forward(self, x):
            return F.relu(self.bn(self.conv(x)))

    class CNN(nn.Module):
        """Conv/BN/ReLU stem, two branches concatenated, a residual add, max/avg/adaptive pooling, Linear."""

        def __init__(self, num_classes: int = 10):
            super().__init__()
            self.stem = nn.Sequential(
                nn.Conv2d(3, 16, kernel_size=3, stride=1, padding=1),
                nn.BatchNorm2d(16),
                nn.ReLU(inplace=True),
                nn.MaxPool2d(kernel_size=2, stride=2),
            )
            self.left = Branch(16, 8)
            self.right = nn.Sequential(nn.Conv2d(16, 8, kernel_size=1), nn.ReLU())
            self.proj = nn.Conv2d(16, 16, kernel_size=1, bias=False)
            self.pool = nn.AvgPool2d(kernel_size=2, stride=2)
            self.conv2 = nn.Conv2d(16, 32, kernel_size=3, stride=2, padding=1, groups=2)
            self.bn2 = nn.BatchNorm2d(32)
            self.gap = nn.AdaptiveAvgPool2d((1, 1))
            self.fc = nn.Linear(32, num_classes)

        def forward(self, x):
            x = self.stem(x)
            y = torch.cat([self.left(x), self.right(x)], dim=1)
            x = y + self.proj(x)
            x = self.pool(x)
            x = F.relu(self.bn2(self.conv2(x)))
            x = self.gap(x)
            x = torch.flatten(x, 1)
            return self.fc(x)

    return MLP, CNN


def _randomize_bn(module, shape):
    """Give BatchNorm layers non-trivial affine params and running stats, so eval-mode BN is really tested.

    With weights=None, torchvision's BN layers are identities (mean 0, var 1, gamma 1, beta 0) and the
    activations of deep nets drift to ~1e-9 or ~1e3, where atol/rtol say little. So: random gamma/beta, then
    one train-mode forward on a calibration batch with momentum=1 sets every running mean/var to the batch's
    statistics, keeping activations O(1) through the whole net, as in a trained model.
    """
    import torch
    bns = [m for m in module.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    if not bns:
        return
    g = torch.Generator().manual_seed(99)
    with torch.no_grad():
        for m in bns:
            m.weight.copy_(torch.rand(m.weight.shape, generator=g) + 0.5)
            m.bias.copy_(torch.rand(m.bias.shape, generator=g) * 0.4 - 0.2)
            m.momentum = 1.0
        module.train()
        module(torch.randn(max(2, shape[0]), *shape[1:], generator=g))
        for m in bns:
            m.momentum = 0.1
    module.eval()


def build_model(name):
    """The eval-mode nn.Module for `name`, with weights fixed by torch.manual_seed(0)."""
    import torch
    import torchvision
    torch.manual_seed(0)
    if name == "mlp":
        MLP, _ = _define_small_models()
        m = MLP()
    elif name == "cnn":
        _, CNN = _define_small_models()
        m = CNN()
    else:
        m = getattr(torchvision.models, name)(weights=None)
    _randomize_bn(m, MODELS[name])
    return m.eval()


def make_input(name):
    import torch
    g = torch.Generator().manual_seed(1234)
    return torch.randn(*MODELS[name], generator=g)


def generate_one(name, out_dir):
    import torch
    m = build_model(name)
    x = make_input(name)
    torch.save((x,), os.path.join(out_dir, f"{name}_input.pt"))
    for mode in MODES:
        if mode == "scripted":
            jm = torch.jit.script(m)
        else:
            with torch.no_grad():
                jm = torch.jit.trace(m, (x,), check_trace=False)
        path = os.path.join(out_dir, f"{name}_{mode}.pt")
        torch.jit.save(jm, path)
        loaded = torch.jit.load(path)
        loaded.eval()
        with torch.no_grad():
            y = loaded(x)
        torch.save(y, os.path.join(out_dir, f"{name}_{mode}_expected.pt"))


def generate_print_fixtures(out_dir):
    """Tiny scripted Linear models whose outputs print exactly: integer-valued (print_int) and multiples of
    1/8 (print_frac), so `kindling run` without --output can be compared with str(output) character for
    character. Writes print_<kind>.pt, print_<kind>_input.pt, print_<kind>_expected.txt (str of the output)."""
    import torch
    torch.manual_seed(0)
    for kind, scale in (("int", 1.0), ("frac", 0.25)):
        m = torch.nn.Linear(4, 3)
        with torch.no_grad():
            m.weight.copy_(torch.randint(-3, 4, (3, 4)).float() * scale)
            m.bias.copy_(torch.randint(-5, 6, (3,)).float() * scale)
        m.eval()
        x = torch.randint(-4, 5, (2, 4)).float() * (2 * scale)
        path = os.path.join(out_dir, f"print_{kind}.pt")
        torch.jit.save(torch.jit.script(m), path)
        torch.save((x,), os.path.join(out_dir, f"print_{kind}_input.pt"))
        with torch.no_grad():
            y = torch.jit.load(path)(x)
        with open(os.path.join(out_dir, f"print_{kind}_expected.txt"), "w") as f:
            f.write(str(y))


def generate_values_fixture(out_dir):
    """A scripted module returning a tuple of every kind of value `--output` must write in torch.save's
    format (tensor, int, float, bool, str, None, list, dict, nested tuple), exercising list/dict/str
    builtins on the way. Writes values.pt, values_input.pt, values_expected.pt."""
    import torch
    from typing import Dict, List, Optional, Tuple

    class Values(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = 2.5
            self.names = ["a", "b", "c"]

        def forward(self, x: torch.Tensor, k: int) -> Tuple[torch.Tensor, int, float, bool, str, Optional[torch.Tensor],
                                                            List[int], Dict[str, torch.Tensor], Tuple[int, List[float]]]:
            sizes: List[int] = []
            for d in x.shape:
                sizes.append(d * k)
            parts: Dict[str, torch.Tensor] = {}
            for i, name in enumerate(self.names):
                parts[name] = x[i] * float(i + 1)
            total = int(x.numel()) + k
            none_val: Optional[torch.Tensor] = None
            label = "n=" + str(total) + ":" + ",".join(self.names)
            return (x * self.scale, total, self.scale / 4.0, total > 10, label, none_val, sizes, parts,
                    (k // 2, [float(k) / 4.0, -1.5]))

    torch.manual_seed(0)
    m = torch.jit.script(Values().eval())
    path = os.path.join(out_dir, "values.pt")
    torch.jit.save(m, path)
    args = (torch.arange(12, dtype=torch.float32).reshape(3, 4), 7)
    torch.save(args, os.path.join(out_dir, "values_input.pt"))
    torch.save(torch.jit.load(path)(*args), os.path.join(out_dir, "values_expected.pt"))


EXTRA = {"print": generate_print_fixtures, "values": generate_values_fixture}


def ensure_fixtures(out_dir, names=None, verbose=True):
    """Generate fixtures for `names` (default: all) into out_dir unless its STAMP matches GENERATOR_VERSION."""
    names = list(names or (list(MODELS) + list(EXTRA)))
    os.makedirs(out_dir, exist_ok=True)
    stamp_path = os.path.join(out_dir, "STAMP")
    done = set()
    if os.path.exists(stamp_path):
        with open(stamp_path) as f:
            lines = f.read().split()
        if lines and lines[0] == GENERATOR_VERSION:
            done = set(lines[1:])
    else:
        lines = []
    if not lines or lines[0] != GENERATOR_VERSION:
        done = set()
    todo = [n for n in names if n not in done]
    if not todo:
        return out_dir
    import torch
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    for name in todo:
        t0 = time.time()
        if name in EXTRA:
            EXTRA[name](out_dir)
        else:
            generate_one(name, out_dir)
        done.add(name)
        with open(stamp_path, "w") as f:
            f.write(" ".join([GENERATOR_VERSION] + sorted(done)) + "\n")
        if verbose:
            print(f"[gen_models] {name}: {time.time() - t0:.1f}s", file=sys.stderr)
    return out_dir


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    ensure_fixtures(sys.argv[1], sys.argv[2:] or None)
