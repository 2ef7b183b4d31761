# torch.nn.functional beyond activations: F.linear, F.conv2d, F.pad, F.interpolate (every mode and
# both size and scale_factor), F.embedding (padding_idx), F.one_hot, F.pixel_shuffle, F.cosine_similarity.
import torch
import torch.nn.functional as F
from typing import List, Optional, Tuple


# case: (torch.randn(3, 4), torch.randn(5, 4), torch.randn(5))
def linear_bias(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return F.linear(x, w, b), F.linear(x, w)


# case: (torch.randn(1, 2, 5, 5), torch.randn(4, 2, 3, 3), torch.randn(4))
def conv2d_forms(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [F.conv2d(x, w), F.conv2d(x, w, b, stride=2, padding=1), F.conv2d(x, w, b, padding="same")]


# case: (torch.randn(1, 2, 3, 4),)
def pad_modes(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.pad(x, (1, 2)), F.pad(x, [1, 1, 2, 0], value=3.5), F.pad(x, (2, 1, 1, 2), mode="reflect"),
            F.pad(x, (1, 1, 1, 1), mode="replicate"), F.pad(x, (1, 2, 2, 1), mode="circular")]


# case: (torch.randn(1, 2, 4, 5),)
def interpolate_nearest(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.interpolate(x, scale_factor=2.0), F.interpolate(x, size=(3, 7)), F.interpolate(x, size=6),
            F.interpolate(x, scale_factor=(1.5, 0.5))]


# case: (torch.randn(1, 2, 4, 5),)
def interpolate_bilinear(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.interpolate(x, scale_factor=2.0, mode="bilinear"),
            F.interpolate(x, size=(7, 3), mode="bilinear", align_corners=True),
            F.interpolate(x, size=(8, 10), mode="bilinear", align_corners=False)]


# case: (torch.randn(2, 3, 6),)
def interpolate_1d(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.interpolate(x, scale_factor=2.0), F.interpolate(x, size=4, mode="linear"),
            F.interpolate(x, size=9, mode="linear", align_corners=True), F.interpolate(x, size=3, mode="area")]


# case-raises: (torch.randn(1, 2, 4, 4),)
def interpolate_both(x: torch.Tensor) -> torch.Tensor:
    return F.interpolate(x, size=3, scale_factor=2.0)


# case: (torch.tensor([[0, 2, 1], [3, 3, 0]]), torch.randn(4, 3))
def embedding_lookup(idx: torch.Tensor, w: torch.Tensor) -> List[torch.Tensor]:
    return [F.embedding(idx, w), F.embedding(idx, w, padding_idx=0), F.embedding(idx, w, -1)]


# case: (torch.tensor([0, 2, 1, 3]),)
def one_hot_classes(t: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return F.one_hot(t), F.one_hot(t, num_classes=6)


# case: (torch.randn(3, 5), torch.randn(3, 5))
def similarity(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [F.cosine_similarity(a, b), F.cosine_similarity(a, b, dim=0), F.pairwise_distance(a, b)]
