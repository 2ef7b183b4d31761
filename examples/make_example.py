#!/usr/bin/python3
"""Regenerates the bundled example that README.md runs: a small image classifier, scripted and saved by
PyTorch, and one input for it.

    /usr/bin/python3 examples/make_example.py      # needs Debian's python3-torch (PyTorch 1.13)

writes examples/tiny_cnn.pt (torch.jit.save of torch.jit.script(TinyCNN()), ~100 KB) and examples/input.pt
(torch.save((x,)), x a 1x3x32x32 float32 image), and prints PyTorch's output for comparison with
`kindling run examples/tiny_cnn.pt --input examples/input.pt`. Weights are random but fixed
(torch.manual_seed(0)); batch-norm statistics are calibrated so the numbers look like a trained model's.
"""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))


class TinyCNN(nn.Module):
    """Two conv/batch-norm/ReLU/max-pool stages and a linear classifier: (N, 3, 32, 32) -> (N, 10) logits."""

    def __init__(self, num_classes: int = 10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, kernel_size=3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, kernel_size=3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(32)
        self.pool = nn.MaxPool2d(2)
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(32 * 8 * 8, num_classes))

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = self.pool(F.relu(self.bn2(self.conv2(x))))
        return self.classifier(x)


def main():
    torch.manual_seed(0)
    model = TinyCNN()
    # Calibrate batch-norm running statistics on random images (one train-mode pass, momentum 1).
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.momentum = 1.0
    model.train()
    with torch.no_grad():
        model(torch.rand(8, 3, 32, 32))
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.momentum = 0.1
    model.eval()

    x = torch.rand(1, 3, 32, 32, generator=torch.Generator().manual_seed(7))
    archive = os.path.join(HERE, "tiny_cnn.pt")
    torch.jit.save(torch.jit.script(model), archive)
    torch.save((x,), os.path.join(HERE, "input.pt"))
    with torch.no_grad():
        y = torch.jit.load(archive)(x)
    print(y)


if __name__ == "__main__":
    main()
