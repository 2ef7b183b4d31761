# F.ctc_loss as PyTorch 1.13 compiles it (aten::ctc_loss.Tensor): padded and concatenated targets, every
# reduction, zero_infinity, unbatched input, a non-zero blank index.
import torch
import torch.nn.functional as F
from typing import List


# case: (torch.randn(12, 3, 6).log_softmax(2), torch.tensor([[1, 2, 2, 3], [4, 1, 0, 0], [5, 5, 5, 0]]), torch.tensor([12, 10, 9]), torch.tensor([4, 2, 3]))
# case: (torch.randn(8, 2, 5, dtype=torch.float64).log_softmax(2), torch.tensor([[1, 2], [3, 3]]), torch.tensor([8, 7]), torch.tensor([2, 2]))
def ctc_padded(lp: torch.Tensor, tg: torch.Tensor, il: torch.Tensor, tl: torch.Tensor) -> List[torch.Tensor]:
    return [F.ctc_loss(lp, tg, il, tl), F.ctc_loss(lp, tg, il, tl, reduction="sum"),
            F.ctc_loss(lp, tg, il, tl, reduction="none")]


# case: (torch.randn(10, 2, 5).log_softmax(2), torch.tensor([1, 2, 3, 4, 4]), torch.tensor([10, 8]), torch.tensor([3, 2]))
def ctc_concatenated(lp: torch.Tensor, tg: torch.Tensor, il: torch.Tensor, tl: torch.Tensor) -> List[torch.Tensor]:
    return [F.ctc_loss(lp, tg, il, tl, reduction="none"), F.ctc_loss(lp, tg, il, tl)]


# case: (torch.randn(3, 2, 4).log_softmax(2), torch.tensor([[1, 1, 1], [2, 0, 0]]), torch.tensor([3, 3]), torch.tensor([3, 0]))
def ctc_impossible(lp: torch.Tensor, tg: torch.Tensor, il: torch.Tensor, tl: torch.Tensor) -> List[torch.Tensor]:
    return [F.ctc_loss(lp, tg, il, tl, reduction="none"), F.ctc_loss(lp, tg, il, tl, reduction="none",
                                                                      zero_infinity=True),
            F.ctc_loss(lp, tg, il, tl, zero_infinity=True)]


# case: (torch.randn(9, 6).log_softmax(1), torch.tensor([1, 3, 3]))
def ctc_unbatched_blank(lp: torch.Tensor, tg: torch.Tensor) -> List[torch.Tensor]:
    il = torch.tensor(9)
    tl = torch.tensor(3)
    return [F.ctc_loss(lp, tg, il, tl, blank=5, reduction="none"), F.ctc_loss(lp, tg, il, tl, blank=5)]


# case-raises: (torch.randn(4, 1, 3).log_softmax(2), torch.tensor([[1, 2]]), torch.tensor([5]), torch.tensor([2]))
def ctc_bad_length(lp: torch.Tensor, tg: torch.Tensor, il: torch.Tensor, tl: torch.Tensor) -> torch.Tensor:
    return F.ctc_loss(lp, tg, il, tl)
