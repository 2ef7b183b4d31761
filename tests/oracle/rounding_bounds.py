"""Float tolerances derived from the computation, for results that two correct implementations round
differently.

oneDNN, OpenBLAS and vectorized reductions (in PyTorch and in Kindling alike) choose their summation order,
blocking and FMA use per CPU (AVX2 on AMD EPYC, AVX-512/AMX on Intel Xeon), so a sum of products is only
reproducible to within its rounding error, never to the bit. The bound used here is the classical one
(Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., section 3.1): a sum of n terms, each a
product of at most p factors, evaluated in any order with or without fused multiply-adds, differs from the
exact value by at most

    gamma(n + p - 1) * sum_k |term_k|,     gamma(m) = m*u / (1 - m*u),   u = unit roundoff of the dtype

(u = 2^-24 for float32, 2^-53 for float64), plus at most one smallest normal number per operation where
intermediate values underflow. Two implementations that each obey it differ by at most twice that.
sum_k |term_k| is the same computation applied to the absolute values of its inputs, in float64.
"""
import torch


def unit_roundoff(dtype):
    """u = eps / 2 of a floating dtype (2^-24 for float32, 2^-53 for float64)."""
    return torch.finfo(dtype).eps / 2


def gamma(m, dtype):
    """gamma(m) = m*u / (1 - m*u): the relative error bound of m floating-point operations in sequence."""
    mu = m * unit_roundoff(dtype)
    if mu >= 1:
        raise ValueError(f"gamma({m}) undefined for {dtype}: too many operations for the bound")
    return mu / (1 - mu)


def sum_of_products_bound(abs_sum, n_terms, dtype, factors=2):
    """Largest difference between two correct evaluations of a sum of products.

    abs_sum: sum_k |term_k| per output element (a float64 tensor or a number), e.g. the same op applied to
    the inputs' absolute values in float64. n_terms: number of terms per output element (a tensor or a
    number; an upper bound is fine). factors: most factors in one term (2 for a dot product or a
    convolution, 1 for a plain sum). dtype: the dtype the result was computed in.
    Returns 2 * (gamma(n + factors - 1) * abs_sum + n * finfo.tiny), elementwise.
    """
    n = torch.as_tensor(n_terms, dtype=torch.float64)
    m = n + (factors - 1)
    mu = m * unit_roundoff(dtype)
    if bool((mu >= 1).any()):
        raise ValueError(f"too many terms ({int(n.max())}) for a {dtype} rounding bound")
    g = mu / (1 - mu)
    return 2 * (g * torch.as_tensor(abs_sum, dtype=torch.float64) + n * torch.finfo(dtype).tiny)


def within_bound(got, want, bound):
    """True when |got - want| <= bound elementwise (compared in float64); NaN matches NaN and an infinity
    matches the same infinity."""
    g, w = got.double(), want.double()
    same = (g == w) | (g.isnan() & w.isnan())
    return bool((same | ((g - w).abs() <= bound)).all())
