# F.grid_sample (bilinear / nearest / bicubic × zeros / border / reflection × align_corners, 4-d and 5-d),
# F.affine_grid (2-d and 3-d), F.unfold / F.fold (im2col / col2im), as PyTorch 1.13 compiles them.
import torch
import torch.nn.functional as F
from typing import List


# case: (torch.randn(2, 3, 5, 6), torch.rand(2, 4, 7, 2) * 2.6 - 1.3)
# case: (torch.randn(1, 2, 4, 4, dtype=torch.float64), torch.rand(1, 3, 3, 2, dtype=torch.float64) * 4 - 2)
def grid_sample_modes(x: torch.Tensor, g: torch.Tensor) -> List[torch.Tensor]:
    out: List[torch.Tensor] = []
    for mode in ["bilinear", "nearest", "bicubic"]:
        for pad in ["zeros", "border", "reflection"]:
            out.append(F.grid_sample(x, g, mode=mode, padding_mode=pad, align_corners=False))
            out.append(F.grid_sample(x, g, mode=mode, padding_mode=pad, align_corners=True))
    return out


# case: (torch.randn(2, 3, 4, 5, 6), torch.rand(2, 3, 2, 4, 3) * 2.4 - 1.2)
def grid_sample_3d(x: torch.Tensor, g: torch.Tensor) -> List[torch.Tensor]:
    return [F.grid_sample(x, g, align_corners=False), F.grid_sample(x, g, mode="nearest", align_corners=True),
            F.grid_sample(x, g, padding_mode="border", align_corners=False),
            F.grid_sample(x, g, padding_mode="reflection", align_corners=True)]


# case: (torch.randn(2, 3, 4, 4), torch.rand(2, 3, 3, 2))
# case-raises: (torch.randn(2, 3, 4, 4), torch.rand(1, 3, 3, 2))
# case-raises: (torch.randn(2, 3, 4, 4), torch.rand(2, 3, 3, 3))
def grid_sample_default(x: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    return F.grid_sample(x, g)


# case-raises: (torch.randn(1, 1, 2, 2), torch.rand(1, 1, 1, 2), "linear")
# case-raises: (torch.randn(1, 1, 2, 2), torch.rand(1, 1, 1, 2), "bilinear", "edge")
def grid_sample_bad_mode(x: torch.Tensor, g: torch.Tensor, mode: str, pad: str = "zeros") -> torch.Tensor:
    return F.grid_sample(x, g, mode=mode, padding_mode=pad, align_corners=False)


# case: (torch.randn(2, 2, 3),)
def affine_grid_2d(theta: torch.Tensor) -> List[torch.Tensor]:
    return [F.affine_grid(theta, [2, 3, 4, 5], align_corners=False), F.affine_grid(theta, [2, 1, 3, 1], True),
            F.affine_grid(theta, [2, 3, 1, 6])]


# case: (torch.randn(2, 3, 4, dtype=torch.float64),)
def affine_grid_3d(theta: torch.Tensor) -> List[torch.Tensor]:
    return [F.affine_grid(theta, [2, 1, 3, 4, 2], align_corners=False),
            F.affine_grid(theta, [2, 1, 2, 3, 5], align_corners=True)]


# case: (torch.randn(2, 2, 3),)
def affine_then_sample(theta: torch.Tensor) -> torch.Tensor:
    img = torch.arange(2 * 3 * 5 * 5, dtype=torch.float32).reshape(2, 3, 5, 5)
    grid = F.affine_grid(theta, [2, 3, 4, 4], align_corners=False)
    return F.grid_sample(img, grid, align_corners=False)


# case-raises: (torch.randn(2, 3, 3), [2, 3, 4, 4])
# case-raises: (torch.randn(2, 2, 3), [2, 3])
# case-raises: (torch.randn(2, 2, 3), [2, 3, 0, 4])
def affine_grid_errors(theta: torch.Tensor, size: List[int]) -> torch.Tensor:
    return F.affine_grid(theta, size, align_corners=False)


# case: (torch.randn(2, 3, 6, 5),)
# case: (torch.randn(3, 4, 4, dtype=torch.float64),)
def unfold_fold(x: torch.Tensor) -> List[torch.Tensor]:
    a = F.unfold(x, 2)
    b = F.unfold(x, kernel_size=(2, 3), dilation=(1, 2), padding=1, stride=(2, 1))
    c = F.fold(a, output_size=x.shape[-2:], kernel_size=2)
    d = F.fold(F.unfold(x, 3, padding=1), x.shape[-2:], 3, padding=1)
    return [a, b, c, d]


# case: (torch.arange(2 * 12 * 12, dtype=torch.float32).reshape(2, 12, 12), torch.randn(8, 14))
def fold_overlap(cols: torch.Tensor, cols2: torch.Tensor) -> List[torch.Tensor]:
    return [F.fold(cols, [4, 5], [2, 2], stride=1), F.fold(cols2, [3, 7], 2, dilation=(1, 2), padding=(0, 1))]


# case-raises: (torch.randn(2, 5, 6), [4, 5])
# case-raises: (torch.randn(2, 12, 5), [4, 5])
def fold_bad(cols: torch.Tensor, size: List[int]) -> torch.Tensor:
    return F.fold(cols, size, 2)


# case-raises: (torch.randn(1, 2, 3, 3), 4)
# case-raises: (torch.randn(2, 3), 2)
def unfold_bad(x: torch.Tensor, k: int) -> torch.Tensor:
    return F.unfold(x, k)
