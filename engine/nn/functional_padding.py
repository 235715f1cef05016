"""F.pad: widening a tensor by amounts on each side of its last dims -- with a constant, or by
reflecting, replicating or wrapping its own values."""
import numpy

from ..functions.arguments import tensor_in, index_key
from ..functions.shapes import index_select
from ..functions.creation import tensor
from ..ops import TABLE as _op
from ..core.tensor import apply

__all__ = ["pad"]


def pad(input, pad, mode="constant", value=None):
    """input widened by `pad` -- (before, after) amounts for the last dim, then the one before it,
    ... -- filled with value (0 by default; a negative amount narrows instead), or, by `mode`, with
    its own values reflected at the edges ('reflect'), the edge values repeated ('replicate') or
    the other end's ('circular'); those gather, so the gradient adds up where a value is used twice."""
    input = tensor_in(input)
    pad = tuple(int(p) for p in pad)
    if mode != "constant":
        return _pad_from_input(input, pad, mode, value)
    nd = input.array.ndim
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * nd:
        raise RuntimeError(f"Padding length should be less than or equal to two times the input dimension but "
                           f"got padding length {len(pad)} and input of dimension {nd}")
    return _op["constant_pad_nd"].call(input, pad, 0 if value is None else value)  # (its narrowing check)


_SOURCES = {"reflect": lambda i, n: numpy.where(i < 0, -i, numpy.where(i >= n, 2 * (n - 1) - i, i)),
            "replicate": lambda i, n: numpy.clip(i, 0, n - 1),
            "circular": lambda i, n: i % n}


def _pad_from_input(input, pad, mode, value):
    """The reflect, replicate and circular modes: each padded dim gathered at the positions its
    new elements take their values from (the gradient adds them up). reflect and replicate gather
    all the padded dims at once, under PyTorch's node (ReflectionPad2DBackward0, ...); circular,
    which PyTorch composes of slice copies (CopySlices), is one index_select a dim here."""
    source = _SOURCES.get(mode)
    if source is None:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if value not in (None, 0):
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    nd = input.array.ndim
    if len(pad) % 2 or len(pad) // 2 > nd - 1 or len(pad) // 2 > 3:
        raise NotImplementedError(f"Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now "
                                  f"(input of dimension {nd} and padding of length {len(pad)})")
    out, gathered = input, []
    for k in range(len(pad) // 2):
        dim = nd - 1 - k
        n = input.array.shape[dim]
        before, after = pad[2 * k], pad[2 * k + 1]
        if mode == "reflect" and (before >= n or after >= n):
            raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding input dimension, "
                               f"but got: padding ({before}, {after}) at dimension {dim} of input {list(input.shape)}")
        if mode == "circular" and (before > n or after > n):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        positions = numpy.arange(-before, n + after)
        if mode == "circular" and min(before, after) < 0:  # PyTorch crops the negative sides first, then
            start, m = max(-before, 0), n + min(before, 0) + min(after, 0)  # wraps what is left
            positions = start + numpy.arange(-max(before, 0), m + max(after, 0)) % max(m, 1)
            out = index_select(out, dim, tensor(positions.astype(numpy.int64), device=input.device))
            continue
        if mode == "circular":
            out = index_select(out, dim, tensor(source(positions, n).astype(numpy.int64), device=input.device))
        else:
            gathered.insert(0, source(positions, n).astype(numpy.int64))
    return _gather(input, gathered, mode) if gathered else out


def _gather(input, positions, mode):
    """input at `positions` (one array for each of its last len(positions) dims), as one open-grid
    index: the gradient of every padded dim in one node, named as PyTorch's."""
    m = len(positions)
    grid = [tensor(p.reshape([-1 if j == i else 1 for j in range(m)]), device=input.device)
            for i, p in enumerate(positions)]
    key = index_key(input, (slice(None),) * (input.array.ndim - m) + tuple(grid))
    kind = "Reflection" if mode == "reflect" else "Replication"
    return apply(_op["getitem"], input, key=key, name=f"{kind}Pad{m}DBackward0")
