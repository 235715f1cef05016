"""F.pad: widening a tensor by amounts on each side of its last dims (constant mode)."""
from ..functions.arguments import tensor_in
from ..ops import TABLE as _op
from ..core.tensor import apply

__all__ = ["pad"]


def pad(input, pad, mode="constant", value=None):
    """input widened by `pad` -- (before, after) amounts for the last dim, then the one before it,
    ... -- filled with value (0 by default); a negative amount narrows instead. Constant mode only."""
    input = tensor_in(input)
    if mode != "constant":
        raise NotImplementedError(f"pad: mode {mode!r} is not available here; only 'constant' (the default)")
    pad = tuple(int(p) for p in pad)
    nd = input.array.ndim
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * nd:
        raise RuntimeError(f"Padding length should be less than or equal to two times the input dimension but "
                           f"got padding length {len(pad)} and input of dimension {nd}")
    for i in range(len(pad) // 2):
        if input.array.shape[nd - 1 - i] + min(pad[2 * i], 0) + min(pad[2 * i + 1], 0) < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
    return apply(_op["constant_pad_nd"], input, pad=pad, value=0 if value is None else value)
