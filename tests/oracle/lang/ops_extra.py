# aten kernels beyond the core families: torch.where(cond) and nonzero_numpy, torch.meshgrid (both
# overloads, "ij"/"xy", 0-d inputs, errors), unsafe_chunk / unsafe_split / unsafe_split_with_sizes.
import torch
import torch.nn.functional as F
from typing import List, Optional, Tuple


# case: (torch.tensor([[1, 0, 2], [0, 0, 3]]),)
# case: (torch.tensor(True),)
# case: (torch.tensor(0.0),)
# case: (torch.zeros(2, 0, 3),)
# case: (torch.tensor([[[True, False], [False, True]], [[True, True], [False, False]]]),)
def where_condition(c: torch.Tensor) -> List[torch.Tensor]:
    return torch.where(c)


# case: (torch.randn(3, 4),)
def where_condition_index(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    rows, cols = torch.where(x > 0)
    return x[rows, cols], rows * 10 + cols


# case: (torch.tensor([[0.5, 0.0], [0.0, -1.0]]),)
def nonzero_numpy_method(x: torch.Tensor) -> List[torch.Tensor]:
    return x.nonzero_numpy()


# case: (torch.arange(3), torch.arange(4) * 2)
# case: (torch.tensor(2.5), torch.randn(3))
def meshgrid_varargs(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return torch.meshgrid(a, b)


# case: (torch.arange(2.0), torch.arange(3.0), torch.arange(4.0))
# case: (torch.tensor([1, 2]), torch.tensor([3]), torch.tensor(7))
def meshgrid_indexing(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> Tuple[List[torch.Tensor], List[torch.Tensor], List[torch.Tensor]]:
    return (torch.meshgrid([a, b, c], indexing="ij"), torch.meshgrid(a, b, c, indexing="xy"),
            torch.meshgrid([a], indexing="xy"))


# case: ([torch.linspace(-1.0, 1.0, 5), torch.linspace(0.0, 2.0, 3)],)
def meshgrid_list(ts: List[torch.Tensor]) -> torch.Tensor:
    ys, xs = torch.meshgrid(ts, indexing="ij")
    return torch.stack([xs, ys], dim=-1) + 0.5


# case-raises: ([],)
# case-raises: ([torch.zeros(2, 2)],)
# case-raises: ([torch.zeros(2), torch.zeros(3, dtype=torch.int64)],)
def meshgrid_errors(ts: List[torch.Tensor]) -> List[torch.Tensor]:
    return torch.meshgrid(ts, indexing="ij")


# case-raises: (torch.zeros(2), "ji")
def meshgrid_bad_indexing(x: torch.Tensor, indexing: str) -> List[torch.Tensor]:
    return torch.meshgrid([x, x], indexing=indexing)


# case: (torch.randn(4, 7),)
# case: (torch.randn(5, 0),)
def unsafe_chunk_split(x: torch.Tensor) -> Tuple[List[torch.Tensor], List[torch.Tensor], List[torch.Tensor], List[torch.Tensor]]:
    return (x.unsafe_chunk(3, 1), torch.unsafe_chunk(x, 2), x.unsafe_split(2, dim=0),
            torch.unsafe_split(x, 3, -1))


# case: (torch.randn(6, 3),)
def unsafe_split_sizes(x: torch.Tensor) -> List[torch.Tensor]:
    return torch.unsafe_split_with_sizes(x, [1, 2, 3]) + x.unsafe_split_with_sizes([2, 1], dim=1)


# case-raises: (torch.randn(6, 3),)
def unsafe_split_sizes_bad(x: torch.Tensor) -> List[torch.Tensor]:
    return x.unsafe_split_with_sizes([2, 2])


# case: (torch.randn(3, 8), torch.randn(3, 2))
def lstm_gates_unsafe_chunk(gates: torch.Tensor, c: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    i, f, g, o = gates.unsafe_chunk(4, 1)
    c2 = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return c2, torch.sigmoid(o) * torch.tanh(c2)


# F.interpolate(..., antialias=True): aten::_upsample_bilinear2d_aa / _upsample_bicubic2d_aa (.vec), PIL-style
# separable filters; downscale, upscale, mixed, align_corners both, scale_factor and size.
# case: (torch.randn(2, 3, 17, 23),)
# case: (torch.rand(1, 1, 64, 48) * 255.0,)
# case: (torch.randn(1, 2, 5, 4, dtype=torch.float64),)
def interpolate_antialias_bilinear(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.interpolate(x, size=(7, 5), mode="bilinear", antialias=True),
            F.interpolate(x, size=(7, 5), mode="bilinear", align_corners=True, antialias=True),
            F.interpolate(x, size=(40, 3), mode="bilinear", antialias=True),
            F.interpolate(x, size=(40, 31), mode="bilinear", align_corners=True, antialias=True),
            F.interpolate(x, scale_factor=0.3, mode="bilinear", antialias=True),
            F.interpolate(x, scale_factor=(2.5, 0.45), mode="bilinear", antialias=True),
            F.interpolate(x, size=(1, 1), mode="bilinear", align_corners=True, antialias=True),
            F.interpolate(x, size=(x.size(2), 2), mode="bilinear", antialias=True)]


# case: (torch.randn(2, 3, 17, 23),)
# case: (torch.rand(1, 1, 64, 48) * 255.0,)
# case: (torch.randn(1, 2, 5, 4, dtype=torch.float64),)
def interpolate_antialias_bicubic(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.interpolate(x, size=(7, 5), mode="bicubic", antialias=True),
            F.interpolate(x, size=(7, 5), mode="bicubic", align_corners=True, antialias=True),
            F.interpolate(x, size=(40, 3), mode="bicubic", antialias=True),
            F.interpolate(x, size=(40, 31), mode="bicubic", align_corners=True, antialias=True),
            F.interpolate(x, scale_factor=0.3, mode="bicubic", antialias=True),
            F.interpolate(x, scale_factor=(2.5, 0.45), mode="bicubic", recompute_scale_factor=True, antialias=True),
            F.interpolate(x, size=(1, 2), mode="bicubic", antialias=True)]


# case-raises: (torch.ones(1, 1, 4, 4, dtype=torch.int64),)
# case-raises: (torch.ones(1, 0, 4, 4),)
# case-raises: (torch.ones(4, 4, 4),)
def interpolate_antialias_errors(x: torch.Tensor) -> torch.Tensor:
    return F.interpolate(x, size=(2, 2), mode="bilinear", antialias=True)


# case-raises: (torch.ones(1, 1, 4, 4),)
def interpolate_antialias_nearest(x: torch.Tensor) -> torch.Tensor:
    return F.interpolate(x, size=(2, 2), mode="nearest", antialias=True)


# torch.logspace (aten::logspace, default float32 even for int bounds; integral dtypes through a float base)
# case: (2.0, 5)
# case: (-1.5, 1)
# case: (3.0, 0)
def logspace_values(end: float, steps: int) -> List[torch.Tensor]:
    return [torch.logspace(0.0, end, steps), torch.logspace(0, 3, steps, dtype=torch.float64),
            torch.logspace(1, 10, steps, base=2.0, dtype=torch.int32), torch.logspace(0, 3, steps, dtype=torch.int64),
            torch.logspace(end, 2.0 * end, steps, base=3.0), torch.logspace(-2, 2, steps, base=0.5, dtype=torch.float64)]


# case-raises: (-1,)
def logspace_negative(steps: int) -> torch.Tensor:
    return torch.logspace(0.0, 1.0, steps)


# out= overloads (what 1.13's upgraders call): div.out/out_mode/Scalar_out/Scalar_mode_out, full.out,
# linspace.out, logspace.out; out is resized and returned, its dtype kept.
# case: (torch.tensor([7, -7, 9, 4]), torch.tensor([2, 2, -4, 3]))
def div_out_variants(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    o1 = torch.zeros(4)
    o2 = torch.zeros(1, dtype=torch.int32)
    o3 = torch.zeros(4, dtype=torch.float64)
    o4 = torch.zeros(0, dtype=torch.int64)
    r1 = torch.div(a, b, out=o1)
    r2 = torch.div(a, b, rounding_mode="floor", out=o2)
    r3 = torch.div(a, 3, out=o3)
    r4 = torch.div(a, -2, rounding_mode="trunc", out=o4)
    r5 = torch.div(a.double(), b, rounding_mode=None, out=torch.zeros(2, 4))
    return [r1, o1, r2, o2, r3, o3, r4, o4, r5]


# case-raises: (torch.tensor([7, -7]), torch.tensor([2, 2]))
def div_out_bad_dtype(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.div(a, b, out=torch.zeros(2, dtype=torch.int64))


# case-raises: (torch.ones(5),)
def div_out_overlap(x: torch.Tensor) -> torch.Tensor:
    return torch.div(x[:4], x[:4], out=x[1:])


# div.Scalar_out is a generated out kernel in 1.13: no overlap or cast checks.
# case: (torch.tensor([7, -7, 9]),)
def div_scalar_out_casts(x: torch.Tensor) -> List[torch.Tensor]:
    o = torch.zeros(1, dtype=torch.int64)
    y = torch.arange(5.0)
    torch.div(y[:4], 2.0, out=y[1:])
    return [torch.div(x, 2, out=o), o, y, torch.div(x, 2, rounding_mode=None, out=torch.zeros(3, dtype=torch.int32))]


# case: (5, 2.5)
def full_out_variants(n: int, f: float) -> List[torch.Tensor]:
    o1 = torch.zeros(2, dtype=torch.int64)
    o2 = torch.zeros(3, 3)
    o3 = torch.zeros(4, dtype=torch.bool)
    torch.full([3], n, out=o1)
    r2 = torch.full([2, 2], f, out=o2)
    torch.full([1, 2], n, out=o3)
    return [o1, o2, r2, o3, torch.full([2], f, out=torch.zeros(2, dtype=torch.int32))]


# case-raises: (300,)
def full_out_overflow(n: int) -> torch.Tensor:
    return torch.full([2], n, out=torch.zeros(2, dtype=torch.uint8))


# case: (2.0,)
# case: (-3.0,)
def linspace_logspace_out(x: float) -> List[torch.Tensor]:
    o1 = torch.zeros(0)
    o2 = torch.zeros(2, 2)
    o3 = torch.zeros(0, dtype=torch.int64)
    o4 = torch.zeros(7, dtype=torch.float64)
    torch.linspace(0.0, x, 5, out=o1)
    torch.linspace(0, 3.0 * x, 4, out=o2)
    torch.linspace(-1, 7, 5, out=o3)
    torch.linspace(2.7, x, 1, out=o4)
    o5 = torch.zeros(0, dtype=torch.float64)
    o6 = torch.zeros(3, dtype=torch.int64)
    torch.logspace(0.0, x, 5, out=o5)
    torch.logspace(0, 3, 4, base=2.0, out=o6)
    return [o1, o2, o3, o4, o5, o6, torch.logspace(x, 1.0, 3, out=torch.zeros(3))]


# In-place variants: fmod_, x >>= n / x <<= n (__irshift__/__ilshift__), a << b / a >> b (__lshift__/__rshift__),
# __ixor__, bitwise_*_, and the `_` forms of binary/unary math whose functional form exists.
# case: (torch.tensor([7, -7, 9, 4, -1]), torch.tensor([2, 3, -4, 3, 5]))
def inplace_integer(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    c1 = a.clone()
    c1.fmod_(3)
    c2 = a.clone()
    c2.fmod_(b)
    c3 = a.clone()
    c3 >>= 1
    c4 = a.clone()
    c4 <<= 2
    c5 = a.clone()
    c5.__irshift__(b.abs())
    c6 = a.clone()
    c6.__ilshift__(b.abs())
    c7 = a.clone()
    c7.__ixor__(b)
    c8 = a.clone()
    c8.__ixor__(5)
    c9 = a.clone()
    c9.bitwise_and_(6).bitwise_or_(8).bitwise_xor_(3).bitwise_xor_(b)
    c10 = a.clone()
    c10.bitwise_left_shift_(2).bitwise_right_shift_(b.abs())
    c11 = a.clone()
    c11.gcd_(b)
    c12 = a.clone()
    c12.lcm_(b)
    return [c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, a << 3, a >> b.abs(), a << b.abs(), a >> 1,
            a.int() << 2, a.to(torch.uint8) >> 1]


# case: (torch.tensor([[1.5, -2.25, 3.0], [0.5, -0.1, 7.0]]), torch.tensor([[2.0, 1.5, -4.0], [0.3, 0.2, 2.0]]))
def inplace_float(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    outs: List[torch.Tensor] = []
    outs.append(a.clone().fmod_(1.25))
    outs.append(a.clone().fmod_(b))
    outs.append(a.clone().atan2_(b))
    outs.append(a.clone().hypot_(b))
    outs.append(a.clone().copysign_(b))
    outs.append(a.clone().copysign_(-1.0))
    outs.append(a.clone().heaviside_(b))
    outs.append(a.clone().nextafter_(b))
    outs.append(a.clone().xlogy_(b.abs()))
    outs.append(a.clone().xlogy_(2.0))
    outs.append(a.clone().lerp_(b, 0.3))
    outs.append(a.clone().lerp_(b, b.abs() / 8.0))
    outs.append(a.clone().addcmul_(a, b, value=0.5))
    outs.append(a.clone().addcdiv_(a, b, value=2))
    outs.append(a.clone().clamp_min_(b))
    outs.append(a.clone().clamp_max_(b))
    outs.append(a.clone().absolute_())
    outs.append(a.clone().negative_())
    outs.append(a.clone().deg2rad_())
    outs.append(a.clone().rad2deg_())
    outs.append((a / 8.0).erfinv_())
    outs.append(a.clone().frac_())
    outs.append((a.abs() / 8.0).logit_())
    outs.append((a.abs() / 8.0).logit_(0.1))
    outs.append(torch.log(a).nan_to_num_(0.5, 10.0, -10.0))
    outs.append(a.clone().sgn_())
    outs.append(a.clone().sinc_())
    outs.append(a.clone().square_())
    outs.append(a.clone().round_(decimals=1))
    outs.append(a.clone().tril_())
    outs.append(a.clone().triu_(1))
    outs.append(a.clone().cumsum_(1))
    outs.append(a.clone().cumprod_(0))
    outs.append(a.clone().true_divide_(b))
    outs.append(a.clone().true_divide_(4))
    outs.append(a.clone().ldexp_(torch.tensor([1, 2, -1])))
    outs.append(a.double().float_power_(2))
    outs.append(a.double().float_power_(b))
    return outs


# case: (torch.randn(2, 3, 4), torch.randn(2, 3, 5), torch.randn(2, 5, 4))
def inplace_baddbmm(x: torch.Tensor, b1: torch.Tensor, b2: torch.Tensor) -> torch.Tensor:
    return x.clone().baddbmm_(b1, b2, beta=0.5, alpha=2.0)


# case-raises: (torch.tensor([1, 2, 3]),)
def inplace_cast_error(a: torch.Tensor) -> torch.Tensor:
    return a.fmod_(2.5)


# case-raises: (torch.tensor([1.0, 2.0, 3.0]),)
def inplace_float_power_float(a: torch.Tensor) -> torch.Tensor:
    return a.float_power_(2)


# case-raises: (torch.tensor([1.0, 2.0]), torch.ones(3, 2))
def inplace_broadcast_error(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a.fmod_(b)


# case-raises: (torch.tensor([1, 2]),)
def inplace_expanded_error(a: torch.Tensor) -> torch.Tensor:
    x = a.expand(3, 2)
    x.__ixor__(1)
    return x


# case-raises: (torch.tensor([1.5, 2.0]),)
def shift_float_error(a: torch.Tensor) -> torch.Tensor:
    return a << 1


# torch.searchsorted / torch.bucketize: 1-d and row-wise boundaries, side/right, sorter, out_int32, Scalar
# values, mixed dtypes (compared promoted), NaN values.
# case: (torch.tensor([1, 3, 5, 7, 9]), torch.tensor([[3, 6, 9], [0, 10, 5]]))
# case: (torch.tensor([1.0, 2.5, 2.5, 4.0]), torch.tensor([2.5, float("nan"), -1.0, 4.0]))
def searchsorted_forms(bd: torch.Tensor, v: torch.Tensor) -> List[torch.Tensor]:
    return [torch.searchsorted(bd, v), torch.searchsorted(bd, v, right=True), torch.searchsorted(bd, v, side="right"),
            torch.searchsorted(bd, v, out_int32=True), torch.searchsorted(bd, v.double() + 0.5),
            torch.searchsorted(bd, 3), torch.searchsorted(bd, 4.5, side="left"),
            torch.bucketize(v, bd), torch.bucketize(v, bd, right=True, out_int32=True), torch.bucketize(5, bd)]


# case: (torch.tensor([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]), torch.tensor([[3.0, 0.0], [6.5, 4.0]]))
def searchsorted_rows(bd: torch.Tensor, v: torch.Tensor) -> List[torch.Tensor]:
    unsorted = torch.tensor([5.0, 1.0, 3.0])
    return [torch.searchsorted(bd, v), torch.searchsorted(bd, v, right=True),
            torch.searchsorted(unsorted, torch.tensor([2.0, 4.0, 6.0]), sorter=torch.tensor([1, 2, 0]))]


# case-raises: (torch.tensor([[1.0, 3.0]]), torch.tensor([[3.0], [2.0]]))
# case-raises: (torch.tensor(1.0), torch.tensor([3.0]))
def searchsorted_shape_error(bd: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return torch.searchsorted(bd, v)


# case-raises: ("rite",)
def searchsorted_side_error(side: str) -> torch.Tensor:
    return torch.searchsorted(torch.tensor([1, 2]), torch.tensor([1]), side=side)


# case-raises: (torch.tensor([[1, 3]]),)
def bucketize_2d_error(bd: torch.Tensor) -> torch.Tensor:
    return torch.bucketize(torch.tensor([1, 2]), bd)


# torch.histc / torch.bincount
# case: (torch.tensor([1.0, 2.0, 1.0, 4.0, 2.5, -3.0, float("nan")]),)
# case: (torch.tensor([2.0, 2.0]),)
# case: (torch.randn(1000, dtype=torch.float64),)
def histc_forms(x: torch.Tensor) -> List[torch.Tensor]:
    return [torch.histc(x, bins=4, min=0.0, max=4.0), torch.histc(x[~torch.isnan(x)], bins=7),
            torch.histc(x, bins=3, min=-1, max=1), x[~torch.isnan(x)].histc(10, 2, 2), torch.histc(torch.zeros(0), bins=3),
            torch.histc(x[~torch.isnan(x)].float(), bins=15), torch.histc(x[~torch.isnan(x)], bins=30)]


# case-raises: (torch.tensor([1, 2]),)
# case-raises: (torch.tensor([1.0, float("inf")]),)
def histc_errors(x: torch.Tensor) -> torch.Tensor:
    return torch.histc(x, bins=3)


# case: (torch.tensor([1, 3, 1, 0, 7]), torch.tensor([0.5, 1.0, 2.0, 0.25, 3.0]))
def bincount_forms(x: torch.Tensor, w: torch.Tensor) -> List[torch.Tensor]:
    return [torch.bincount(x), x.bincount(minlength=10), torch.bincount(x, w), torch.bincount(x, w.double()),
            torch.bincount(x, x), torch.bincount(x.to(torch.uint8)), torch.bincount(torch.zeros(0, dtype=torch.int64), minlength=3)]


# case-raises: (torch.tensor([-1, 3]),)
# case-raises: (torch.tensor([1.0, 3.0]),)
# case-raises: (torch.tensor([[1, 3]]),)
def bincount_errors(x: torch.Tensor) -> torch.Tensor:
    return torch.bincount(x)


# torch.diff (n, dim, prepend/append, bool)
# case: (torch.tensor([[1.0, 3.0, 6.0, 10.0], [2.0, -1.0, 0.5, 4.0]]),)
def diff_forms(x: torch.Tensor) -> List[torch.Tensor]:
    return [torch.diff(x), torch.diff(x, dim=0), torch.diff(x, n=2), torch.diff(x, n=0), torch.diff(x, n=7),
            torch.diff(x, prepend=torch.zeros(2, 1)), torch.diff(x, dim=0, append=x[:1]),
            torch.diff(x > 2.0), torch.diff(x.long(), 1, -1, x[:, :2].long(), x[:, :1].long())]


# case-raises: (torch.tensor(1.0),)
# case-raises: (torch.ones(2, 3),)
def diff_errors(x: torch.Tensor) -> torch.Tensor:
    return torch.diff(x, append=torch.ones(3, 3))


# torch.take_along_dim, index_fill(_), masked_scatter(_)
# case: (torch.tensor([[10, 30, 20], [60, 40, 50]]),)
def take_along_dim_forms(x: torch.Tensor) -> List[torch.Tensor]:
    idx = torch.argsort(x, dim=1)
    return [torch.take_along_dim(x, idx, dim=1), torch.take_along_dim(x, torch.tensor([[0], [2]]), 1),
            torch.take_along_dim(x, torch.tensor([5, 0, 3])), torch.take_along_dim(x, torch.tensor([[1, 0, 1]]), dim=0),
            x.take_along_dim(torch.tensor([[0], [1]]), -1), torch.take_along_dim(x.float(), idx[:, :1].expand(2, 4), dim=1)]


# case-raises: (torch.tensor([[1, 2]]), torch.tensor([[0]], dtype=torch.int32))
# case-raises: (torch.tensor([[1, 2]]), torch.tensor([0]))
def take_along_dim_errors(x: torch.Tensor, i: torch.Tensor) -> torch.Tensor:
    return torch.take_along_dim(x, i, dim=1)


# case: (torch.arange(12.0).view(3, 4),)
def index_fill_forms(x: torch.Tensor) -> List[torch.Tensor]:
    y = x.clone()
    y.index_fill_(0, torch.tensor([0, -1]), -2.5)
    z = x.long()
    z.index_fill_(1, torch.tensor([1]), torch.tensor(9))
    return [x.index_fill(1, torch.tensor([0, 2]), 7), x.index_fill(0, torch.tensor(1), torch.tensor(-1.0)), y, z,
            torch.index_fill(x, -1, torch.tensor([3]), 2), torch.tensor(5.0).index_fill(0, torch.tensor([0]), 1)]


# case-raises: (torch.zeros(2, 2), torch.tensor([2]))
# case-raises: (torch.zeros(2, 2), torch.tensor([0], dtype=torch.int32))
def index_fill_errors(x: torch.Tensor, i: torch.Tensor) -> torch.Tensor:
    return x.index_fill(1, i, 1.0)


# case: (torch.zeros(2, 3), torch.tensor([[True, False, True], [False, True, True]]))
def masked_scatter_forms(x: torch.Tensor, m: torch.Tensor) -> List[torch.Tensor]:
    src = torch.arange(1.0, 7.0)
    y = x.clone()
    y.masked_scatter_(m, src)
    t = torch.zeros(3, 2).t()
    t.masked_scatter_(m, src)
    return [x.masked_scatter(m, src), y, t, torch.zeros(3).masked_scatter(m, src),
            x.long().masked_scatter(m[0], torch.arange(10, 20)), torch.masked_scatter(x, m, src.view(2, 3))]


# case-raises: (torch.zeros(2, 3), torch.tensor([True, True, True]), torch.arange(2.0))
# case-raises: (torch.zeros(2, 3), torch.tensor([True, True, True]), torch.arange(6))
def masked_scatter_errors(x: torch.Tensor, m: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    return x.masked_scatter(m, src)


# Operator aliases (PyTorch's NormalizeOps map): torch.divide/multiply/subtract, arc* trigonometry, fix,
# clip with tensor bounds, comparison names, moveaxis, special.*, in-place forms.
# case: (torch.tensor([[0.5, -0.25, 0.9], [0.1, 0.7, -0.6]]), torch.tensor([[2.0, 1.5, -4.0], [0.3, 0.2, 2.0]]))
def aliases(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    c = a.clone()
    c.divide_(b)
    c.multiply_(2)
    c.subtract_(b, alpha=2)
    d = a.clone()
    d.arccos_()
    e = a.clone()
    e.fix_()
    f = a.clone()
    f.clip_(b - 1.0, b)
    g = a.clone()
    g.greater_(0.2)
    h = a.clone()
    h.swapaxes_(0, 1)
    return [torch.divide(a, b), torch.divide(a, b, rounding_mode="floor"), torch.multiply(a, 3), torch.subtract(a, b),
            torch.arccos(a), torch.arcsin(a), torch.arctan(a), torch.arctan2(a, b), torch.arcsinh(a), torch.arctanh(a),
            torch.arccosh(b.abs() + 1.0), torch.fix(b), torch.clip(a, b - 1.0, b), torch.greater(a, b), torch.less(a, 0.1),
            torch.greater_equal(a, b), torch.less_equal(a, b), torch.not_equal(a, a), torch.moveaxis(a, 0, 1),
            torch.special.expit(a), torch.special.erf(a), torch.special.exp2(a), torch.special.logsumexp(a, [1]),
            torch.row_stack([a, b]), torch.ger(a[0], b[0]), torch.linalg.matmul(a, b.t()), c, d, e, f, g, h]


# x.mT / x.mH / x.T / x.H / x.adjoint() (aten::mT, mH, numpy_T, matrix_H, adjoint)
# case: (torch.randn(2, 3, 4), torch.randn(3, 5))
def matrix_transposes(x: torch.Tensor, m: torch.Tensor) -> List[torch.Tensor]:
    return [x.mT, x.mH, x.adjoint(), x.T, m.T, m.H, m.mT.contiguous() + 1.0, torch.tensor(2.0).H,
            torch.tensor(3.0).mT, torch.tensor(3.0).mH, torch.tensor(3.0).adjoint()]


# case-raises: (torch.randn(3),)
def matrix_transpose_error(v: torch.Tensor) -> torch.Tensor:
    return v.mT


# case-raises: (torch.randn(2, 2, 2),)
def matrix_h_error(v: torch.Tensor) -> torch.Tensor:
    return v.H


# torch.quantile / torch.nanquantile: every interpolation mode, dim/keepdim, tensor and float q, NaN rows.
# case: (torch.tensor([[0.5, -1.0, 3.0, 2.0], [float("nan"), 1.0, 4.0, -2.0], [7.0, 7.0, 1.0, 0.0]]),)
# case: (torch.randn(5, 6, dtype=torch.float64),)
def quantile_forms(x: torch.Tensor) -> List[torch.Tensor]:
    q = torch.tensor([0.0, 0.25, 0.5, 0.9, 1.0], dtype=x.dtype)
    outs: List[torch.Tensor] = []
    for mode in ["linear", "lower", "higher", "midpoint", "nearest"]:
        outs.append(torch.quantile(x, q, dim=1, interpolation=mode))
        outs.append(torch.nanquantile(x, 0.3, dim=0, keepdim=True, interpolation=mode))
        outs.append(torch.nanquantile(x, q, interpolation=mode))
    outs.append(torch.quantile(x, 0.5))
    outs.append(x.quantile(q, 0, True))
    outs.append(torch.nanquantile(torch.full([2, 3], float("nan"), dtype=x.dtype), 0.5, dim=1))
    outs.append(torch.quantile(torch.tensor(3.0, dtype=x.dtype), q[:2], dim=0, keepdim=True))
    return outs


# case-raises: (torch.ones(3), 1.5)
# case-raises: (torch.zeros(0), 0.5)
def quantile_errors(x: torch.Tensor, q: float) -> torch.Tensor:
    return torch.quantile(x, q)


# case-raises: (torch.ones(3),)
def quantile_bad_mode(x: torch.Tensor) -> torch.Tensor:
    return torch.quantile(x, 0.5, interpolation="foo")
