"""The edges where this engine once crashed or answered otherwise than PyTorch (issue 29's list),
replayed against PyTorch 2.13's answers (tests/golden/edges.json, made by gen_edges.py): 0-d
tensors reduced along their one dim, empty dims, clamp's tensor bounds at ties, xlogy at x = 0,
norms of every p to second order, div's rounding modes, pad's modes, adaptive pooling to sizes that
do not divide, Tensor.new, split_with_sizes. Values within the float64 tolerance; where we knowingly
answer otherwise, KNOWN names the case and the reason."""
import json
import math
import pathlib

import numpy as np
import pytest

import autodiff.engine as ad
from edges_cases import CASES, outcome
from tolerance import assert_close

GOLDEN = json.loads((pathlib.Path(__file__).resolve().parents[1] / "golden" / "edges.json").read_text())["cases"]

_KINK = ("the second derivative at 0, where the norm has a kink: PyTorch's formula divides 0 by 0 "
         "(NaN); ours masks the 0/0 with a safe stand-in and gives 0, the limit along every ray")
# case -> (the key path that differs, why)
KNOWN = {
    **{f"vector_norm p={p} zeros": ("second", _KINK) for p in (2, 1.5, -1)},
    **{f"vector_norm p={p} {label}": ("error", "PyTorch 2.13 refuses the second derivative of the "
                                      "infinity norms (its max/min backward is not differentiable "
                                      "there); ours is the derivative of the selected entry, 0")
       for p in ("inf", "-inf") for label in ("zeros", "mixed")},
    "vector_norm p=-1 mixed": ("second", "a zero entry makes the p=-1 norm 0 with every partial "
                                         "derivative 0; PyTorch's formula gives NaN at the zero "
                                         "entry's second derivative, ours the limit, 0"),
    "vector_norm p=0.5 mixed": ("second", _KINK),
    "vector_norm p=1.5 mixed": ("second", _KINK),
    "0-d prod along dim 0": ("second", "PyTorch's gradient of a one-element prod is the incoming "
                                       "gradient itself, a constant with no graph (no second "
                                       "derivative: null); ours is the same constant's derivative, 0"),
}


def _array(v):
    """A golden list (NaN stored as null) as a float array, or None where its parts differ in shape."""
    try:
        return np.array(np.array(v, dtype=object).tolist(), dtype=float) if v != [] else np.zeros(0)
    except ValueError:
        return None


def _compare(got, want, where):
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), f"{where}: keys {got} != {want}"
        for key in want:
            _compare(got[key], want[key], f"{where}.{key}")
    elif isinstance(want, str) or isinstance(got, str):
        assert got == want, f"{where}: {got!r}, PyTorch {want!r}"
    elif want is None or got is None:
        # NaN is stored as null, so a lone NaN and a null are the same answer; no gradient is null too
        other = got if want is None else want
        assert other is None or (isinstance(other, float) and math.isnan(other)), f"{where}: {got} != {want}"
    elif isinstance(want, list) and _array(want) is None:
        assert isinstance(got, list) and len(got) == len(want), f"{where}: {got}, PyTorch {want}"
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, f"{where}[{i}]")
    else:
        g = _array(got)
        assert g is not None, f"{where}: {got}, PyTorch {want}"
        assert_close(g, _array(want), "float64", what=where)


@pytest.mark.parametrize("name", sorted(CASES))
def test_edge_matches_pytorch(name):
    got = outcome(ad, CASES[name])
    want = GOLDEN[name]
    if name in KNOWN:
        part, why = KNOWN[name]
        if part == "error":
            assert "error" in want and "value" in got, f"{name}: listed as known to differ ({why}), but does not"
            return
        with pytest.raises(AssertionError):  # still differs there, else the entry goes
            _compare(got["value"][part], want["value"][part], f"{name}.{part}")
        got = {"value": {k: v for k, v in got["value"].items() if k != part}}
        want = {"value": {k: v for k, v in want["value"].items() if k != part}}
    _compare(got, want, name)


def test_every_golden_case_is_replayed():
    assert set(GOLDEN) == set(CASES)


@pytest.mark.parametrize("call, message", [
    (lambda: ad.linalg.vector_norm(ad.ones(0), math.inf),
     "linalg.vector_norm cannot compute the inf norm on an empty tensor because the operation does not have an identity"),
    (lambda: ad.linalg.vector_norm(ad.ones(2, 0), -1.0, dim=-1),
     "linalg.vector_norm cannot compute the -1 norm on the dimension -1because this dimension is empty and the "
     "operation does not have an identity"),
    (lambda: ad.ones(2, 0, 3).norm(-0.5, dim=(2, 1)),
     "linalg.vector_norm cannot compute the -0.5 norm on the dimension 1because this dimension is empty and the "
     "operation does not have an identity"),
])
def test_norm_without_identity_over_no_element(call, message):
    # PyTorch 2.13's words (its missing space before "because" included)
    with pytest.raises(RuntimeError) as err:
        call()
    assert str(err.value) == message


_LIKE = {"zeros_like": 0.0, "ones_like": 1.0, "empty_like": None, "full_like": 2.5, "rand_like": None, "randn_like": None}


_TAKE_MEMORY_FORMAT = [*_LIKE, "cpu", "float", "double", "contiguous", "clone"]


@pytest.mark.parametrize("name", _TAKE_MEMORY_FORMAT)
def test_memory_format_is_taken(name):
    # PyTorch takes memory_format= on these; values never depend on it here (every tensor is row-major)
    x = ad.tensor([[1.5, -2.0], [0.25, 4.0]])
    x4 = x.reshape(1, 2, 2, 1)  # channels_last needs rank 4
    for fmt in (ad.channels_last, ad.preserve_format, ad.contiguous_format):
        t = x4 if fmt is ad.channels_last else x
        if name in _LIKE:
            args = (t, 2.5) if name == "full_like" else (t,)
            y = getattr(ad, name)(*args, memory_format=fmt)
            assert tuple(y.shape) == tuple(t.shape) and y.dtype is x.dtype
            if _LIKE[name] is not None:
                assert y.flatten().tolist() == [_LIKE[name]] * 4
        else:
            assert getattr(t, name)(memory_format=fmt).tolist() == t.tolist()
    call = (lambda: getattr(ad, name)(x, 2.5, memory_format=3)) if name == "full_like" else \
        (lambda: getattr(ad, name)(x, memory_format=3)) if name in _LIKE else (lambda: getattr(x, name)(memory_format=3))
    with pytest.raises(TypeError, match=rf"^{name}\(\): argument 'memory_format' must be torch.memory_format, not int$"):
        call()


@pytest.mark.parametrize("name", _TAKE_MEMORY_FORMAT + ["to"])
@pytest.mark.parametrize("fmt, rank, ndim", [("channels_last", 4, 2), ("channels_last", 4, 5), ("channels_last_3d", 5, 4)])
def test_a_channels_last_format_needs_its_rank(name, fmt, rank, ndim):
    # PyTorch 2.13's check and words, on every function that takes memory_format
    x = ad.ones(*(2,) * ndim)
    call = (lambda: ad.full_like(x, 2.5, memory_format=getattr(ad, fmt))) if name == "full_like" else \
        (lambda: getattr(ad, name)(x, memory_format=getattr(ad, fmt))) if name in _LIKE else \
        (lambda: getattr(x, name)(memory_format=getattr(ad, fmt)))
    with pytest.raises(RuntimeError, match=rf"^required rank {rank} tensor to use {fmt} format$"):
        call()


@pytest.mark.parametrize("shape, contiguous_is_self", [((2, 3, 4, 5), False), ((2, 1, 4, 5), True), ((2, 3, 1, 1), True)])
def test_channels_last_copies_as_pytorch_does(shape, contiguous_is_self):
    # PyTorch 2.13, by hand: to(memory_format=channels_last) is always a new tensor (ToCopyBackward0),
    # even where the layouts coincide; contiguous(memory_format=channels_last) is the tensor itself only
    # where its row-major layout is channels-last too (a size-1 channel, or a 1x1 image), else a clone
    x = ad.randn(*shape, requires_grad=True)
    y = x.to(memory_format=ad.channels_last)
    assert y is not x and y.grad_fn.name() == "ToCopyBackward0" and y.tolist() == x.tolist()
    z = x.contiguous(memory_format=ad.channels_last)
    assert (z is x) == contiguous_is_self
    if not contiguous_is_self:
        assert z.grad_fn.name() == "CloneBackward0" and z.tolist() == x.tolist()
    assert x.to(memory_format=ad.contiguous_format) is x and x.contiguous() is x
    before = x.tolist()
    with ad.no_grad():
        y.fill_(7.0)  # a copy: writing into it leaves x as it was
    assert x.tolist() == before and y.flatten().tolist() == [7.0] * x.numel()
