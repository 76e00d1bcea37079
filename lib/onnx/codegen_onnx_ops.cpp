// DIR/onnx_ops.py of `fxc codegen`: ONNX ops with no PyTorch call of the same meaning, in torch.
// codegen.cpp calls a function here only where this source defines it (`def Op(`).
#include "onnx/codegen.h"

namespace fxc::onnx {

const char* onnxOpsSource() {
  return R"PY("""ONNX operators with no PyTorch call of the same meaning, written in torch (fxc codegen).

Each function takes the op's inputs in ONNX's order (None for an omitted optional input) and its
attributes under their ONNX names, and computes what the ONNX operator computes. `_outputs` asks
an op with optional outputs for a tuple of its first outputs (the graph reads them by index).
"""
import functools
import math

import torch
import torch.nn.functional as F

_DTYPES = {1: torch.float32, 2: torch.uint8, 3: torch.int8, 5: torch.int16, 6: torch.int32,
           7: torch.int64, 9: torch.bool, 10: torch.float16, 11: torch.float64,
           16: torch.bfloat16}


def _ints(value):
    if value is None:
        return None
    if torch.is_tensor(value):
        return [int(v) for v in value.reshape(-1).tolist()]
    if isinstance(value, (int, float)):
        return [int(value)]  # an attribute of one value (TopK-1's k)
    return [int(v) for v in value]


def _axis(axis, rank):
    return axis + rank if axis < 0 else axis


def _tuple(values, outputs):
    return values[0] if outputs is None else tuple(values[:outputs])


def Identity(x):
    return x


def Cast(x, to, saturate=1):
    return x.to(_DTYPES[to])


def CastLike(x, like, saturate=1):
    return x.to(like.dtype)


def Shape(x, start=0, end=None):
    return torch.tensor(list(x.shape)[start:end], dtype=torch.int64)


def Size(x):
    return torch.tensor(x.numel(), dtype=torch.int64)


def Reshape(x, shape, allowzero=0):
    dims = _ints(shape)
    if not allowzero:
        dims = [x.shape[i] if d == 0 else d for i, d in enumerate(dims)]
    return x.reshape(dims)


def Flatten(x, axis=1):
    axis = _axis(axis, x.dim())
    return x.reshape(math.prod(x.shape[:axis]), math.prod(x.shape[axis:]))


def Transpose(x, perm=None):
    return x.permute(perm if perm is not None else list(range(x.dim() - 1, -1, -1)))


def Squeeze(x, axes=None):
    axes = _ints(axes)
    if axes is None:
        axes = [i for i, d in enumerate(x.shape) if d == 1]
    for axis in sorted((_axis(a, x.dim()) for a in axes), reverse=True):
        x = x.squeeze(axis)
    return x


def Unsqueeze(x, axes):
    axes = _ints(axes)
    rank = x.dim() + len(axes)
    for axis in sorted(_axis(a, rank) for a in axes):
        x = x.unsqueeze(axis)
    return x


def Concat(*inputs, axis):
    return torch.cat(inputs, axis)


def Split(x, split=None, axis=0, num_outputs=None):
    axis = _axis(axis, x.dim())
    if split is not None:
        return torch.split(x, _ints(split), axis)
    return torch.split(x, -(-x.shape[axis] // num_outputs), axis)


def _indices(indices, size):
    return torch.where(indices < 0, indices + size, indices).long()


def Gather(x, indices, axis=0):
    axis = _axis(axis, x.dim())
    index = _indices(indices, x.shape[axis])
    out = torch.index_select(x, axis, index.reshape(-1))
    return out.reshape(x.shape[:axis] + index.shape + x.shape[axis + 1:])


def GatherElements(x, indices, axis=0):
    axis = _axis(axis, x.dim())
    return torch.gather(x, axis, _indices(indices, x.shape[axis]))


def Slice(x, starts, ends, axes=None, steps=None):
    starts, ends = _ints(starts), _ints(ends)
    axes = _ints(axes) if axes is not None else list(range(len(starts)))
    steps = _ints(steps) if steps is not None else [1] * len(starts)
    for start, end, axis, step in zip(starts, ends, axes, steps):
        axis = _axis(axis, x.dim())
        picked = range(x.shape[axis])[slice(start, end, step)]  # numpy's clamping is ONNX's
        if step == 1:
            x = x.narrow(axis, picked.start if len(picked) else 0, len(picked))
        else:
            x = torch.index_select(x, axis, torch.tensor(list(picked), dtype=torch.long))
    return x


def ConstantOfShape(shape, value=None):
    dims = _ints(shape)
    if value is None:
        return torch.zeros(dims, dtype=torch.float32)
    return torch.full(dims, value.reshape(-1)[0].item(), dtype=value.dtype)


def Expand(x, shape):
    return x.expand(torch.broadcast_shapes(tuple(x.shape), tuple(_ints(shape))))


def Tile(x, repeats):
    return x.repeat(_ints(repeats))


def Range(start, limit, delta):
    # ONNX gives max(ceil((limit - start) / delta), 0) elements: none where delta points away
    # from limit, which torch.arange refuses.
    if delta.item() != 0 and (limit.item() - start.item()) * delta.item() <= 0:
        return torch.empty(0, dtype=start.dtype)
    return torch.arange(start.item(), limit.item(), delta.item(), dtype=start.dtype)


def Where(condition, x, y):
    return torch.where(condition, x, y)


def Div(a, b):
    if a.dtype.is_floating_point:
        return a / b
    return torch.div(a, b, rounding_mode="trunc")


def Mod(a, b, fmod=0):
    return torch.fmod(a, b) if fmod else torch.remainder(a, b)


def Pow(a, b):
    return torch.pow(a, b).to(a.dtype)


def Sum(*inputs):
    return functools.reduce(torch.add, inputs)


def Mean(*inputs):
    return Sum(*inputs) / len(inputs)


def Max(*inputs):
    return functools.reduce(torch.maximum, inputs)


def Min(*inputs):
    return functools.reduce(torch.minimum, inputs)


def Clip(x, min=None, max=None):
    if min is None and max is None:
        return x
    return torch.clamp(x, min, max)


def Softmax(x, axis=None, legacy=False):
    return _flattened(torch.softmax, x, axis, legacy)


def LogSoftmax(x, axis=None, legacy=False):
    return _flattened(torch.log_softmax, x, axis, legacy)


def _flattened(function, x, axis, legacy):
    # Before opset 13 the op ran on the input flattened to 2-D at `axis` (default 1); from 13
    # along `axis` (default -1).
    if not legacy:
        return function(x, -1 if axis is None else axis)
    return function(Flatten(x, 1 if axis is None else axis), 1).reshape(x.shape)


def _reduce(function, x, axes, keepdims, noop_with_empty_axes):
    axes = _ints(axes)
    if not axes:
        if noop_with_empty_axes:
            return x
        axes = list(range(x.dim()))
    return function(x, [_axis(a, x.dim()) for a in axes], bool(keepdims))


def _same_type(y, x):
    # ONNX's reductions keep the input's type; PyTorch sums integers into int64.
    return y if y.dtype == x.dtype else y.to(x.dtype)


def ReduceMean(x, axes=None, keepdims=1, noop_with_empty_axes=0):
    return _reduce(torch.mean, x, axes, keepdims, noop_with_empty_axes)


def ReduceSum(x, axes=None, keepdims=1, noop_with_empty_axes=0):
    return _same_type(_reduce(torch.sum, x, axes, keepdims, noop_with_empty_axes), x)


def ReduceMax(x, axes=None, keepdims=1, noop_with_empty_axes=0):
    return _reduce(torch.amax, x, axes, keepdims, noop_with_empty_axes)


def ReduceMin(x, axes=None, keepdims=1, noop_with_empty_axes=0):
    return _reduce(torch.amin, x, axes, keepdims, noop_with_empty_axes)


def ReduceProd(x, axes=None, keepdims=1, noop_with_empty_axes=0):
    def prod(t, dims, keep):
        for d in sorted(dims, reverse=True):
            t = torch.prod(t, d, keep)
        return t
    return _same_type(_reduce(prod, x, axes, keepdims, noop_with_empty_axes), x)


def ReduceL1(x, axes=None, keepdims=1, noop_with_empty_axes=0):
    return _same_type(_reduce(torch.sum, x.abs(), axes, keepdims, noop_with_empty_axes), x)


def ReduceL2(x, axes=None, keepdims=1, noop_with_empty_axes=0):
    sums = _reduce(torch.sum, x * x, axes, keepdims, noop_with_empty_axes)
    return _same_type(sums.sqrt() if x.is_floating_point() else sums.double().sqrt(), x)


def ReduceSumSquare(x, axes=None, keepdims=1, noop_with_empty_axes=0):
    return _same_type(_reduce(torch.sum, x * x, axes, keepdims, noop_with_empty_axes), x)


def ReduceLogSumExp(x, axes=None, keepdims=1, noop_with_empty_axes=0):
    return _reduce(torch.logsumexp, x, axes, keepdims, noop_with_empty_axes)


def ArgMax(x, axis=0, keepdims=1, select_last_index=0):
    return _arg(torch.argmax, x, axis, keepdims, select_last_index)


def ArgMin(x, axis=0, keepdims=1, select_last_index=0):
    return _arg(torch.argmin, x, axis, keepdims, select_last_index)


def _arg(function, x, axis, keepdims, select_last_index):
    axis = _axis(axis, x.dim())
    if not select_last_index:
        return function(x, axis, bool(keepdims))
    last = function(x.flip(axis), axis, bool(keepdims))
    return x.shape[axis] - 1 - last


def TopK(x, k, axis=-1, largest=1, sorted=1):
    # Of equal values the lower index first, as ONNX requires (torch.topk leaves it open): a
    # stable sort.
    values, indices = torch.sort(x, dim=axis, descending=bool(largest), stable=True)
    k = int(_ints(k)[0])
    return values.narrow(axis, 0, k), indices.narrow(axis, 0, k)


def CumSum(x, axis, exclusive=0, reverse=0):
    axis = _axis(int(_ints(axis)[0]), x.dim())
    if reverse:
        x = x.flip(axis)
    out = torch.cumsum(x, axis, dtype=x.dtype)  # PyTorch sums integers into int64
    if exclusive and x.shape[axis] > 0:
        # The sums before each element: shifted by one, not out - x (inf - inf is NaN).
        first = torch.zeros_like(out.narrow(axis, 0, 1))
        out = torch.cat([first, out.narrow(axis, 0, x.shape[axis] - 1)], axis)
    return out.flip(axis) if reverse else out


def NonZero(x):
    return torch.nonzero(x).t()


def Not(x):
    return torch.logical_not(x)


def Neg(x):
    return -x


def Einsum(*inputs, equation):
    return torch.einsum(equation, *inputs)


def ScatterND(data, indices, updates, reduction="none"):
    out = data.clone()
    depth = indices.shape[-1]
    where = indices.long().reshape(-1, depth)
    values = updates.reshape((where.shape[0],) + tuple(data.shape[depth:]))
    for i in range(where.shape[0]):
        at = tuple(where[i].tolist())
        if reduction == "add":
            out[at] += values[i]
        elif reduction == "mul":
            out[at] *= values[i]
        elif reduction == "max":
            out[at] = torch.maximum(out[at], values[i])
        elif reduction == "min":
            out[at] = torch.minimum(out[at], values[i])
        else:
            out[at] = values[i]
    return out


def Pad(x, pads=None, constant_value=None, axes=None, mode="constant", value=0.0):
    rank = x.dim()
    pads = _ints(pads)
    axes = [_axis(a, rank) for a in _ints(axes)] if axes is not None else list(range(rank))
    begin, end = [0] * rank, [0] * rank
    for i, axis in enumerate(axes):
        begin[axis], end[axis] = pads[i], pads[i + len(axes)]
    if mode == "constant":
        torch_pads = []
        for axis in reversed(range(rank)):  # F.pad starts at the last axis
            torch_pads += [begin[axis], end[axis]]
        fill = constant_value.reshape(-1)[0].item() if constant_value is not None else value
        return F.pad(x, torch_pads, "constant", fill)
    for axis in range(rank):  # edge, reflect, wrap: each axis indexed on its own
        if begin[axis] == 0 and end[axis] == 0:
            continue
        size = x.shape[axis]
        index = torch.arange(-begin[axis], size + end[axis])
        if mode == "edge":
            index = index.clamp(0, size - 1)
        elif mode == "wrap":
            raise NotImplementedError("Pad mode wrap")  # fxc's kernel refuses it too
        elif mode == "reflect":
            kept = size + min(begin[axis], 0) + min(end[axis], 0)
            if max(begin[axis], end[axis]) > kept - 1:  # fxc's kernel refuses it too
                raise NotImplementedError("Pad reflect longer than the cropped axis less one")
            period = max(2 * (size - 1), 1)
            index = index.remainder(period)
            index = torch.where(index >= size, period - index, index)
        else:
            raise NotImplementedError(mode)
        x = torch.index_select(x, axis, index)
    return x


def Dropout(x, ratio=None, training_mode=None, seed=None, _outputs=None):
    if training_mode is not None and bool(training_mode) and ratio is not None and float(ratio) > 0:
        raise NotImplementedError("Dropout in training mode")
    return _tuple((x, torch.ones_like(x, dtype=torch.bool)), _outputs)


def Gemm(a, b, c=None, alpha=1.0, beta=1.0, transA=0, transB=0):
    y = alpha * ((a.t() if transA else a) @ (b.t() if transB else b))
    return y if c is None else y + beta * c


def HardSigmoid(x, alpha=0.2, beta=0.5):
    return torch.clamp(alpha * x + beta, 0, 1)


def HardSwish(x):
    return F.hardswish(x)


def LeakyRelu(x, alpha=0.01):
    return F.leaky_relu(x, alpha)


def Elu(x, alpha=1.0):
    return F.elu(x, alpha)


def Celu(x, alpha=1.0):
    return F.celu(x, alpha)


def Selu(x, alpha=1.67326319217681884765625, gamma=1.05070102214813232421875):
    return gamma * torch.where(x > 0, x, alpha * (torch.exp(x) - 1))


def PRelu(x, slope):
    return torch.where(x < 0, x * slope, x)


def Softplus(x):
    return F.softplus(x)


def Softsign(x):
    return F.softsign(x)


def Mish(x):
    return F.mish(x)


def Gelu(x, approximate="none"):
    return F.gelu(x, approximate=approximate)


def GlobalAveragePool(x):
    return x.mean(list(range(2, x.dim())), keepdim=True)


def GlobalMaxPool(x):
    return x.amax(list(range(2, x.dim())), keepdim=True)


def BatchNormalization(x, scale, bias, mean, var, epsilon=1e-5, momentum=0.9, training_mode=0,
                       _outputs=None):
    if training_mode:
        raise NotImplementedError("BatchNormalization in training mode")
    return _tuple((F.batch_norm(x, mean, var, scale, bias, False, 0.0, epsilon), mean, var), _outputs)


def LayerNormalization(x, scale, bias=None, axis=-1, epsilon=1e-5, stash_type=1, _outputs=None):
    axis = _axis(axis, x.dim())
    dims = list(range(axis, x.dim()))
    mean = x.mean(dims, keepdim=True)
    inv_std = torch.rsqrt(((x - mean) ** 2).mean(dims, keepdim=True) + epsilon)
    y = (x - mean) * inv_std * scale
    if bias is not None:
        y = y + bias
    return _tuple((y, mean, inv_std), _outputs)


def InstanceNormalization(x, scale, bias, epsilon=1e-5):
    return F.instance_norm(x, weight=scale, bias=bias, eps=epsilon)


def _conv_pads(x, kernel, strides, dilations, pads, auto_pad):
    spatial = x.dim() - 2
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        pads = [0] * (2 * spatial)
        for i in range(spatial):
            size = x.shape[2 + i]
            out = -(-size // strides[i])
            total = max((out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - size, 0)
            small = total // 2
            pads[i], pads[i + spatial] = ((small, total - small) if auto_pad == "SAME_UPPER"
                                          else (total - small, small))
    elif auto_pad == "VALID" or pads is None:
        pads = [0] * (2 * spatial)
    return list(pads)


def Conv(x, w, b=None, auto_pad="NOTSET", dilations=None, group=1, kernel_shape=None, pads=None,
         strides=None):
    spatial = w.dim() - 2
    kernel = list(w.shape[2:])
    strides = strides or [1] * spatial
    dilations = dilations or [1] * spatial
    pads = _conv_pads(x, kernel, strides, dilations, pads, auto_pad)
    begin, end = pads[:spatial], pads[spatial:]
    if begin != end:
        torch_pads = []
        for i in reversed(range(spatial)):
            torch_pads += [begin[i], end[i]]
        x = F.pad(x, torch_pads)
        begin = [0] * spatial
    function = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[spatial]
    return function(x, w, b, strides, begin, dilations, group)



def ConvTranspose(x, w, b=None, auto_pad="NOTSET", dilations=None, group=1, kernel_shape=None,
                  output_padding=None, output_shape=None, pads=None, strides=None):
    spatial = w.dim() - 2
    kernel = list(w.shape[2:])
    strides = strides or [1] * spatial
    dilations = dilations or [1] * spatial
    output_padding = output_padding or [0] * spatial
    full = [strides[i] * (x.shape[2 + i] - 1) + output_padding[i] +
            (kernel[i] - 1) * dilations[i] + 1 for i in range(spatial)]
    if output_shape is None and auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        output_shape = [x.shape[2 + i] * strides[i] for i in range(spatial)]
    if output_shape is not None:
        output_shape = list(output_shape)[-spatial:]
        total = [full[i] - output_shape[i] for i in range(spatial)]
        if auto_pad == "SAME_UPPER":
            begin = [t // 2 for t in total]
        else:
            begin = [t - t // 2 for t in total]
        end = [t - s for t, s in zip(total, begin)]
    elif pads is not None and auto_pad == "NOTSET":
        begin, end = list(pads[:spatial]), list(pads[spatial:])
    else:
        begin, end = [0] * spatial, [0] * spatial
    function = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[spatial]
    y = function(x, w, None, strides, 0, 0, group, dilations)
    extra = []  # output_padding and negative pads: positions no input reaches
    for i in reversed(range(spatial)):
        extra += [max(-begin[i], 0), output_padding[i] + max(-end[i], 0)]
    y = F.pad(y, extra)
    for i in range(spatial):
        y = y.narrow(2 + i, max(begin[i], 0), full[i] - begin[i] - end[i])
    if b is not None:
        y = y + b.reshape([1, -1] + [1] * spatial)
    return y

def Resize(X, roi=None, scales=None, sizes=None, antialias=0, axes=None,
           coordinate_transformation_mode="half_pixel", cubic_coeff_a=-0.75, exclude_outside=0,
           extrapolation_value=0.0, keep_aspect_ratio_policy="stretch", mode="nearest",
           nearest_mode="round_prefer_floor"):
    # Nearest and linear, axis by axis (linear interpolation is separable); codegen refuses the
    # rest (cubic, antialias, tf_crop_and_resize, axes).
    # Sizes and source coordinates in float32, as fxc's kernel and ONNX Runtime compute them
    # (10 * 0.7f is 7; 3 / 0.6f is 5).
    rank = X.dim()
    f32 = lambda v: torch.tensor(v, dtype=torch.float32)
    if sizes is not None and sizes.numel() > 0:
        out = _ints(sizes)
        scale = [f32(out[i]) / f32(X.shape[i]) for i in range(rank)]
    else:
        scale = [f32(v) for v in scales.reshape(-1).tolist()]
        out = [int(f32(X.shape[i]) * scale[i]) for i in range(rank)]
    y = X
    # An axis of scale 1 is kept as it is where fxc's kernel keeps it: the batch and channel axes
    # of an image, any axis with nearest, or every axis when none changes. A spatial axis of
    # scale 1 beside one that changes weighs its neighbours by 0 with linear (a NaN there
    # spreads), as fxc, ONNX Runtime and PyTorch do.
    identity = all(X.shape[i] == out[i] and scale[i] == 1.0 for i in range(rank))
    for axis in range(rank):
        n, m, s = X.shape[axis], out[axis], scale[axis]
        if n == m and s == 1.0 and (identity or (rank >= 3 and axis < 2) or mode == "nearest"):
            continue
        x = torch.arange(m, dtype=torch.float32)
        transform = coordinate_transformation_mode
        length = m  # the output's length, as fxc's kernel, ONNX Runtime and PyTorch take it
        if transform == "half_pixel":
            source = (x + 0.5) / s - 0.5
        elif transform == "pytorch_half_pixel":
            source = (x + 0.5) / s - 0.5 if length > 1 else torch.zeros_like(x)
        elif transform == "align_corners":
            source = x * f32(n - 1) / f32(length - 1) if length > 1 else torch.zeros_like(x)
        elif transform == "asymmetric":
            source = x / s
        elif transform == "tf_half_pixel_for_nn":
            source = (x + 0.5) / s
        else:
            raise NotImplementedError(transform)
        if mode == "nearest":
            below = torch.floor(source)
            if nearest_mode == "floor":
                picked = below
            elif nearest_mode == "ceil":
                picked = torch.ceil(source)
            elif nearest_mode == "round_prefer_ceil":
                picked = torch.floor(source + 0.5)
            else:  # round_prefer_floor
                picked = torch.where(source - below == 0.5, below, torch.floor(source + 0.5))
            y = torch.index_select(y, axis, picked.long().clamp(0, n - 1))
        elif mode == "linear":
            if not y.is_floating_point():
                raise NotImplementedError("linear Resize of an integer tensor")
            below = torch.floor(source)
            weight = (source - below).to(y.dtype)
            shape = [1] * rank
            shape[axis] = m
            weight = weight.reshape(shape)
            low = torch.index_select(y, axis, below.long().clamp(0, n - 1))
            high = torch.index_select(y, axis, (below.long() + 1).clamp(0, n - 1))
            y = (1 - weight) * low + weight * high
        else:
            raise NotImplementedError(mode)
    return y

def QuantizeLinear(x, y_scale, y_zero_point=None, axis=1, saturate=1, block_size=0):
    zero = y_zero_point if y_zero_point is not None else torch.zeros((), dtype=torch.uint8)
    scale, zero_int = _per_axis(y_scale, x, axis), _per_axis(zero, x, axis).to(torch.int64)
    info = torch.iinfo(zero.dtype)
    q = torch.round(x / scale).to(torch.int64) + zero_int
    return q.clamp(info.min, info.max).to(zero.dtype)


def DequantizeLinear(x, x_scale, x_zero_point=None, axis=1, block_size=0):
    zero = x_zero_point if x_zero_point is not None else torch.zeros((), dtype=x.dtype)
    scale = _per_axis(x_scale, x, axis)
    return ((x.to(torch.int64) - _per_axis(zero, x, axis).to(torch.int64)).to(scale.dtype) *
            scale)


def _per_axis(value, x, axis):
    # A 1-D scale or zero point runs along `axis`.
    if value.dim() != 1 or x.dim() == 0:
        return value
    shape = [1] * x.dim()
    shape[_axis(axis, x.dim())] = value.numel()
    return value.reshape(shape)


def Trilu(x, k=None, upper=1):
    diagonal = int(_ints(k)[0]) if k is not None else 0
    return torch.triu(x, diagonal) if upper else torch.tril(x, diagonal)


def ThresholdedRelu(x, alpha=1.0):
    return torch.where(x > alpha, x, torch.zeros_like(x))


def Shrink(x, bias=0.0, lambd=0.5):
    if not x.is_floating_point():
        raise NotImplementedError("Shrink of integers")  # fxc's kernel refuses them too
    zero = torch.zeros_like(x)
    return torch.where(x < -lambd, x + bias, torch.where(x > lambd, x - bias, zero))


def Hardmax(x, axis=None, legacy=False):
    # Before opset 13 on the input flattened to 2-D at `axis` (default 1), as Softmax.
    if legacy:
        return Hardmax(Flatten(x, 1 if axis is None else axis), 1).reshape(x.shape)
    axis = _axis(-1 if axis is None else axis, x.dim())
    index = x.argmax(axis, keepdim=True)
    return torch.zeros_like(x).scatter_(axis, index, 1)


def ReduceLogSum(x, axes=None, keepdims=1, noop_with_empty_axes=0):
    return _reduce(torch.sum, x, axes, keepdims, noop_with_empty_axes).log()


def Sign(x):
    # torch.sign(NaN) is 0; ONNX's Sign keeps the NaN.
    return torch.where(torch.isnan(x), x, torch.sign(x))


def IsInf(x, detect_negative=1, detect_positive=1):
    return ((x == float("inf")) & bool(detect_positive)) | ((x == float("-inf")) & bool(detect_negative))

def _recurrent(cell, gates, X, W, R, B, sequence_lens, initial_states, direction, hidden_size,
               layout, extra):
    if sequence_lens is not None or layout or extra:
        raise NotImplementedError("sequence_lens, layout 1, clip, activations or peepholes")
    if direction not in ("forward", "reverse", "bidirectional"):
        raise NotImplementedError(direction)
    directions = 2 if direction == "bidirectional" else 1
    steps, batch = X.shape[0], X.shape[1]
    if B is None:
        B = X.new_zeros(directions, 2 * gates * hidden_size)
    ys, finals = [], []
    for d in range(directions):
        states = [X.new_zeros(batch, hidden_size) if s is None else s[d] for s in initial_states]
        reverse = direction == "reverse" or d == 1
        order = range(steps - 1, -1, -1) if reverse else range(steps)
        outputs = [None] * steps
        w_bias, r_bias = B[d, :gates * hidden_size], B[d, gates * hidden_size:]
        for t in order:
            states = cell(X[t] @ W[d].t() + w_bias, states, R[d], r_bias, hidden_size)
            outputs[t] = states[0]
        ys.append(torch.stack(outputs))
        finals.append(states)
    Y = torch.stack(ys, 1)  # [seq, directions, batch, hidden]
    return (Y,) + tuple(torch.stack([f[i] for f in finals]) for i in range(len(initial_states)))


def _lstm_cell(x, states, r, r_bias, hidden):
    h, c = states
    i, o, f, g = (x + h @ r.t() + r_bias).split(hidden, 1)
    c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c), c


def LSTM(X, W, R, B=None, sequence_lens=None, initial_h=None, initial_c=None, P=None,
         direction="forward", hidden_size=None, layout=0, clip=None, input_forget=0,
         activations=None, activation_alpha=None, activation_beta=None):
    extra = P is not None or clip is not None or input_forget or activations is not None
    return _recurrent(_lstm_cell, 4, X, W, R, B, sequence_lens, [initial_h, initial_c],
                      direction, hidden_size, layout, extra)


def GRU(X, W, R, B=None, sequence_lens=None, initial_h=None, direction="forward",
        hidden_size=None, layout=0, clip=None, linear_before_reset=0, activations=None,
        activation_alpha=None, activation_beta=None):
    def cell(x, states, r, r_bias, hidden):
        (h,) = states
        xz, xr, xh = x.split(hidden, 1)
        rz, rr, rh = r.split(hidden, 0)
        bz, br, bh = r_bias.split(hidden, 0)
        z = torch.sigmoid(xz + h @ rz.t() + bz)
        reset = torch.sigmoid(xr + h @ rr.t() + br)
        if linear_before_reset:
            candidate = torch.tanh(xh + reset * (h @ rh.t() + bh))
        else:
            candidate = torch.tanh(xh + (reset * h) @ rh.t() + bh)
        return ((1 - z) * candidate + z * h,)
    extra = clip is not None or activations is not None
    return _recurrent(cell, 3, X, W, R, B, sequence_lens, [initial_h], direction, hidden_size,
                      layout, extra)

def fake_quantize(quant_min, quant_max, channels=None, axis=0, symmetric=False):
    """torch.ao.quantization.FakeQuantize for a quantizer of `fxc quantize --qat --codegen`: a
    moving-average observer, per channel when `channels` is given, its buffers shaped for the
    calibrated scale, zero point and range that load() puts in."""
    q = torch.ao.quantization
    dtype = torch.qint8 if quant_min < 0 else torch.quint8
    if channels is None:
        return q.FakeQuantize(observer=q.MovingAverageMinMaxObserver, quant_min=quant_min,
                              quant_max=quant_max, dtype=dtype,
                              qscheme=torch.per_tensor_symmetric if symmetric
                              else torch.per_tensor_affine)
    fake = q.FakeQuantize(observer=q.MovingAveragePerChannelMinMaxObserver, quant_min=quant_min,
                          quant_max=quant_max, dtype=dtype, ch_axis=axis,
                          qscheme=torch.per_channel_symmetric if symmetric
                          else torch.per_channel_affine)
    fake.scale = torch.ones(channels)
    fake.zero_point = torch.zeros(channels, dtype=torch.int32)
    fake.activation_post_process.min_val = torch.full((channels,), float("inf"))
    fake.activation_post_process.max_val = torch.full((channels,), float("-inf"))
    return fake
)PY";
}

}  // namespace fxc::onnx
