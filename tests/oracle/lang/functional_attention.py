# F.multi_head_attention_forward (the body nn.MultiheadAttention calls), compiled from source as PyTorch 1.13
# does: packed and separate projections, shared or distinct query/key/value, boolean / float / byte masks,
# key padding masks, bias_k/bias_v, add_zero_attn, averaged or per-head weights, unbatched inputs.
import torch
import torch.nn.functional as F
from typing import List, Optional, Tuple


# case: (torch.randn(4, 2, 8), torch.randn(24, 8), torch.randn(24), torch.randn(8, 8), torch.randn(8))
def mha_self(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, ow: torch.Tensor,
             ob: torch.Tensor) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
    return F.multi_head_attention_forward(x, x, x, 8, 2, w, b, None, None, False, 0.0, ow, ob, training=False)


# case: (torch.randn(4, 2, 8), torch.randn(6, 2, 8), torch.randn(6, 2, 8), torch.randn(24, 8), torch.randn(8, 8))
def mha_cross(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, w: torch.Tensor,
              ow: torch.Tensor) -> List[Optional[torch.Tensor]]:
    a, aw = F.multi_head_attention_forward(q, k, k, 8, 4, w, None, None, None, False, 0.0, ow, None,
                                           training=False, average_attn_weights=False)
    c, cw = F.multi_head_attention_forward(q, k, v, 8, 2, w, torch.zeros(24), None, None, False, 0.0, ow, None,
                                           training=True, need_weights=False)
    return [a, aw, c, cw]


# case: (torch.randn(4, 2, 8), torch.randn(5, 2, 8), torch.randn(24, 8), torch.randn(8, 8))
def mha_masks(q: torch.Tensor, k: torch.Tensor, w: torch.Tensor, ow: torch.Tensor) -> List[Optional[torch.Tensor]]:
    bool_mask = torch.tensor([[False, True, False, False, True]]).expand(4, 5)
    float_mask = torch.sin(torch.arange(20, dtype=torch.float32)).reshape(4, 5)
    kpm = torch.tensor([[False, False, False, True, True], [False, True, False, False, False]])
    r1 = F.multi_head_attention_forward(q, k, k, 8, 2, w, None, None, None, False, 0.0, ow, None, training=False,
                                        attn_mask=bool_mask)
    r2 = F.multi_head_attention_forward(q, k, k, 8, 2, w, None, None, None, False, 0.0, ow, None, training=False,
                                        attn_mask=float_mask, key_padding_mask=kpm)
    r3 = F.multi_head_attention_forward(q, k, k, 8, 2, w, None, None, None, False, 0.0, ow, None, training=False,
                                        attn_mask=bool_mask.to(torch.uint8), key_padding_mask=kpm)
    r4 = F.multi_head_attention_forward(q, k, k, 8, 2, w, None, None, None, False, 0.0, ow, None, training=False,
                                        attn_mask=torch.cos(torch.arange(80, dtype=torch.float32)).reshape(4, 4, 5))
    return [r1[0], r1[1], r2[0], r2[1], r3[0], r4[0]]


# case: (torch.randn(3, 2, 8), torch.randn(8, 8), torch.randn(8, 6), torch.randn(8, 4), torch.randn(5, 2, 6), torch.randn(5, 2, 4))
def mha_separate(q: torch.Tensor, wq: torch.Tensor, wk: torch.Tensor, wv: torch.Tensor, k: torch.Tensor,
                 v: torch.Tensor) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
    bias = torch.linspace(-1.0, 1.0, 24)
    return F.multi_head_attention_forward(q, k, v, 8, 2, None, bias, bias[:8].reshape(1, 1, 8),
                                          bias[8:16].reshape(1, 1, 8), True, 0.0, torch.eye(8), None, training=False,
                                          use_separate_proj_weight=True, q_proj_weight=wq, k_proj_weight=wk,
                                          v_proj_weight=wv, key_padding_mask=torch.zeros(2, 5, dtype=torch.bool))


# case: (torch.randn(4, 8), torch.randn(24, 8), torch.randn(8, 8))
def mha_unbatched(x: torch.Tensor, w: torch.Tensor, ow: torch.Tensor) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
    return F.multi_head_attention_forward(x, x, x, 8, 2, w, None, None, None, True, 0.0, ow, None, training=False,
                                          key_padding_mask=torch.tensor([False, False, True, False]))


# case-raises: (torch.randn(4, 2, 8), torch.randn(24, 8), torch.randn(8, 8))
def mha_bad_mask(x: torch.Tensor, w: torch.Tensor, ow: torch.Tensor) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
    return F.multi_head_attention_forward(x, x, x, 8, 2, w, None, None, None, False, 0.0, ow, None, training=False,
                                          attn_mask=torch.zeros(3, 4, dtype=torch.bool))
