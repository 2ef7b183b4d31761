# F.cross_entropy and F.nll_loss as PyTorch 1.13 compiles them (torch._C._nn.cross_entropy_loss and
# nll_loss_nd): class indices of any rank, ignore_index, weights, label smoothing, class-probability targets,
# every reduction; and the regression losses the torchvision detection models' training branches call.
import torch
import torch.nn.functional as F
from typing import List


# case: (torch.randn(4, 5), torch.tensor([1, 0, 4, 2]))
# case: (torch.randn(6, 3, dtype=torch.float64), torch.tensor([2, 2, 0, 1, 0, 1]))
def ce_indices(x: torch.Tensor, t: torch.Tensor) -> List[torch.Tensor]:
    return [F.cross_entropy(x, t), F.cross_entropy(x, t, reduction="sum"), F.cross_entropy(x, t, reduction="none"),
            F.cross_entropy(x, t, ignore_index=0), F.cross_entropy(x, t, ignore_index=2, reduction="none")]


# case: (torch.randn(4, 5), torch.tensor([1, 0, 4, 2]), torch.rand(5) + 0.5)
def ce_weighted(x: torch.Tensor, t: torch.Tensor, w: torch.Tensor) -> List[torch.Tensor]:
    return [F.cross_entropy(x, t, weight=w), F.cross_entropy(x, t, w, reduction="sum"),
            F.cross_entropy(x, t, w, ignore_index=4), F.cross_entropy(x, t, w, reduction="none"),
            F.nll_loss(x.log_softmax(1), t, w), F.nll_loss(x.log_softmax(1), t, w, ignore_index=1, reduction="none")]


# case: (torch.randn(4, 5), torch.tensor([1, 0, 4, 2]), torch.rand(5) + 0.5)
def ce_label_smoothing(x: torch.Tensor, t: torch.Tensor, w: torch.Tensor) -> List[torch.Tensor]:
    return [F.cross_entropy(x, t, label_smoothing=0.1), F.cross_entropy(x, t, label_smoothing=0.3, reduction="sum"),
            F.cross_entropy(x, t, label_smoothing=0.2, reduction="none", ignore_index=0),
            F.cross_entropy(x, t, w, label_smoothing=0.1), F.cross_entropy(x, t, w, label_smoothing=0.1, ignore_index=4)]


# case: (torch.randn(3, 4), torch.randn(3, 4).softmax(1), torch.rand(4) + 0.5)
def ce_probabilities(x: torch.Tensor, p: torch.Tensor, w: torch.Tensor) -> List[torch.Tensor]:
    return [F.cross_entropy(x, p), F.cross_entropy(x, p, reduction="none"), F.cross_entropy(x, p, w),
            F.cross_entropy(x, p, label_smoothing=0.2, reduction="sum"), F.cross_entropy(x, p, w, reduction="none")]


# case: (torch.randn(2, 3, 4, 5), torch.randint(0, 3, (2, 4, 5)))
# case: (torch.randn(2, 3, 4), torch.randint(0, 3, (2, 4)))
# case: (torch.randn(2, 3, 2, 2, 3), torch.randint(0, 3, (2, 2, 2, 3)))
def ce_spatial(x: torch.Tensor, t: torch.Tensor) -> List[torch.Tensor]:
    return [F.cross_entropy(x, t), F.cross_entropy(x, t, reduction="none"), F.cross_entropy(x, t, ignore_index=1),
            F.cross_entropy(x, t, label_smoothing=0.1), F.nll_loss(x, t, reduction="sum"),
            F.cross_entropy(x, t, torch.tensor([0.5, 1.0, 2.0]), reduction="none")]


# case: (torch.randn(5), torch.tensor(3))
def ce_unbatched(x: torch.Tensor, t: torch.Tensor) -> List[torch.Tensor]:
    return [F.cross_entropy(x, t), F.cross_entropy(x, t, reduction="none"), F.nll_loss(x, t),
            F.cross_entropy(x, x.softmax(0))]


# case: (torch.randn(3, 4), torch.tensor([0, 1, 2]))
def ce_all_ignored(x: torch.Tensor, t: torch.Tensor) -> List[torch.Tensor]:
    return [F.cross_entropy(x, torch.full_like(t, -100)), F.nll_loss(x, t, ignore_index=5, reduction="sum")]


# case-raises: (torch.randn(3, 4), torch.tensor([0, 4, 2]))
# case-raises: (torch.randn(3, 4), torch.tensor([0, -1, 2]))
def nll_out_of_bounds(x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    return F.nll_loss(x, t)


# case-raises: (torch.randn(3, 4), torch.tensor([0, 1]))
# case-raises: (torch.randn(3, 4), torch.tensor([0, 1, 2]), "avg")
def ce_bad_args(x: torch.Tensor, t: torch.Tensor, reduction: str = "mean") -> torch.Tensor:
    return F.cross_entropy(x, t, reduction=reduction)


# case: (torch.randn(3, 4), torch.randn(3, 4))
# case: (torch.randn(3, 4), torch.randn(4))
def regression_enum(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [F.l1_loss(a, b), F.l1_loss(a, b, reduction="none"), F.mse_loss(a, b, reduction="sum"),
            F.smooth_l1_loss(a, b, beta=1.0 / 9, reduction="sum"), F.smooth_l1_loss(a, b, beta=0.0),
            F.huber_loss(a, b, reduction="none", delta=0.5), F.mse_loss(a, b, reduce=False)]


# case: (torch.randn(4, 3), torch.randint(0, 2, (4, 3)).float(), torch.rand(3))
def bce_enum(x: torch.Tensor, t: torch.Tensor, w: torch.Tensor) -> List[torch.Tensor]:
    p = x.sigmoid()
    return [F.binary_cross_entropy(p, t, w), F.binary_cross_entropy(p, t, reduction="sum"),
            F.binary_cross_entropy_with_logits(x * 30, t, reduction="sum"),
            F.binary_cross_entropy_with_logits(x, t, w, pos_weight=torch.tensor([3.0, 0.5, 1.0]), reduction="none")]


# case-raises: (torch.tensor([0.5, 1.5]), torch.tensor([0.0, 1.0]))
def bce_out_of_range(p: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    return F.binary_cross_entropy(p, t)
