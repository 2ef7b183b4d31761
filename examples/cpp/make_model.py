#!/usr/bin/python3
"""Regenerates examples/cpp/tiny_classifier.pt, the model classify.cpp runs: a small image classifier
(three conv/batch-norm/ReLU stages, global average pooling, a linear layer: (N, 3, H, W) -> (N, 20)
logits; any image size) with fixed random weights (torch.manual_seed(0)), scripted and saved by
PyTorch 1.13 with its class names as the extra file labels.txt.

    /usr/bin/python3 examples/cpp/make_model.py
"""
import os

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
LABELS = ["tench", "goldfish", "shark", "ray", "cock", "hen", "ostrich", "finch", "junco", "bunting",
          "robin", "bulbul", "jay", "magpie", "chickadee", "dipper", "kite", "eagle", "vulture", "owl"]


def stage(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


class TinyClassifier(nn.Module):
    def __init__(self, num_classes: int = len(LABELS)):
        super().__init__()
        self.features = nn.Sequential(stage(3, 16), stage(16, 32), stage(32, 64))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(64, num_classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.features(x)), 1))


def main():
    torch.manual_seed(0)
    model = TinyClassifier()
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 1.5)
    model.eval()
    torch.jit.save(torch.jit.script(model), os.path.join(HERE, "tiny_classifier.pt"),
                   _extra_files={"labels.txt": "\n".join(LABELS) + "\n"})


if __name__ == "__main__":
    main()
