# Loss functions of torch.nn.functional with every reduction ('mean', 'sum', 'none') and the legacy
# size_average/reduce flags.
import torch
import torch.nn.functional as F
from typing import List


# case: (torch.randn(3, 4), torch.randn(3, 4))
def regression_losses(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [F.mse_loss(a, b), F.l1_loss(a, b, reduction="sum"), F.smooth_l1_loss(a, b, reduction="none"),
            F.smooth_l1_loss(a, b, beta=0.5), F.huber_loss(a, b, delta=0.3), F.mse_loss(a, b, size_average=False)]


# case: (torch.rand(4, 3) * 0.9 + 0.05, torch.randint(0, 2, (4, 3)).float())
def bce(p: torch.Tensor, t: torch.Tensor) -> List[torch.Tensor]:
    return [F.binary_cross_entropy(p, t), F.binary_cross_entropy(p, t, reduction="none"),
            F.binary_cross_entropy_with_logits(p * 4 - 2, t),
            F.binary_cross_entropy_with_logits(p, t, pos_weight=torch.tensor([1.0, 2.0, 0.5]))]


# case: (torch.randn(3, 5).log_softmax(1), torch.randn(3, 5).softmax(1))
def kl(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [F.kl_div(a, b, reduction="batchmean"), F.kl_div(a, b, reduction="sum"),
            F.kl_div(a, b.log(), reduction="none", log_target=True)]


# case: (torch.randn(4), torch.randn(4), torch.tensor([1.0, -1.0, 1.0, -1.0]))
def margin_losses(a: torch.Tensor, b: torch.Tensor, y: torch.Tensor) -> List[torch.Tensor]:
    return [F.margin_ranking_loss(a, b, y), F.margin_ranking_loss(a, b, y, margin=0.5, reduction="none"),
            F.hinge_embedding_loss(a, y), F.soft_margin_loss(a, y)]


# case: (torch.randn(4, 3), torch.rand(4, 3) * 3)
def poisson_nll(x: torch.Tensor, y: torch.Tensor) -> List[torch.Tensor]:
    return [F.poisson_nll_loss(x, y), F.poisson_nll_loss(x.exp(), y, log_input=False, reduction="none"),
            F.poisson_nll_loss(x, y, full=True, reduction="sum"), F.poisson_nll_loss(x, y, size_average=False)]


# case: (torch.randn(4, 5), torch.randn(4, 5), torch.tensor([1, -1, 1, -1]))
def cosine_embedding(a: torch.Tensor, b: torch.Tensor, y: torch.Tensor) -> List[torch.Tensor]:
    return [F.cosine_embedding_loss(a, b, y), F.cosine_embedding_loss(a, b, y, margin=-0.2, reduction="none"),
            F.cosine_embedding_loss(a[0], b[0], y[1], margin=0.1), F.cosine_embedding_loss(a, b, y, reduction="sum")]


# case-raises: (torch.randn(4, 5), torch.randn(4, 5), torch.ones(4, 1))
def cosine_embedding_bad(a: torch.Tensor, b: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.cosine_embedding_loss(a, b, y)


# case: (torch.randn(3, 4), torch.randn(3, 4), torch.rand(3, 4) + 0.1)
def gaussian_nll(x: torch.Tensor, y: torch.Tensor, v: torch.Tensor) -> List[torch.Tensor]:
    return [F.gaussian_nll_loss(x, y, v), F.gaussian_nll_loss(x, y, v[:, 0], full=True, reduction="sum"),
            F.gaussian_nll_loss(x, y, v, reduction="none")]


# case: (torch.randn(3, 4).log_softmax(1), torch.randn(3, 4).softmax(1))
def kl_div_more(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [F.kl_div(a, b), F.kl_div(a, b, reduction="none"), F.kl_div(a[0], b[0], reduction="batchmean"),
            F.kl_div(a, b.log(), reduction="sum", log_target=True), F.kl_div(a, b, reduce=False)]


# case: (torch.randn(5), torch.randn(5), torch.tensor([1.0, -1.0, 1.0, 1.0, -1.0]))
def ranking_hinge_soft(a: torch.Tensor, b: torch.Tensor, y: torch.Tensor) -> List[torch.Tensor]:
    return [F.margin_ranking_loss(a, b, y, reduction="sum"), F.hinge_embedding_loss(a, y, margin=0.5, reduction="none"),
            F.hinge_embedding_loss(a, y, reduce=False), F.soft_margin_loss(a, y, reduction="none"),
            F.soft_margin_loss(a, y, size_average=False)]
