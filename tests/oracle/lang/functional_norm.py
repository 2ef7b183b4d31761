# Normalization functions: F.batch_norm (inference, with and without affine), F.layer_norm,
# F.group_norm, F.instance_norm, F.local_response_norm, and F.dropout in evaluation.
import torch
import torch.nn.functional as F
from typing import List, Optional


# case: (torch.randn(2, 3, 4, 4), torch.randn(3), torch.rand(3) + 0.5, torch.randn(3), torch.randn(3))
def batch_norm_eval(x: torch.Tensor, mean: torch.Tensor, var: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [F.batch_norm(x, mean, var), F.batch_norm(x, mean, var, w, b, False, 0.1, 1e-3)]


# case: (torch.randn(4, 3, 5),)
def batch_norm_training_stats(x: torch.Tensor) -> torch.Tensor:
    return F.batch_norm(x, None, None, training=True)


# case-raises: (torch.randn(1, 3),)
def batch_norm_one_value_per_channel(x: torch.Tensor) -> torch.Tensor:
    return F.batch_norm(x, None, None, training=True)


# case: (torch.randn(2, 3, 8), torch.randn(8), torch.randn(8))
def layer_norm_shapes(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [F.layer_norm(x, [8]), F.layer_norm(x, (8,), w, b), F.layer_norm(x, [3, 8], eps=1e-3)]


# case: (torch.randn(2, 6, 5), torch.randn(6), torch.randn(6))
def group_norm_groups(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [F.group_norm(x, 2), F.group_norm(x, 3, w, b), F.group_norm(x, 6, eps=1e-2)]


# case: (torch.randn(2, 3, 6),)
# case: (torch.randn(2, 4, 3, 3),)
def instance_norm_stats(x: torch.Tensor) -> torch.Tensor:
    return F.instance_norm(x)


# case: (torch.randn(2, 5, 4, 4),)
# case: (torch.randn(2, 5, 7),)
def local_response(x: torch.Tensor) -> torch.Tensor:
    return F.local_response_norm(x, 3)


# case: (torch.randn(4, 4),)
def dropout_eval_identity(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.dropout(x, 0.3, False), F.dropout(x, p=0.9, training=False), F.alpha_dropout(x, 0.2),
            F.dropout2d(x.view(1, 4, 4), 0.5, training=False)]


# case-raises: (torch.randn(3),)
def dropout_bad_p(x: torch.Tensor) -> torch.Tensor:
    return F.dropout(x, 1.5, False)
