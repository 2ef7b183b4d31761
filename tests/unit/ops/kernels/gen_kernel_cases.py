#!/usr/bin/python3
"""Writes kernel test cases (inputs and PyTorch 1.13's outputs) for tests/unit/ops/*_test.cpp.

Run by the unit tests themselves (`/usr/bin/python3 gen_kernel_cases.py OUT`); the oracle is PyTorch, called
through torch.ops.aten.<name>.<overload> so the exact overload Kindling registers is what gets checked.

Text format, one record per line:
  case <family> <aten qualified name> <case name>
  a tensor <dtype int> <layout: c|cl|t> <ndim> <sizes...> <values...>
  a int V | a float V | a bool 0/1 | a none | a str S | a ints N V... | a floats N V...
  a tensors N            (followed by N argument lines: tensor or none)
  e tensor <dtype int> <ndim> <sizes...> <values...>     expected result(s), in order
  e tensors N            (a list result; followed by N `e tensor` lines)
  e int V | e float V | e bool V
  x <message>            the call must raise with exactly this message (first line)
  end
Layouts: c = contiguous, cl = channels_last copy, t = the transpose of a contiguous tensor of the
transposed shape (a non-contiguous view with the listed sizes).
"""
import sys

import torch
import torch.nn.functional as F

DTYPE_CODE = {torch.uint8: 0, torch.int8: 1, torch.int16: 2, torch.int32: 3, torch.int64: 4, torch.float16: 5,
              torch.float32: 6, torch.float64: 7, torch.bool: 11, torch.bfloat16: 15}

G = torch.Generator().manual_seed(1234)


def rnd(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=G, dtype=torch.float64).to(dtype)


def rint(*shape, lo=-5, hi=6, dtype=torch.int64):
    return torch.randint(lo, hi, shape, generator=G).to(dtype)


class L:
    """A tensor argument with a layout tag."""

    def __init__(self, t, layout):
        self.t, self.layout = t, layout


def apply_layout(v):
    if isinstance(v, L):
        if v.layout == 'cl':
            return v.t.contiguous(memory_format=torch.channels_last)
        if v.layout == 't':
            return v.t.transpose(-1, -2).contiguous().transpose(-1, -2)
        return v.t
    if isinstance(v, list):
        return [apply_layout(x) for x in v]
    return v


def fmt_num(x):
    if isinstance(x, bool):
        return '1' if x else '0'
    if isinstance(x, int):
        return str(x)
    return repr(float(x))


def fmt_tensor(t, layout=None):
    t = t.detach()
    vals = t.reshape(-1).tolist()
    if t.dtype == torch.bool:
        vs = ['1' if v else '0' for v in vals]
    elif t.dtype.is_floating_point:
        vs = [repr(float(v)) for v in vals]
    else:
        vs = [str(int(v)) for v in vals]
    head = [str(DTYPE_CODE[t.dtype])]
    if layout is not None:
        head.append(layout)
    head += [str(t.dim())] + [str(s) for s in t.shape]
    return ' '.join(head + vs)


def fmt_arg(v):
    if isinstance(v, L):
        return ['a tensor ' + fmt_tensor(v.t, v.layout)]
    if isinstance(v, torch.Tensor):
        return ['a tensor ' + fmt_tensor(v, 'c')]
    if v is None:
        return ['a none']
    if isinstance(v, bool):
        return ['a bool ' + fmt_num(v)]
    if isinstance(v, int):
        return ['a int ' + str(v)]
    if isinstance(v, float):
        return ['a float ' + repr(v)]
    if isinstance(v, str):
        return ['a str ' + v]
    if isinstance(v, torch.dtype):
        return ['a int ' + str(DTYPE_CODE[v])]
    if isinstance(v, (list, tuple)):
        if all(isinstance(x, bool) for x in v) and v:
            raise ValueError('bool lists unsupported')
        if all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            return ['a ints %d %s' % (len(v), ' '.join(str(x) for x in v))]
        if all(isinstance(x, (L, torch.Tensor)) or x is None for x in v):
            out = ['a tensors %d' % len(v)]
            for x in v:
                out += fmt_arg(x)
            return out
        return ['a floats %d %s' % (len(v), ' '.join(repr(float(x)) for x in v))]
    raise ValueError('unsupported arg %r' % (v,))


def fmt_result(r):
    if isinstance(r, torch.Tensor):
        return ['e tensor ' + fmt_tensor(r)]
    if isinstance(r, tuple):
        out = []
        for x in r:
            out += fmt_result(x)
        return out
    if isinstance(r, list):
        out = ['e tensors %d' % len(r)]
        for x in r:
            out += fmt_result(x)
        return out
    if isinstance(r, bool):
        return ['e bool ' + fmt_num(r)]
    if isinstance(r, int):
        return ['e int %d' % r]
    if isinstance(r, float):
        return ['e float ' + repr(r)]
    raise ValueError('unsupported result %r' % (r,))


def resolve(qual):
    name, _, ov = qual.partition('.')
    return getattr(getattr(torch.ops.aten, name), ov or 'default')


OUT = []
COUNT = {}


def case(family, qual, *args, name=None):
    op = resolve(qual)
    schema = op._schema
    assert len(args) == len(schema.arguments), '%s: %d args given, schema has %d' % (qual, len(args), len(schema.arguments))
    real = [apply_layout(a) for a in args]
    pos, kw = [], {}
    for a, v in zip(schema.arguments, real):
        if a.kwarg_only:
            kw[a.name] = v
        else:
            pos.append(v)
    COUNT[family] = COUNT.get(family, 0) + 1
    lines = ['case %s %s %s' % (family, qual, name or '%s_%d' % (qual, COUNT[family]))]
    for a in args:
        lines += fmt_arg(a)
    try:
        r = op(*pos, **kw)
        lines += fmt_result(r)
    except Exception as e:  # noqa: BLE001 - the oracle's error is the expectation
        lines.append('x ' + str(e).split('\n')[0])
    lines.append('end')
    OUT.extend(lines)


# ----------------------------------------------------------------------------------------------- elementwise
E = 'elementwise'
case(E, 'add.Tensor', rnd(2, 3), rnd(3), 1)
case(E, 'add.Tensor', rnd(2, 3), rnd(2, 3), 2.5, name='add_alpha_float')
case(E, 'add.Tensor', rint(2, 3), rnd(2, 3), 1, name='add_int_float_promotes')
case(E, 'add.Tensor', rint(4, dtype=torch.uint8, lo=0, hi=200), torch.tensor(300), 1, name='add_uint8_zerodim_long')
case(E, 'add.Tensor', rnd(4), torch.tensor(0.1, dtype=torch.float64), 1, name='add_float_zerodim_double')
case(E, 'add.Tensor', rint(4, dtype=torch.int32), rint(4), 1, name='add_int32_int64')
case(E, 'add.Tensor', torch.tensor([True, False, True]), torch.tensor([True, False, False]), 1, name='add_bool')
case(E, 'add.Tensor', L(rnd(3, 4), 't'), rnd(3, 4), 1, name='add_transposed')
case(E, 'add.Tensor', L(rnd(2, 3, 4, 5), 'cl'), L(rnd(2, 3, 4, 5), 'cl'), 1, name='add_channels_last')
case(E, 'add.Tensor', L(rnd(2, 3, 4, 5), 'cl'), rnd(3, 1, 1), 1, name='add_channels_last_bcast')
case(E, 'add.Tensor', rnd(2, 3), rnd(4), 1, name='add_bad_broadcast')
case(E, 'add.Tensor', rint(3), rint(3), 1.5, name='add_int_float_alpha')
case(E, 'add.Tensor', rnd(200, 300), rnd(300), 1, name='add_large_parallel')
case(E, 'add.Scalar', rint(2, 3), 2.5, 1, name='add_int_tensor_float_scalar')
case(E, 'add.Scalar', rint(2, 3), 2, 3, name='add_scalar_alpha')
case(E, 'add.Scalar', rnd(2, 3, dtype=torch.float64), 1, 1, name='add_double_int_scalar')
case(E, 'add_.Tensor', rnd(2, 3), rnd(3), 1, name='add_inplace_bcast')
case(E, 'add_.Tensor', rnd(3), rnd(2, 3), 1, name='add_inplace_bad_shape')
case(E, 'add_.Scalar', rint(3), 1, 1, name='add_inplace_scalar_int')
case(E, 'add_.Scalar', rint(3), 1.5, 1, name='add_inplace_int_float_error')
case(E, 'add_.Tensor', L(rnd(2, 3, 4, 5), 'cl'), rnd(2, 3, 4, 5), 1, name='add_inplace_channels_last')
case(E, 'sub.Tensor', rnd(2, 3), rnd(2, 1), 2, name='sub_alpha')
case(E, 'sub.Tensor', torch.tensor([True]), torch.tensor([False]), 1, name='sub_bool_error')
case(E, 'sub.Scalar', rint(3), 1, 1)
case(E, 'sub_.Tensor', rnd(3), rnd(3), 1)
case(E, 'rsub.Scalar', rint(3), 3, 1, name='rsub_scalar')
case(E, 'rsub.Tensor', rnd(3), rnd(3), 2, name='rsub_tensor')
case(E, 'mul.Tensor', rnd(2, 3), rnd(2, 3))
case(E, 'mul.Tensor', rint(5, dtype=torch.int8), torch.tensor(100, dtype=torch.int8), name='mul_int8_wrap')
case(E, 'mul.Scalar', rnd(3), 0.5)
case(E, 'mul.Tensor', torch.tensor([True, False]), torch.tensor([True, True]), name='mul_bool')
case(E, 'mul_.Tensor', rnd(3), rnd(3))
case(E, 'div.Tensor', rint(6), torch.tensor([1, 2, -3, 4, 5, -7]), name='div_int_true')
case(E, 'div.Tensor', rnd(6), rnd(6))
case(E, 'div.Scalar', rnd(3), 4)
case(E, 'div.Tensor_mode', torch.tensor([7, -7, 7, -7]), torch.tensor([2, 2, -2, -2]), 'floor', name='div_floor_int')
case(E, 'div.Tensor_mode', torch.tensor([7, -7, 7, -7]), torch.tensor([2, 2, -2, -2]), 'trunc', name='div_trunc_int')
case(E, 'div.Tensor_mode', torch.tensor([7.5, -7.5, 7.0, -0.5]), torch.tensor([2.0, 2.0, -2.0, 3.0]), 'floor', name='div_floor_float')
case(E, 'div.Tensor_mode', torch.tensor([7.5, -7.5, 7.0, -0.5]), torch.tensor([2.0, 2.0, -2.0, 3.0]), 'trunc', name='div_trunc_float')
case(E, 'div.Scalar_mode', torch.tensor([5, -5]), 0, 'floor', name='div_int_zero')
case(E, 'div.Scalar_mode', torch.tensor([5.0, -5.0]), 2, 'bad', name='div_bad_mode')
case(E, 'div_.Scalar', rnd(3), 2)
case(E, 'floor_divide', torch.tensor([7, -7]), torch.tensor([2, 2]))
case(E, 'remainder.Tensor', torch.tensor([7, -7, 7, -7]), torch.tensor([3, 3, -3, -3]))
case(E, 'remainder.Scalar', torch.tensor([5.5, -5.5]), 2)
case(E, 'fmod.Tensor', torch.tensor([7.0, -7.0]), torch.tensor([3.0, 3.0]))
case(E, 'pow.Tensor_Scalar', rnd(4), 2)
case(E, 'pow.Tensor_Scalar', rnd(4).abs(), 0.5, name='pow_sqrt')
case(E, 'pow.Tensor_Scalar', torch.tensor([2, 3, -2]), 3, name='pow_int')
case(E, 'pow.Tensor_Scalar', torch.tensor([2, 3]), -1, name='pow_int_negative_error')
case(E, 'pow.Tensor_Scalar', torch.tensor([2, 3]), 0.5, name='pow_int_float_exp')
case(E, 'pow.Tensor_Tensor', rnd(4).abs(), rnd(4))
case(E, 'pow.Scalar', 2.0, rnd(4))
case(E, 'neg', rnd(3))
case(E, 'neg', torch.tensor([True]), name='neg_bool_error')
case(E, 'abs', torch.tensor([-3, 4]))
case(E, 'exp', rnd(5))
case(E, 'log', rnd(5).abs())
case(E, 'sqrt', torch.tensor([1, 4, 9]), name='sqrt_int_to_float')
case(E, 'rsqrt', rnd(5).abs() + 0.1)
case(E, 'sin', rnd(5))
case(E, 'cos', rnd(5))
case(E, 'erf', rnd(5))
case(E, 'floor', torch.tensor([1.5, -1.5, 2.0]))
case(E, 'floor', torch.tensor([3, -3]), name='floor_int')
case(E, 'ceil', torch.tensor([1.5, -1.5]))
case(E, 'round', torch.tensor([0.5, 1.5, 2.5, -0.5]))
case(E, 'reciprocal', rnd(4))
case(E, 'sign', rnd(4))
case(E, 'exp_', rint(3), name='exp_inplace_int_error')
case(E, 'eq.Tensor', torch.tensor([1, 2, 3]), torch.tensor([1, 0, 3]))
case(E, 'eq.Scalar', torch.tensor([1.0, 2.0]), 2)
case(E, 'ne.Tensor', rint(2, 3), rint(3))
case(E, 'lt.Tensor', rnd(2, 3), rnd(2, 3))
case(E, 'lt.Scalar', rint(4), 0.5, name='lt_int_float_scalar')
case(E, 'le.Scalar', rnd(4), 0)
case(E, 'gt.Tensor', rnd(2, 1), rnd(1, 3))
case(E, 'ge.Scalar', rint(4), 1)
case(E, 'gt_.Scalar', rnd(4), 0, name='gt_inplace_float')
case(E, 'where.self', torch.tensor([True, False, True]), rnd(3), rnd(2, 1))
case(E, 'where.self', torch.tensor([True, False]), rint(2), rnd(2), name='where_promote')
case(E, 'where.ScalarOther', torch.tensor([True, False]), rnd(2), 0.0)
case(E, 'where.self', rint(2), rnd(2), rnd(2), name='where_cond_not_bool')
case(E, 'clamp', rnd(6), -0.5, 0.5)
case(E, 'clamp', rnd(6), None, 0.1, name='clamp_max_only')
case(E, 'clamp', torch.tensor([1, 5, 9]), 2, None, name='clamp_int_min')
case(E, 'clamp', torch.tensor([1, 5, 9]), 2.5, None, name='clamp_int_float_promotes')
case(E, 'clamp', rnd(3), None, None, name='clamp_none_error')
case(E, 'clamp_', rnd(4), 0.0, None)
case(E, 'clamp_min', torch.tensor([-1.0, float('nan'), 2.0]), 0.0, name='clamp_min_nan')
case(E, 'maximum', rnd(3), torch.tensor([0.0, float('nan'), 0.0]))
case(E, 'minimum', rint(3), rint(3))
case(E, 'logical_not', torch.tensor([0, 1, 2]))
case(E, 'logical_and', torch.tensor([True, True, False]), torch.tensor([1.0, 0.0, 1.0]))
case(E, 'bitwise_and.Tensor', torch.tensor([12, 10]), torch.tensor([10, 6]))
case(E, '__or__.Tensor', torch.tensor([True, False]), torch.tensor([False, False]))
case(E, 'bitwise_not', torch.tensor([True, False]))
case(E, 'bitwise_not', torch.tensor([1.0]), name='bitwise_not_float_error')

# ----------------------------------------------------------------------------------------------- activation
A = 'activation'
case(A, 'relu', rnd(3, 4))
case(A, 'relu', rint(5), name='relu_int')
case(A, 'relu', torch.tensor([float('nan'), -1.0, 1.0]), name='relu_nan')
case(A, 'relu_', L(rnd(1, 4, 3, 3), 'cl'), name='relu_inplace_channels_last')
case(A, 'relu_', rnd(2, 50000), name='relu_inplace_large')
case(A, 'relu6', rnd(8) * 5)
case(A, 'hardtanh', rnd(8) * 3, -1, 1)
case(A, 'hardtanh_', rnd(8) * 8, 0.0, 6.0)
case(A, 'leaky_relu', rnd(6), 0.2)
case(A, 'sigmoid', rnd(6))
case(A, 'sigmoid', rint(4), name='sigmoid_int')
case(A, 'tanh', rnd(6))
case(A, 'silu', rnd(6))
case(A, 'gelu', rnd(6), 'none')
case(A, 'gelu', rnd(6), 'tanh', name='gelu_tanh')
case(A, 'hardswish', rnd(8) * 4)
case(A, 'hardsigmoid', rnd(8) * 4)
case(A, 'elu', rnd(6), 1.0, 1, 1)
case(A, 'softplus', rnd(6), 1, 20)
case(A, 'mish', rnd(6))
case(A, 'threshold', rnd(6), 0.1, 20.0)
case(A, 'softmax.int', rnd(2, 5), 1, None)
case(A, 'softmax.int', rnd(3, 4, 5), 1, None, name='softmax_middle_dim')
case(A, 'softmax.int', rnd(3, 4, 5), 0, None, name='softmax_dim0')
case(A, 'softmax.int', rnd(3, 4), -1, torch.float64, name='softmax_dtype')
case(A, 'softmax.int', rnd(3, 4), 2, None, name='softmax_bad_dim')
case(A, 'log_softmax.int', rnd(2, 7), -1, None)
case(A, 'log_softmax.int', rnd(2, 3, 4), 1, None, name='log_softmax_middle')
case(A, 'prelu', rnd(2, 3, 4), torch.tensor([0.1, 0.2, 0.3]))
case(A, 'glu', rnd(2, 6), -1)

# ----------------------------------------------------------------------------------------------- shape
S = 'shape'
case(S, 'view', rnd(2, 6), [3, -1])
case(S, 'view', L(rnd(3, 4), 't'), [12], name='view_noncontiguous_error')
case(S, 'reshape', L(rnd(3, 4), 't'), [12], name='reshape_copies')
case(S, 'flatten.using_ints', rnd(2, 3, 4, 5), 1, -1)
case(S, 'flatten.using_ints', L(rnd(1, 4, 2, 2), 'cl'), 1, -1, name='flatten_channels_last')
case(S, 'transpose.int', rnd(2, 3, 4), 0, 2)
case(S, 'permute', rnd(2, 3, 4), [2, 0, 1])
case(S, 'contiguous', L(rnd(3, 4), 't'), 0)
case(S, 'contiguous', rnd(1, 3, 2, 2), 2, name='contiguous_channels_last')
case(S, 't', rnd(3, 4))
case(S, 'cat', [rnd(2, 3), rnd(1, 3)], 0)
case(S, 'cat', [rnd(2, 3), rnd(2, 2), rnd(2, 1)], 1, name='cat_dim1')
case(S, 'cat', [rnd(2, 3, 2), L(rnd(2, 3, 2), 't')], -1, name='cat_noncontig')
case(S, 'cat', [rint(2), rnd(2)], 0, name='cat_promote')
case(S, 'cat', [rnd(2, 3), torch.empty(0)], 0, name='cat_skip_legacy_empty')
case(S, 'cat', [rnd(2, 3), rnd(2)], 0, name='cat_dim_mismatch')
case(S, 'cat', [rnd(2, 3), rnd(2, 4)], 0, name='cat_size_mismatch')
case(S, 'cat', [rnd(1, 2, 3, 3), rnd(1, 4, 3, 3)], 1, name='cat_channels')
case(S, 'cat', [L(rnd(1, 2, 3, 3), 'cl'), L(rnd(1, 4, 3, 3), 'cl')], 1, name='cat_channels_last')
case(S, 'cat', [L(rnd(2, 2, 3, 3), 'cl'), L(rnd(2, 2, 3, 3), 'cl')], 0, name='cat_channels_last_dim0')
case(S, 'stack', [rnd(2, 3), rnd(2, 3)], 1)
case(S, 'stack', [rnd(2, 3), rnd(2)], 0, name='stack_mismatch')
case(S, 'unsqueeze', rnd(2, 3), -1)
case(S, 'squeeze', rnd(1, 2, 1, 3))
case(S, 'squeeze.dim', rnd(1, 2, 1, 3), 2)
case(S, 'select.int', rnd(3, 4), 1, -1)
case(S, 'select.int', rnd(3, 4), 0, 3, name='select_out_of_range')
case(S, 'slice.Tensor', rnd(10, 3), 0, 1, 8, 3)
case(S, 'slice.Tensor', rnd(10, 3), 0, None, -2, 1, name='slice_none_start')
case(S, 'narrow', rnd(5, 4), 1, 1, 2)
case(S, 'expand', rnd(3, 1), [2, 3, 4], False)
case(S, 'chunk', rnd(7, 2), 3, 0)
case(S, 'split.Tensor', rnd(7, 2), 3, 0)
case(S, 'split_with_sizes', rnd(7, 2), [2, 5], 0)
case(S, 'unbind.int', rnd(3, 2), 0)
case(S, 'to.dtype', rnd(3) * 10, torch.int32, False, False, None)
case(S, 'to.dtype', torch.tensor([0, 1, 2]), torch.bool, False, False, None, name='to_bool')
case(S, 'to.dtype', rnd(3), torch.float16, False, False, None, name='to_half')
case(S, 'clone', L(rnd(3, 4), 't'), None)
# dropout in eval mode is an identity (with p checked): random.cpp registers the dropout family
case('random', 'dropout', rnd(3, 4), 0.5, False)
case('random', 'dropout', rnd(3, 4), 1.5, False, name='dropout_bad_p')
case('random', 'feature_dropout', rnd(3, 4), 0.2, False)
case(S, 'repeat', rnd(2, 3), [2, 1, 2])
case(S, 'flip', rnd(2, 3), [0, 1])
case(S, 'movedim.int', rnd(2, 3, 4), 0, 2)

# ----------------------------------------------------------------------------------------------- reduce
R = 'reduce'
case(R, 'sum', rnd(3, 4), None)
case(R, 'sum', rint(3, 4), None, name='sum_int_long')
case(R, 'sum', torch.tensor([True, True, False]), None, name='sum_bool')
case(R, 'sum.dim_IntList', rnd(3, 4, 5), [1], True, None)
case(R, 'sum.dim_IntList', rnd(3, 4, 5), [0, 2], False, None, name='sum_two_dims')
case(R, 'sum.dim_IntList', rnd(3, 4), [], False, None, name='sum_empty_dims')
case(R, 'mean', rnd(3, 4), None)
case(R, 'mean', rint(3), None, name='mean_int_error')
case(R, 'mean.dim', rnd(2, 3, 4, 4), [2, 3], True, None)
case(R, 'mean.dim', rnd(2, 3, 4, 4), [-1, -2], False, None, name='mean_neg_dims')
case(R, 'prod', rnd(5), None)
case(R, 'amax', rnd(3, 4), [1], False)
case(R, 'amin', rnd(3, 4), [0, 1], True)
case(R, 'max', rnd(3, 4))
case(R, 'max.dim', rnd(3, 4), 1, False)
case(R, 'max.dim', torch.tensor([[1.0, float('nan'), 3.0]]), 1, True, name='max_dim_nan')
case(R, 'min.dim', rint(3, 4), 0, True)
case(R, 'argmax', rnd(3, 4), 1, False)
case(R, 'argmax', rnd(3, 4), None, False, name='argmax_flat')
case(R, 'argmin', rnd(3, 4), 0, True)
case(R, 'all', torch.tensor([True, False]))
case(R, 'any.dim', torch.tensor([[True, False], [False, False]]), 1, False)
case(R, 'std', rnd(10), True)
case(R, 'var.dim', rnd(3, 5), [1], False, True)
case(R, 'logsumexp', rnd(3, 4), [1], False)
case(R, 'norm.Scalar', rnd(6), 2)
case(R, 'cumsum', rint(6), 0, None)

# ----------------------------------------------------------------------------------------------- factory
FA = 'factory'
case(FA, 'zeros', [2, 3], None, None, None, None)
case(FA, 'ones', [2], torch.int32, None, None, None)
case(FA, 'full', [2, 2], 1.5, None, None, None, None)
case(FA, 'full', [2], 3, None, None, None, None, name='full_int_infers_long')
case(FA, 'full', [2], True, torch.bool, None, None, None, name='full_bool')
case(FA, 'zeros', [2, -1], None, None, None, None, name='zeros_negative')
case(FA, 'arange', 5, None, None, None, None)
case(FA, 'arange.start_step', 0, 1, 0.25, None, None, None, None)
case(FA, 'arange.start_step', 10, 0, -3, None, None, None, None, name='arange_negative_step')
case(FA, 'arange.start_step', 0, 5, -1, None, None, None, None, name='arange_bad_sign')
case(FA, 'arange.start', 1.5, 4, torch.float64, None, None, None)
case(FA, 'linspace', 0, 1, 5, None, None, None, None)
case(FA, 'linspace', -2.0, 3.0, 7, None, None, None, None, name='linspace7')
case(FA, 'eye.m', 2, 3, None, None, None, None)
case(FA, 'zeros_like', rint(2, 3), None, None, None, None, None)
case(FA, 'ones_like', rnd(2), torch.float64, None, None, None, None)
case(FA, 'full_like', rnd(2), 7, None, None, None, None, None)
case(FA, 'scalar_tensor', 2.5, None, None, None, None)

# ----------------------------------------------------------------------------------------------- index
IX = 'index'
case(IX, 'index_select', rnd(4, 3), 0, torch.tensor([3, 0, 0]))
case(IX, 'index_select', rnd(4, 3), 1, torch.tensor([2, 1]))
case(IX, 'gather', rnd(3, 4), 1, torch.tensor([[0, 3], [1, 1], [2, 0]]), False)
case(IX, 'masked_fill.Scalar', rnd(2, 3), torch.tensor([True, False, True]), -1.0)
case(IX, 'masked_fill_.Scalar', rint(2, 3), torch.tensor([[True], [False]]), 7)
case(IX, 'index.Tensor', rnd(4, 3), [torch.tensor([3, 1])])
case(IX, 'index.Tensor', rnd(4, 3), [None, torch.tensor([2, 0, 2])], name='index_second_dim')
case(IX, 'index.Tensor', rnd(4, 3), [torch.tensor([True, False, True, False])], name='index_bool_mask')
case(IX, 'index.Tensor', rnd(4, 3, 2), [torch.tensor([0, 3]), torch.tensor([1, 2])], name='index_two')
case(IX, 'tril', rnd(3, 4), 0)
case(IX, 'triu', rnd(3, 4), 1)

# ----------------------------------------------------------------------------------------------- conv
C = 'conv'
case(C, 'conv2d', rnd(1, 3, 9, 9), rnd(4, 3, 3, 3), rnd(4), [1, 1], [1, 1], [1, 1], 1, name='conv2d_basic')
case(C, 'conv2d', rnd(2, 4, 10, 11), rnd(6, 4, 3, 2), None, [2, 1], [1, 0], [1, 1], 1, name='conv2d_stride_nobias')
case(C, 'conv2d', rnd(1, 4, 12, 12), rnd(4, 2, 3, 3), rnd(4), [1, 1], [2, 2], [2, 2], 2, name='conv2d_dilation_groups')
case(C, 'conv2d', rnd(1, 8, 10, 10), rnd(8, 1, 3, 3), rnd(8), [2, 2], [1, 1], [1, 1], 8, name='conv2d_depthwise')
case(C, 'conv2d', rnd(1, 16, 7, 7), rnd(32, 16, 1, 1), rnd(32), [1, 1], [0, 0], [1, 1], 1, name='conv2d_pointwise')
case(C, 'conv2d', rnd(3, 8, 8), rnd(4, 3, 3, 3), None, [1, 1], [0, 0], [1, 1], 1, name='conv2d_unbatched')
case(C, 'conv2d', L(rnd(1, 8, 6, 6), 'cl'), rnd(4, 8, 3, 3), rnd(4), [1, 1], [1, 1], [1, 1], 1, name='conv2d_channels_last')
case(C, 'conv2d', rnd(1, 3, 9, 9, dtype=torch.float64), rnd(4, 3, 3, 3, dtype=torch.float64), rnd(4, dtype=torch.float64), [1, 1], [1, 1], [1, 1], 1, name='conv2d_double')
case(C, 'conv2d', rnd(1, 4, 8, 8), rnd(8, 3, 3, 3), None, [1, 1], [0, 0], [1, 1], 1, name='conv2d_channel_mismatch')
case(C, 'conv2d', rnd(1, 3, 2, 2), rnd(8, 3, 3, 3), None, [1, 1], [0, 0], [1, 1], 1, name='conv2d_kernel_too_big')
case(C, 'conv2d', rnd(4, 8, 8, 8, 8), rnd(8, 3, 3, 3), None, [1, 1], [0, 0], [1, 1], 1, name='conv2d_bad_rank')
case(C, 'conv2d.padding', rnd(1, 3, 8, 8), rnd(4, 3, 4, 4), rnd(4), [1, 1], 'same', [1, 1], 1, name='conv2d_same_even_kernel')
case(C, 'conv2d.padding', rnd(1, 3, 8, 8), rnd(4, 3, 3, 3), None, [1, 1], 'valid', [1, 1], 1, name='conv2d_valid')
case(C, 'conv1d', rnd(2, 3, 20), rnd(5, 3, 4), rnd(5), [2], [1], [1], 1)
case(C, '_convolution', rnd(1, 3, 16, 16), rnd(8, 3, 7, 7), None, [2, 2], [3, 3], [1, 1], False, [0, 0], 1, False, False, True, True, name='convolution_traced_stem')
case(C, '_convolution', rnd(1, 6, 8, 8), rnd(6, 1, 3, 3), rnd(6), [1, 1], [1, 1], [1, 1], False, [0, 0], 6, False, False, True, True, name='convolution_traced_depthwise')
case(C, '_convolution', rnd(1, 4, 5, 5), rnd(4, 3, 3, 3), rnd(3), [2, 2], [1, 1], [1, 1], True, [1, 1], 1, False, False, True, True, name='convolution_transposed')
case(C, 'conv_transpose2d.input', rnd(1, 4, 5, 5), rnd(4, 2, 3, 3), None, [2, 2], [0, 0], [0, 0], 2, [1, 1], name='conv_transpose_groups')
case(C, 'convolution', rnd(1, 2, 6, 6), rnd(3, 2, 2, 2), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)

# ----------------------------------------------------------------------------------------------- pool
P = 'pool'
case(P, 'max_pool2d', rnd(1, 2, 9, 9), [3, 3], [2, 2], [1, 1], [1, 1], False, name='maxpool_resnet_stem')
case(P, 'max_pool2d', rnd(1, 3, 13, 13), [3, 3], [2, 2], [0, 0], [1, 1], True, name='maxpool_ceil_squeezenet')
case(P, 'max_pool2d', rnd(2, 2, 10, 7), [2, 3], [], [1, 1], [2, 1], False, name='maxpool_dilation_default_stride')
case(P, 'max_pool2d', L(rnd(1, 4, 8, 8), 'cl'), [2, 2], [2, 2], [0, 0], [1, 1], False, name='maxpool_channels_last')
case(P, 'max_pool2d', rnd(3, 8, 8), [2, 2], [2, 2], [0, 0], [1, 1], True, name='maxpool_unbatched')
case(P, 'max_pool2d', rnd(1, 2, 6, 6, dtype=torch.float64), [3, 3], [1, 1], [1, 1], [1, 1], False, name='maxpool_double')
case(P, 'max_pool2d', rnd(1, 3, 8, 8), [3, 3], [2, 2], [2, 2], [1, 1], False, name='maxpool_pad_too_big')
case(P, 'max_pool2d', rnd(1, 3, 1, 1), [3, 3], [2, 2], [0, 0], [1, 1], False, name='maxpool_too_small')
case(P, 'avg_pool2d', rnd(1, 2, 7, 7), [3, 3], [2, 2], [1, 1], False, True, None, name='avgpool_include_pad')
case(P, 'avg_pool2d', rnd(1, 2, 7, 7), [3, 3], [2, 2], [1, 1], True, False, None, name='avgpool_ceil_exclude_pad')
case(P, 'avg_pool2d', rnd(1, 2, 8, 8), [3, 3], [2, 2], [1, 1], True, True, None, name='avgpool_ceil_include_pad')
case(P, 'avg_pool2d', rnd(1, 2, 6, 6), [2, 2], [2, 2], [0, 0], False, True, 3, name='avgpool_divisor')
case(P, 'avg_pool2d', rint(1, 1, 4, 4), [2, 2], [2, 2], [0, 0], False, True, None, name='avgpool_int')
case(P, 'adaptive_avg_pool2d', rnd(1, 3, 7, 7), [1, 1], name='adaptive_global')
case(P, 'adaptive_avg_pool2d', rnd(2, 3, 7, 9), [3, 4], name='adaptive_uneven')
case(P, 'adaptive_avg_pool2d', L(rnd(1, 8, 5, 5), 'cl'), [1, 1], name='adaptive_channels_last')
case(P, 'adaptive_avg_pool2d', rnd(1, 3, 0, 2), [1, 1], name='adaptive_empty_error')
case(P, 'adaptive_max_pool2d', rnd(1, 2, 7, 5), [3, 2])
case(P, 'max_pool1d', rnd(2, 3, 11), [3], [2], [1], [1], True)
case(P, 'avg_pool1d', rnd(2, 3, 11), [3], [2], [1], False, True)

# ----------------------------------------------------------------------------------------------- norm
N = 'norm'
case(N, 'batch_norm', rnd(2, 3, 4, 5), rnd(3), rnd(3), rnd(3), rnd(3).abs() + 0.5, False, 0.1, 1e-5, True, name='bn_eval')
case(N, 'batch_norm', L(rnd(1, 4, 3, 3), 'cl'), rnd(4), rnd(4), rnd(4), rnd(4).abs() + 0.5, False, 0.1, 1e-5, True, name='bn_eval_channels_last')
case(N, 'batch_norm', rnd(5, 3), None, None, rnd(3), rnd(3).abs() + 0.5, False, 0.1, 1e-3, True, name='bn_eval_2d_noaffine')
case(N, 'batch_norm', rnd(4, 3, 6), rnd(3), rnd(3), rnd(3), rnd(3).abs() + 0.5, True, 0.1, 1e-5, True, name='bn_train')
case(N, 'batch_norm', rnd(2, 3, 4), None, None, rnd(4), rnd(4), False, 0.1, 1e-5, True, name='bn_bad_running_mean')
case(N, '_batch_norm_impl_index', rnd(2, 3, 4, 4), rnd(3), rnd(3), rnd(3), rnd(3).abs() + 0.5, False, 0.1, 1e-5, True, name='bn_impl_index_eval')
case(N, 'layer_norm', rnd(2, 3, 4), [4], rnd(4), rnd(4), 1e-5, True)
case(N, 'layer_norm', rnd(2, 3, 4), [3, 4], None, None, 1e-5, True, name='layer_norm_2d_noaffine')
case(N, 'group_norm', rnd(2, 6, 3, 3), 3, rnd(6), rnd(6), 1e-5, True)

# ----------------------------------------------------------------------------------------------- linalg
LA = 'linalg'
case(LA, 'linear', rnd(2, 8), rnd(5, 8), rnd(5))
case(LA, 'linear', rnd(3, 2, 8), rnd(5, 8), None, name='linear_3d_nobias')
case(LA, 'linear', rnd(8), rnd(5, 8), rnd(5), name='linear_1d_input')
case(LA, 'linear', rnd(2, 3), rnd(4, 5), None, name='linear_mismatch')
case(LA, 'linear', rnd(1, 512), rnd(1000, 512), rnd(1000), name='linear_resnet_fc')
case(LA, 'addmm', rnd(5), rnd(3, 4), rnd(4, 5), 1, 1, name='addmm_bias')
case(LA, 'addmm', rnd(3, 5), rnd(3, 4), rnd(4, 5), 0.5, 2, name='addmm_beta_alpha')
case(LA, 'addmm', rnd(5), rnd(3, 4), L(rnd(4, 5), 't'), 1, 1, name='addmm_transposed_weight')
case(LA, 'mm', rnd(3, 4), rnd(4, 2))
case(LA, 'mm', rnd(2, 3), rnd(4, 5), name='mm_mismatch')
case(LA, 'mm', rnd(3, 4, dtype=torch.float64), rnd(4, 2, dtype=torch.float64), name='mm_double')
case(LA, 'mm', rint(3, 4), rint(4, 2), name='mm_int')
case(LA, 'matmul', rnd(4), rnd(4), name='matmul_1d_1d')
case(LA, 'matmul', rnd(3, 4), rnd(4), name='matmul_2d_1d')
case(LA, 'matmul', rnd(4), rnd(4, 3), name='matmul_1d_2d')
case(LA, 'matmul', rnd(2, 3, 4), rnd(4, 5), name='matmul_3d_2d')
case(LA, 'matmul', rnd(2, 3, 4), rnd(2, 4, 5), name='matmul_3d_3d')
case(LA, 'matmul', rnd(2, 1, 3, 4), rnd(5, 4, 2), name='matmul_broadcast_batch')
case(LA, 'matmul', rnd(4), rnd(2, 4, 3), name='matmul_1d_3d')
case(LA, 'matmul', rnd(2, 3, 4), rnd(4), name='matmul_3d_1d')
case(LA, 'matmul', rnd(3), rnd(4), name='matmul_1d_mismatch')
case(LA, 'bmm', rnd(2, 3, 4), rnd(2, 4, 5))
case(LA, 'bmm', rnd(2, 3, 4), rnd(3, 4, 5), name='bmm_mismatch')
case(LA, 'mv', rnd(3, 4), rnd(4))
case(LA, 'dot', rnd(5), rnd(5))
case(LA, 'baddbmm', rnd(2, 3, 5), rnd(2, 3, 4), rnd(2, 4, 5), 0.5, 2)

# ----------------------------------------------------------------------------------------------- widening
case(E, 'addcmul', rnd(3), rnd(3), rnd(2, 3), 0.5)
case(E, 'addcdiv', rnd(3), rnd(3), rnd(3).abs() + 0.5, 2)
case(E, 'isinf', torch.tensor([1.0, float('inf'), -float('inf'), float('nan')]))
case(E, 'isfinite', torch.tensor([1.0, float('inf'), float('nan')]))
case(E, 'nan_to_num', torch.tensor([1.0, float('inf'), -float('inf'), float('nan')]), None, None, None)
case(E, 'nan_to_num', torch.tensor([1.0, float('inf'), float('nan')]), 0.5, 9.0, -9.0, name='nan_to_num_values')
case(E, 'frac', torch.tensor([1.5, -2.25]))
case(E, 'hypot', rnd(3), rnd(3))
case(P, 'upsample_nearest2d', rnd(1, 2, 3, 4), [6, 8], None, None, name='nearest_x2')
case(P, 'upsample_nearest2d', rnd(1, 2, 5, 4), [7, 3], None, None, name='nearest_odd')
case(P, 'upsample_nearest2d.vec', rnd(1, 2, 3, 3), None, [2.5, 1.5], name='nearest_vec_scales')
case(P, 'upsample_bilinear2d', rnd(1, 2, 4, 5), [7, 9], False, None, None, name='bilinear')
case(P, 'upsample_bilinear2d', rnd(1, 2, 4, 5), [8, 3], True, None, None, name='bilinear_align')
case(P, 'upsample_bilinear2d.vec', rnd(1, 2, 4, 4), None, False, [2.0, 2.0], name='bilinear_vec')
case(P, 'max_pool2d_with_indices', rnd(1, 2, 7, 7), [3, 3], [2, 2], [1, 1], [1, 1], True)
case(S, 'constant_pad_nd', rnd(2, 3, 4), [1, 2, 0, 1], 0.5)
case(S, 'constant_pad_nd', rnd(2, 5), [-1, 2], 0, name='constant_pad_crop')
case(S, 'pad', rnd(1, 2, 4, 5), [2, 1, 1, 2], 'reflect', None, name='pad_reflect')
case(S, 'pad', rnd(1, 2, 4, 5), [2, 1, 1, 2], 'replicate', None, name='pad_replicate')
case(S, 'pad', rnd(1, 2, 4, 5), [1, 1], 'circular', None, name='pad_circular_bad_rank')
case(S, 'pad', rnd(1, 2, 5), [1, 2], 'circular', None, name='pad_circular')
case(S, 'pad', rnd(2, 3), [1, 1], 'constant', 2.0, name='pad_constant')
case(IX, 'embedding', rnd(10, 4), torch.tensor([[1, 9], [0, 1]]), -1, False, False)
case(IX, 'nonzero', torch.tensor([[0, 1, 2], [3, 0, 0]]))
case(IX, 'masked_select', rnd(2, 3), torch.tensor([True, False, True]))
case(IX, 'one_hot', torch.tensor([0, 2, 1]), -1)
case(IX, 'scatter.src', torch.zeros(3, 4), 1, torch.tensor([[0, 1], [2, 3], [1, 1]]), rnd(3, 2))
case(IX, 'scatter.value', torch.zeros(3, 4), 0, torch.tensor([[0, 1, 2, 0]]), 7.0)
case(IX, 'scatter_add', torch.zeros(2, 4), 1, torch.tensor([[0, 0, 3], [1, 1, 1]]), torch.ones(2, 3))
case(R, 'sort', rnd(3, 5), -1, False)
case(R, 'sort', rnd(3, 5), 0, True, name='sort_desc_dim0')
case(R, 'argsort', rnd(6), -1, True)
case(R, 'topk', rnd(3, 8), 3, -1, True, True)
case(R, 'topk', rnd(3, 8), 2, 0, False, True, name='topk_smallest_dim0')
case(N, 'instance_norm', rnd(2, 3, 4, 4), rnd(3), rnd(3), None, None, True, 0.1, 1e-5, True)

# rnn (src/ops/kernels/rnn/rnn.cpp, H8): whole networks and cells. params per layer/direction: w_ih, w_hh[, b_ih, b_hh][, w_hr]
RN = 'rnn'


def rnn_params(gates, I, H, layers=1, dirs=1, bias=True, proj=0):
    ps = []
    for l in range(layers):
        for d in range(dirs):
            inp = I if l == 0 else (proj or H) * dirs
            ps += [rnd(gates * H, inp), rnd(gates * H, proj or H)]
            if bias:
                ps += [rnd(gates * H), rnd(gates * H)]
            if proj:
                ps.append(rnd(proj, H))
    return ps


case(RN, 'lstm.input', rnd(5, 3, 4), [rnd(1, 3, 6), rnd(1, 3, 6)], rnn_params(4, 4, 6), True, 1, 0.0, False, False, False)
case(RN, 'lstm.input', rnd(3, 5, 4), [rnd(4, 3, 6), rnd(4, 3, 6)], rnn_params(4, 4, 6, 2, 2), True, 2, 0.0, False, True, True,
     name='lstm_bi_2layer_batch_first')
case(RN, 'lstm.input', rnd(5, 2, 4), [rnd(2, 2, 3), rnd(2, 2, 6)], rnn_params(4, 4, 6, 2, 1, True, 3), True, 2, 0.0, False,
     False, False, name='lstm_proj')
case(RN, 'gru.input', rnd(5, 3, 4), rnd(2, 3, 6), rnn_params(3, 4, 6, 1, 2), True, 1, 0.0, False, True, False)
case(RN, 'gru.input', rnd(3, 5, 4), rnd(2, 3, 6), rnn_params(3, 4, 6, 2, 1, False), False, 2, 0.0, False, False, True,
     name='gru_nobias_2layer_bf')
case(RN, 'rnn_tanh.input', rnd(5, 3, 4), rnd(2, 3, 6), rnn_params(1, 4, 6, 1, 2), True, 1, 0.0, False, True, False)
case(RN, 'rnn_relu.input', rnd(5, 3, 4), rnd(2, 3, 6), rnn_params(1, 4, 6, 2, 1), True, 2, 0.0, False, False, False)
case(RN, 'lstm.data', rnd(9, 4), torch.tensor([3, 3, 2, 1]), [rnd(2, 3, 6), rnd(2, 3, 6)], rnn_params(4, 4, 6, 1, 2), True, 1,
     0.0, False, True, name='lstm_packed_bi')
case(RN, 'gru.data', rnd(6, 4), torch.tensor([3, 2, 1]), rnd(2, 3, 6), rnn_params(3, 4, 6, 2, 1), True, 2, 0.0, False, False,
     name='gru_packed_2layer')
case(RN, 'lstm_cell', rnd(3, 4), [rnd(3, 6), rnd(3, 6)], rnd(24, 4), rnd(24, 6), rnd(24), rnd(24))
case(RN, 'lstm_cell', rnd(4), [rnd(6), rnd(6)], rnd(24, 4), rnd(24, 6), None, None, name='lstm_cell_unbatched_nobias')
case(RN, 'gru_cell', rnd(3, 4), rnd(3, 6), rnd(18, 4), rnd(18, 6), rnd(18), rnd(18))
case(RN, 'rnn_tanh_cell', rnd(3, 4), rnd(3, 6), rnd(6, 4), rnd(6, 6), rnd(6), rnd(6))
case(RN, 'rnn_relu_cell', rnd(3, 4), rnd(3, 6), rnd(6, 4), rnd(6, 6), None, None)

# attention (src/ops/kernels/attention/attention.cpp, H8): the fast-path operators of nn.MultiheadAttention / TransformerEncoderLayer
AT = 'attention'
_x = rnd(2, 5, 8)
case(AT, '_native_multi_head_attention', _x, _x, _x, 8, 2, rnd(24, 8), rnd(24), rnd(8, 8), rnd(8), None, True, True, None)
case(AT, '_native_multi_head_attention', _x, _x, _x, 8, 2, rnd(24, 8), rnd(24), rnd(8, 8), rnd(8),
     torch.tensor([[False] * 5, [False, False, False, True, True]]), True, False, 1, name='mha_key_padding_per_head')
case(AT, '_native_multi_head_attention', rnd(2, 3, 8), rnd(2, 5, 8), rnd(2, 5, 8), 8, 4, rnd(24, 8), rnd(24), rnd(8, 8),
     rnd(8), None, False, True, None, name='mha_cross_no_weights')
for _nf, _gelu in ((False, False), (True, True)):
    case(AT, '_transformer_encoder_layer_fwd', rnd(2, 4, 8), 8, 2, rnd(24, 8), rnd(24), rnd(8, 8), rnd(8), _gelu, _nf, 1e-5,
         rnd(8), rnd(8), rnd(8), rnd(8), rnd(16, 8), rnd(16), rnd(8, 16), rnd(8), None, None,
         name='encoder_layer_norm_first_%d' % _nf)
case(AT, '_transform_bias_rescale_qkv', rnd(2, 3, 12), rnd(12), 2)
_m = torch.tensor([[False, True, False, True], [True] * 4]).view(2, 1, 1, 4).expand(2, 2, 3, 4).contiguous()
case(AT, '_masked_softmax', rnd(2, 2, 3, 4), _m, None, 1, name='masked_softmax_full_row_masked')
case(AT, '_masked_softmax', rnd(2, 2, 3, 4), _m, 3, 0, name='masked_softmax_type0')
case(AT, '_masked_softmax', rnd(2, 2, 3, 4), _m, None, None, name='masked_softmax_no_type')
case(AT, '_masked_softmax', rnd(2, 2, 3, 4), torch.zeros(2, 4, dtype=torch.bool), None, 1, name='masked_softmax_bad_shape')
case(AT, '_nested_tensor_from_mask_left_aligned', rnd(2, 3, 4), torch.tensor([[True, True, False], [True, False, False]]))
case(AT, '_nested_tensor_from_mask_left_aligned', rnd(2, 3, 4), torch.tensor([[True, False, True], [True, True, True]]),
     name='not_left_aligned')

# Every schema PyTorch registers, to check that Kindling's registrations use them verbatim.
for sch in torch._C._jit_get_all_schemas():
    OUT.append('schema ' + str(sch))

with open(sys.argv[1], 'w') as f:
    f.write('\n'.join(OUT) + '\n')
