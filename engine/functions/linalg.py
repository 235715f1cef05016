"""Linear algebra beyond matmul, the functions that are no row's own signature: bmm, baddbmm,
tensordot, einsum, outer/ger, inner, matrix_power, logdet, the in-place addmm_, baddbmm_, addmv_
and addr_ (PyTorch's own messages for an input that would broadcast), and linalg.solve's checks
(engine/linalg.py, the torch.linalg namespace, builds on them); torch.linalg's solve_ex, inv_ex,
cholesky_ex and lu_factor_ex (LAPACK's info beside the result), and the older torch.lu, lu_unpack
and lu_solve. addmm, kron, trace, det, inverse,
cross, vdot, addmv, addr and slogdet are their rows' signatures (engine/ops/linalg.py, where
PyTorch's checks of matrices live; a singular matrix is a `LinAlgError`, as PyTorch's
torch.linalg.LinAlgError, a RuntimeError).

einsum is PyTorch's composite too: one operand is taken through diagonal,
permute and sum (so its result is a view where PyTorch's is); two or more are
contracted pairwise, left to right, by the two-operand einsum row, each step
summing the letters no later operand and not the output uses.
"""
import math
import warnings
import string

import numpy

from .. import dtypes as _dt
from ..ops import TABLE as _op
from ..ops.linalg import (einsum_node_name as _einsum_node_name, check_expands, factors, lu_dtype, not_bool, same_dtype,
                          scalar_name, singular, slogdet_parts, square_matrices)
from ..ops.linalg import _inverse_failed
from ..ops.linalg import LinAlgError  # noqa: F401  (torch.linalg.LinAlgError: engine/linalg.py takes it from here)
from ..core.tensor import (TensorBase as Tensor, apply, wrap_dim, check_broadcastable, array_module, host_array,
                           make_tensor)
from ..ops.decomp import Factors, cholesky_ex_kernel, lu_kernel, permutation_matrix
from ..signature import result_type
from .arguments import tensor_in, as_tensor_like
from .basic import mm as _mm
from .creation import eye as _eye
from .basic import matmul as _matmul, dot as _dot
from .surface import made
from ..core.inplace import inplace as _inplace

# functions the rows give
_expand, _reshape, _permute, _sum, _where, addmm, addmv, addr, inverse = (made(n) for n in (
    "expand", "reshape", "permute", "sum", "where", "addmm", "addmv", "addr", "inverse"))

__all__ = ["addmm_", "bmm", "baddbmm", "baddbmm_", "tensordot", "einsum", "outer", "ger", "inner", "addmv_", "addr_",
           "matrix_power", "logdet", "svd", "qr", "lu", "lu_unpack", "lu_solve"]

SlogdetResult = result_type("slogdet", ("sign", "logabsdet"))  # what slogdet's signature makes it return
LinalgSlogdetResult = result_type("linalg_slogdet", ("sign", "logabsdet"))  # torch.linalg.slogdet's


def _solve(A, B, left=True, ex=False):
    A = tensor_in(A)
    square_matrices(A, "linalg.solve", lu=False)
    B = as_tensor_like(B, A)
    if B.array.ndim == 0:
        raise RuntimeError("linalg.solve: The input tensor B must have at least 2 dimensions.")
    if B.array.dtype != A.array.dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A of type "
                           f"{scalar_name(A)} and B of type {scalar_name(B)} instead")
    lu_dtype(A, "linalg.solve")
    sa, sb = A.array.shape, B.array.shape
    # PyTorch's rule: B is a vector (or a batch of them) when 1-D or A's shape without its last dim
    vector = len(sb) == 1 or (len(sb) == len(sa) - 1 and sb == sa[:-1])
    n = sa[-1]
    rows, cols = (sb[-1], 1) if vector else sb[-2:]
    if (rows if left else cols) != n:
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {rows}x{cols})")
    check_broadcastable(sb[:-1] if vector else sb[:-2], sa[:-2])
    params = {"vector": vector} if left else {"vector": vector, "left": False}
    try:  # (solve_ex's row: inf/NaN for a singular A, no error)
        return apply(_op["linalg_solve_ex" if ex else "linalg_solve"], A, B, **params)
    except numpy.linalg.LinAlgError:
        raise singular(A, "torch.linalg.solve",
                       lambda k: "The solver failed because the input matrix is singular.") from None


# ------------------------------------------------------------- torch.* functions

def addmm_(input, mat1, mat2, *, beta=1, alpha=1):
    """In-place addmm: input must have the product's shape (it does not broadcast in place)."""
    x = tensor_in(input)
    a, b = as_tensor_like(mat1, x), as_tensor_like(mat2, x)
    if a.array.ndim == 2 and b.array.ndim == 2:
        target = [a.array.shape[0], b.array.shape[1]]
        if list(x.array.shape) != target and a.array.shape[1] == b.array.shape[0]:
            raise RuntimeError(f"Bad in-place call: input tensor size {list(x.array.shape)} and output tensor "
                               f"size {target} should match")
    return _inplace(x, addmm, a, b, beta=beta, alpha=alpha)


Tensor.addmm_ = addmm_  # PyTorch's own message for a shape that would broadcast


def bmm(input, mat2):
    """Batched matrix product of two 3-D tensors.

    Batched matrix product of two 3-D tensors (b, n, m) @ (b, m, p)."""
    a, b = tensor_in(input), as_tensor_like(mat2, input)
    _check_batches(a, b)
    same_dtype(a, b)
    not_bool("bmm", a)
    return apply(_op["matmul"], a, b)  # named BmmBackward0 for these shapes


def _check_batches(a, b):
    """PyTorch's checks of bmm's and baddbmm's batches of matrices: (b, n, m) and (b, m, p)."""
    if a.array.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.array.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    expected = [a.array.shape[0], a.array.shape[2]]
    if list(b.array.shape[:2]) != expected:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: {expected} but got: "
                           f"{list(b.array.shape[:2])}.")


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """beta * input + alpha * (batch1 @ batch2) for batches of matrices (b, n, m) @ (b, m, p); input
    broadcasts to (b, n, p), and with beta 0 it is ignored (its NaNs too)."""
    x = tensor_in(input)
    a, b = as_tensor_like(batch1, x), as_tensor_like(batch2, x)
    _check_batches(a, b)
    check_expands(x, (a.array.shape[0], a.array.shape[1], b.array.shape[2]))
    if x.array.dtype != a.array.dtype:
        cpp = [_dt.cpp_name(_dt.as_dtype(t.array.dtype)) for t in (x, a, b)]
        raise RuntimeError(f"Input dtypes must be the same, got: input {cpp[0]}, batch1: {cpp[1]}, batch2: {cpp[2]}")
    same_dtype(a, b)
    not_bool("baddbmm", x)
    return apply(_op["addmm"], x, a, b, **factors(x, beta, alpha))


def baddbmm_(input, batch1, batch2, *, beta=1, alpha=1):
    """In-place baddbmm: input must have the product's shape (it does not broadcast in place)."""
    x = tensor_in(input)
    a, b = as_tensor_like(batch1, x), as_tensor_like(batch2, x)
    if a.array.ndim == 3 and b.array.ndim == 3:
        target = [a.array.shape[0], a.array.shape[1], b.array.shape[2]]
        if list(x.array.shape) != target:
            raise RuntimeError(f"Bad in-place call: input tensor size {list(x.array.shape)} and output tensor "
                               f"size {target} should match")
    return _inplace(x, baddbmm, a, b, beta=beta, alpha=alpha)


def tensordot(a, b, dims=2, out=None):
    """Sums the products of a and b over pairs of dims: an int n pairs a's last n dims with b's first
    n; a pair of lists pairs a's dims[0] with b's dims[1]. The result has a's other dims, then b's.
    PyTorch's composition: permute, reshape to matrices, mm, reshape (a contracted dim of size 1
    on one side is summed on the other first)."""
    if out is not None:
        raise TypeError("tensordot(): out= is not supported here; assign the result instead")
    a, b = tensor_in(a), tensor_in(b)
    dims_a, dims_b = _tensordot_dims(a, b, dims)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a.array.dtype != b.array.dtype:
        raise RuntimeError("both inputs should have same dtype")
    t1, t2, csize = a, b, 1
    for da, db in zip(dims_a, dims_b):
        s1, s2 = a.array.shape[wrap_dim(da, a.array.ndim)], b.array.shape[wrap_dim(db, b.array.ndim)]
        if s2 == 1:
            t1 = _sum(t1, da, keepdim=True)
        elif s1 == 1:
            t2 = _sum(t2, db, keepdim=True)
        elif s1 != s2:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} in dim {da} and "
                               f"second has size {s2} in dim {db}")
        else:
            csize *= s1
    free_a, free_b = _free_dims(dims_a, a.array.ndim), _free_dims(dims_b, b.array.ndim)
    rows, cols = ([t.array.shape[i] for i in free] for t, free in ((t1, free_a), (t2, free_b)))
    if math.prod(rows) == 1 and math.prod(cols) == 1:  # PyTorch's: a dot of the two as vectors
        t1 = _reshape(_permute(t1, tuple(free_a) + tuple(dims_a)), (csize,))
        t2 = _reshape(_permute(t2, tuple(dims_b) + tuple(free_b)), (csize,))
        return _reshape(_dot(t1, t2), tuple(rows + cols))
    t1 = _reshape(_permute(t1, tuple(free_a) + tuple(dims_a)), (math.prod(rows), csize))
    t2 = _reshape(_permute(t2, tuple(dims_b) + tuple(free_b)), (csize, math.prod(cols)))
    return _reshape(_mm(t1, t2), tuple(rows + cols))


def _tensordot_dims(a, b, dims):
    """(a's dims, b's dims) from tensordot's dims= (PyTorch's Python front)."""
    if isinstance(dims, Tensor):
        if dims.numel() > 1:
            return [int(d) for d in dims.array[0].tolist()], [int(d) for d in dims.array[1].tolist()]
        dims = int(dims.item())
    elif isinstance(dims, (tuple, list)):
        dims_a, dims_b = dims
        for name, position, value in (("dims_self", 3, dims_a), ("dims_other", 4, dims_b)):
            if not isinstance(value, (tuple, list)):
                raise TypeError(f"tensordot(): argument '{name}' (position {position}) must be tuple of ints, not "
                                f"{type(value).__name__}")
        return [int(d) for d in dims_a], [int(d) for d in dims_b]
    elif isinstance(dims, bool) or not isinstance(dims, (int, numpy.integer)):
        raise RuntimeError(f"tensordot expects dims to be int or tuple[list[int], list[int]] or list[list[int]] "
                           f"containing two lists, but got dims={dims}")
    if dims < 0:
        raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
    if dims > min(a.array.ndim, b.array.ndim):
        raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
    return list(range(-dims, 0)), list(range(dims))


def _free_dims(contracted, nd):
    """The dims of an nd-dim operand that tensordot keeps, in order (each contracted one named once)."""
    seen = set()
    for d in contracted:
        d = wrap_dim(d, nd)
        if d in seen:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        seen.add(d)
    return [i for i in range(nd) if i not in seen]


def outer(input, vec2):
    """The outer product of two vectors: input reshaped to a column, times vec2 (PyTorch's MulBackward0)."""
    a = tensor_in(input)
    b = as_tensor_like(vec2, a)
    for name, v in (("self", a), ("vec2", b)):
        if v.array.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v.array.ndim}-D")
    return apply(_op["mul"], _reshape(a, (a.array.shape[0], 1)), b)


def ger(input, vec2):
    """outer() by its older name (PyTorch's torch.ger)."""
    return outer(input, vec2)


Tensor.outer = outer  # methods too (no row of their own: PyTorch's outer is a mul)
Tensor.ger = ger


# ---------------------------------------------- inner, addmv_, addr_, matrix_power, logdet

def inner(input, other):
    """Sums of products over the last dims of the two (a number times a tensor where one is 0-d):
    PyTorch's composition, a tensordot over the last dims."""
    a = tensor_in(input)
    b = as_tensor_like(other, a)
    if a.array.ndim == 0 or b.array.ndim == 0:
        return a * b
    if a.array.shape[-1] != b.array.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(a.array.shape)} and {list(b.array.shape)}")
    return tensordot(a, b, ([-1], [-1]))


def addmv_(input, mat, vec, *, beta=1, alpha=1):
    """In-place addmv: input must have the product's shape (it does not broadcast in place)."""
    x = tensor_in(input)
    m = as_tensor_like(mat, x)
    if m.array.ndim == 2 and x.array.ndim <= 1 and list(x.array.shape) != [m.array.shape[0]]:
        raise RuntimeError(f"Bad in-place call: input tensor size {list(x.array.shape)} and output tensor size "
                           f"{[m.array.shape[0]]} should match")
    return _inplace(x, addmv, m, vec, beta=beta, alpha=alpha)


def addr_(input, vec1, vec2, *, beta=1, alpha=1):
    """In-place addr: input must be a matrix of the outer product's shape."""
    x = tensor_in(input)
    if x.array.ndim != 2:
        raise RuntimeError(f"2D tensor expected, got {x.array.ndim}D tensor for input")
    return _inplace(x, addr, vec1, vec2, beta=beta, alpha=alpha)


def matrix_power(input, n):
    """The n-th power of a (batch of) square matrices, PyTorch's way: the identity (a copy into a
    clone) for 0, a clone for 1, the inverse's power for n < 0, else products by repeated
    squaring, in PyTorch's order (so the graph has its nodes)."""
    if isinstance(n, Tensor) and n.array.ndim == 0 and n.array.dtype.kind in "iu":
        n = n.item()
    if isinstance(n, (bool, numpy.bool_)) or not isinstance(n, (int, numpy.integer)):
        raise TypeError(f"matrix_power(): argument 'n' (position 2) must be int, not {type(n).__name__}")
    a = tensor_in(input)
    square_matrices(a, "linalg.matrix_power", lu=False, floating=False)
    n = int(n)
    if n == 0:
        identity = _eye(a.array.shape[-1], dtype=a.dtype, device=a.device)
        return a.clone().copy_(_expand(identity, a.array.shape))
    if n < 0:
        a, n = inverse(a), -n
        if n == 1:
            return a
    elif n == 1:
        return a.clone()
    if n == 2:
        return _matmul(a, a)
    if n == 3:
        return _matmul(_matmul(a, a), a)
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = a if z is None else _matmul(z, z)
        if bit:
            result = z if result is None else _matmul(result, z)
    return result


def logdet(input):
    """log det A: NaN where det A < 0, -inf where A is singular (PyTorch's where over slogdet)."""
    sign, logabsdet = slogdet_parts(tensor_in(input), "logdet")
    return _where(sign == -1, math.nan, logabsdet)


def svd(input, some=True, compute_uv=True):
    """(U, S, V) with input = U diag(S) V^T (some=False: U and V square), as torch.svd (V is
    linalg.svd's Vh transposed); compute_uv=False: U and V zeros."""
    from .decomp import svd as _linalg_svd, svdvals as _svdvals, SvdResult
    a = tensor_in(input)
    if not compute_uv:
        m, n = a.array.shape[-2:] if a.array.ndim >= 2 else (0, 0)
        s = _svdvals(a)
        batch = tuple(a.array.shape[:-2])
        return SvdResult(_zeros_like_shape(a, batch + (m, m)), s, _zeros_like_shape(a, batch + (n, n)))
    u, s, vh = _linalg_svd(a, full_matrices=not some)
    return SvdResult(u, s, apply(_op["transpose"], vh, dim0=-2, dim1=-1))


def _zeros_like_shape(a, shape):
    return make_tensor(array_module(a.device).zeros(shape, dtype=a.array.dtype), a.device)


def qr(input, some=True):
    """(Q, R) with input = Q R, as torch.qr: some=True is linalg.qr's 'reduced', False its 'complete'."""
    from .decomp import qr as _linalg_qr, QrResult
    warnings.warn("torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch release.\n"
                  "The boolean parameter 'some' has been replaced with a string parameter 'mode'.\nQ, R = torch.qr(A, "
                  "some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else 'complete')",
                  UserWarning, stacklevel=2)
    return QrResult(*_linalg_qr(input, "reduced" if some else "complete"))


Tensor.svd = svd
Tensor.qr = qr
Tensor.inner = inner  # methods too (composed, no row of their own)
Tensor.matrix_power = matrix_power
Tensor.logdet = logdet



# --------------------------------------------------------------------- einsum

_LABELS = string.ascii_letters
_ELLIPSIS = "..."
_NO_OPERANDS = ("einsum(): must specify the equation string and at least one operand, or at least one operand "
                "and its subscripts list")


def einsum(*args):
    """Sums of products of the operands, by an equation such as 'ij,jk->ik' (Einstein summation).

    einsum(equation, *operands), einsum(equation, [operands]) or the sublist form
    einsum(op0, sublist0, op1, sublist1, ..., [output_sublist]), as torch.einsum: repeated
    letters take diagonals, letters left out of the output are summed, `...` stands for the
    leading dims (broadcast), and size-1 dims broadcast."""
    if not args:
        raise ValueError(_NO_OPERANDS)
    if isinstance(args[0], str):
        equation, operands = args[0], args[1:]
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = tuple(operands[0])
    elif isinstance(args[0], Tensor):
        equation, operands = _sublist_equation(args)
    else:
        raise TypeError(f"einsum(): argument 'equation' (position 1) must be str, not {type(args[0]).__name__}")
    if not operands:
        raise ValueError(_NO_OPERANDS)
    for i, t in enumerate(operands):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 1, but got {type(t).__name__}")
    inputs, out = _parse_einsum(equation, operands)
    operands = _broadcast_operands(operands, inputs)
    if len(operands) == 1:
        return _einsum_one(operands[0], inputs[0], out)
    name = _einsum_node_name(",".join(inputs) + "->" + out)
    acc, acc_letters = operands[0], inputs[0]
    for k in range(1, len(operands)):
        if k == len(operands) - 1:
            result = out
        else:
            later = set(out).union(*inputs[k + 1:])
            result = "".join(c for c in dict.fromkeys(acc_letters + inputs[k]) if c in later)
        step = f"{acc_letters},{inputs[k]}->{result}"
        sizes = dict(zip(inputs[k], operands[k].array.shape))
        if any(sizes[c] != 1 for c in set(acc_letters) & set(inputs[k]) if c not in result):
            # PyTorch contracts this pair with bmm: one dtype, no bools (a plain product promotes)
            same_dtype(acc, operands[k])
            not_bool("bmm", acc)
        params = {"equation": step}
        if k == len(operands) - 1 and _einsum_node_name(step) != name:
            params["name"] = name  # the result is named after the whole equation, as PyTorch's
        acc, acc_letters = apply(_op["einsum"], acc, operands[k], **params), result
    return acc


def _sublist_equation(args):
    def letters(sublist):
        out = []
        for s in sublist:
            if s is Ellipsis:
                out.append(_ELLIPSIS)
            elif isinstance(s, int) and 0 <= s < 52:
                out.append(chr(ord("A") + s) if s < 26 else chr(ord("a") + s - 26))
            else:
                raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")
        return "".join(out)
    operands = args[0::2][:len(args) // 2]
    terms = [letters(s) for s in args[1::2][:len(operands)]]
    equation = ",".join(terms)
    if len(args) % 2:
        equation += "->" + letters(args[-1])
    return equation, tuple(operands)


def _parse_labels(text, offset, what):
    """The labels of one term: letters, with `...` as one entry."""
    labels = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == " ":
            i += 1
            continue
        if c == ".":
            if _ELLIPSIS in labels:
                raise RuntimeError(f"einsum(): found '.' for {what} for which an ellipsis was already found"
                                   if what != "output" else
                                   "einsum(): found '.' for output but an ellipsis (...) was already found")
            if text[i:i + 3] != _ELLIPSIS:
                raise RuntimeError(f"einsum(): found '.' for {what} that is not part of any ellipsis"
                                   + (" (...)" if what == "output" else ""))
            labels.append(_ELLIPSIS)
            i += 3
            continue
        if c not in _LABELS:
            raise RuntimeError(f"einsum(): invalid subscript given at index {offset + i} in the equation "
                               f"string, subscripts must be in [a-zA-Z]")
        labels.append(c)
        i += 1
    return labels


def _parse_einsum(equation, operands):
    """Each operand's letters and the output's, explicit: one letter per dim, `...` replaced by
    letters of its own (right-aligned, broadcast)."""
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    terms = lhs.split(",")
    if len(terms) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(terms) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    inputs, start = [], 0
    for i, term in enumerate(terms):
        inputs.append(_parse_labels(term, start, f"operand {i}"))
        start += len(term) + 1
    ell_dims = 0
    for i, (labels, t) in enumerate(zip(inputs, operands)):
        nd = t.array.ndim
        if _ELLIPSIS in labels:
            if len(labels) - 1 > nd:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(labels) - 1}) is more "
                                   f"than the number of dimensions ({nd}) for operand {i}")
            ell_dims = max(ell_dims, nd - len(labels) + 1)
        elif len(labels) != nd:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(labels)}) does not match "
                               f"the number of dimensions ({nd}) for operand {i} and no ellipsis was given")
    used = {c for labels in inputs for c in labels}
    if arrow >= 0:
        output = _parse_labels(equation[arrow + 2:], arrow + 2, "output")
        seen = set()
        for c in output:
            if c == _ELLIPSIS:
                continue
            if c not in used or c in seen:
                raise RuntimeError(f"einsum(): output subscript {c} "
                                   + ("appears more than once in the output" if c in seen else
                                      "does not appear in the equation for any input operand"))
            seen.add(c)
        used |= set(output)
    else:
        counts = {}
        for labels in inputs:
            for c in labels:
                counts[c] = counts.get(c, 0) + 1
        output = ([_ELLIPSIS] if _ELLIPSIS in counts else []) + sorted(
            c for c, n in counts.items() if n == 1 and c != _ELLIPSIS)
    free = [c for c in _LABELS if c not in used]
    if ell_dims > len(free):
        raise RuntimeError("einsum(): too many dimensions: at most 52 letters and dims of an ellipsis together")
    ell = "".join(free[:ell_dims])

    def explicit(labels, nd):
        if _ELLIPSIS not in labels:
            return "".join(labels)
        k = labels.index(_ELLIPSIS)
        own = nd - len(labels) + 1
        return "".join(labels[:k]) + ell[ell_dims - own:] + "".join(labels[k + 1:])

    return ([explicit(labels, t.array.ndim) for labels, t in zip(inputs, operands)],
            explicit(output, ell_dims + len(output) - (_ELLIPSIS in output)))


def _broadcast_operands(operands, inputs):
    """Operands expanded where a letter has size 1 and another operand gives it more."""
    sizes = {}
    for i, (t, letters) in enumerate(zip(operands, inputs)):
        own = {}
        for c, s in zip(letters, t.array.shape):
            if c in own and own[c] != s:
                raise RuntimeError(f"einsum(): subscript {c} is repeated for operand {i} but the sizes don't match, "
                                   f"{s} != {own[c]}")
            own[c] = s
        for c, s in own.items():
            seen = sizes.get(c)
            if seen is None or seen == 1:
                sizes[c] = s
            elif s != 1 and s != seen:
                raise RuntimeError(f"einsum(): subscript {c} has size {s} for operand {i} which does not broadcast "
                                   f"with previously seen size {seen}")
    out = []
    for t, letters in zip(operands, inputs):
        shape = tuple(sizes[c] for c in letters)
        out.append(t if shape == t.array.shape else _expand(t, shape))
    return out


def _einsum_one(x, letters, out):
    """One operand, as PyTorch: diagonals for repeated letters, a permute to the output's order
    (even when it changes nothing: the result is a view), then a sum of the letters left out."""
    letters = list(letters)
    while True:
        repeated = next((c for c in letters if letters.count(c) > 1), None)
        if repeated is None:
            break
        i = letters.index(repeated)
        j = letters.index(repeated, i + 1)
        x = apply(_op["diagonal"], x, offset=0, dim1=i, dim2=j)  # the diagonal's dim goes last
        letters = [c for k, c in enumerate(letters) if k not in (i, j)] + [repeated]
    summed = [k for k, c in enumerate(letters) if c not in out]
    x = apply(_op["permute"], x, dims=tuple(letters.index(c) for c in out) + tuple(summed))
    if summed:
        x = apply(_op["sum"], x, dim=tuple(range(len(out), len(letters))), keepdim=False)
    return x


# ------------------------------------------ the _ex functions of torch.linalg; torch.lu, lu_unpack, lu_solve

LinalgSolveExResult = result_type("linalg_solve_ex", ("result", "info"))
LinalgInvExResult = result_type("linalg_inv_ex", ("inverse", "info"))
LinalgCholeskyExResult = result_type("linalg_cholesky_ex", ("L", "info"))
LinalgLuFactorExResult = result_type("linalg_lu_factor_ex", ("LU", "pivots", "info"))
LuWithInfoResult = result_type("_lu_with_info", ("LU", "pivots", "info"))  # torch.lu(get_infos=True)'s
LuUnpackResult = result_type("lu_unpack", ("P", "L", "U"))


def _lu_info(xp, lu):
    """LAPACK's getrf info of packed LUs: the place (1-based) of the first zero on U's diagonal, else 0."""
    zero = xp.diagonal(lu, 0, lu.ndim - 2, lu.ndim - 1) == 0
    if zero.shape[-1] == 0:
        return xp.zeros(zero.shape[:-1], dtype=numpy.int32)
    return xp.where(zero.any(axis=-1), xp.argmax(zero, axis=-1) + 1, 0).astype(numpy.int32)


def _check_info(info, what):
    """The error of the first matrix with a nonzero info (its batch element named in a batch):
    what(prefix, info) makes it."""
    host = host_array(info)
    if not host.any():
        return
    flat = host.reshape(-1)
    element = int(numpy.argmax(flat != 0))
    raise what(f"(Batch element {element}): " if host.ndim else "", int(flat[element]))


def _lu_info_of(A):
    xp = array_module(A.device)
    with numpy.errstate(all="ignore"):
        return make_tensor(_lu_info(xp, lu_kernel(xp, A.array)[0]), A.device)


def solve_ex(A, B, *, left=True, check_errors=False):
    """(result, info): linalg.solve with getrf's info for each matrix of A (the place of the first
    zero pivot, else 0); a singular A gives inf/NaN, as LAPACK's, unless check_errors."""
    A = tensor_in(A)
    result = _solve(A, B, bool(left), ex=True)
    info = _lu_info_of(A)
    if check_errors:
        _check_info(info, lambda prefix, k: LinAlgError(
            f"torch.linalg.solve_ex: {prefix}The solver failed because the input matrix is singular."))
    return LinalgSolveExResult(result, info)


def inv_ex(A, *, check_errors=False):
    """(inverse, info): linalg.inv with getrf's info for each matrix; a singular one gives inf/NaN
    unless check_errors."""
    A = tensor_in(A)
    square_matrices(A, "linalg.inv")
    result = apply(_op["linalg_inv_ex"], A)
    info = _lu_info_of(A)
    if check_errors:
        _check_info(info, lambda prefix, k: LinAlgError(f"linalg.inv_ex: {prefix}{_inverse_failed(k)}"))
    return LinalgInvExResult(result, info)


def cholesky_ex(A, *, upper=False, check_errors=False):
    """(L, info): linalg.cholesky with potrf's info (the order of the first leading minor that is
    not positive-definite, else 0). Where info > 0, L is LAPACK's unfinished factor (the failed
    pivot on the diagonal, the later columns A's own), unless check_errors."""
    A = tensor_in(A)
    square_matrices(A, "linalg.cholesky", lu=False)
    factor, info = cholesky_ex_kernel(array_module(A.device), A.array, bool(upper))
    info = make_tensor(info, A.device)
    if check_errors:
        _check_info(info, lambda prefix, k: LinAlgError(
            f"linalg.cholesky_ex: {prefix}The factorization could not be completed because the input is not "
            f"positive-definite (the leading minor of order {k} is not positive-definite)."))
    params = {"upper": True} if upper else {}
    return LinalgCholeskyExResult(apply(_op["linalg_cholesky"], A, factors=Factors((factor,)), **params), info)


def lu_factor_ex(A, *, pivot=True, check_errors=False):
    """(LU, pivots, info): linalg.lu_factor with getrf's info (the place of the first zero on U's
    diagonal, else 0), no error for it unless check_errors."""
    A = tensor_in(A)
    if A.array.ndim < 2:
        raise RuntimeError(f"torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(A.array.shape)} instead")
    if A.array.dtype.kind != "f":
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{scalar_name(A)}'")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    lu_dtype(A, "linalg.lu_factor")
    xp = array_module(A.device)
    with numpy.errstate(all="ignore"):
        factors = Factors(lu_kernel(xp, A.array))
    info = make_tensor(_lu_info(xp, factors[0]), A.device)
    if check_errors:
        _check_info(info, lambda prefix, k: RuntimeError(
            f"torch.linalg.lu_factor_ex: {prefix}U[{k},{k}] is zero and using it on lu_solve would result in a "
            f"division by zero. If you still want to perform the factorization, consider calling linalg.lu(A, "
            f"pivot) or linalg.lu_factor_ex(A, pivot)"))
    return LinalgLuFactorExResult(apply(_op["linalg_lu_factor"], A, factors=factors),
                                  make_tensor(factors[1].copy(), A.device), info)


def lu(input, pivot=True, get_infos=False):
    """(LU, pivots), with get_infos (LU, pivots, info): torch.lu, deprecated in PyTorch for
    torch.linalg.lu_factor(_ex); a singular matrix is no error."""
    warnings.warn("torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be "
                  "removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced "
                  "with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = torch.lu(A, "
                  "compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = "
                  "torch.linalg.lu_factor_ex(A, compute_pivots)", UserWarning, stacklevel=2)
    result = lu_factor_ex(input, pivot=pivot)
    return LuWithInfoResult(*result) if get_infos else (result[0], result[1])


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """(P, L, U) of lu_factor's packed (LU, pivots): A = P L U, P a permutation matrix (no gradient),
    L m x k with a unit diagonal, U k x n; unpack_data=False leaves L and U empty, unpack_pivots=False P."""
    LU = tensor_in(LU_data)
    pivots = as_tensor_like(LU_pivots, LU)
    if LU.array.ndim < 2:
        raise RuntimeError(f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(LU.array.shape)} instead")
    m, n = LU.array.shape[-2:]
    xp = array_module(LU.device)
    empty = make_tensor(xp.zeros((0,), dtype=LU.array.dtype), LU.device)
    P = empty
    if unpack_pivots:
        if pivots.array.dtype != numpy.int32:
            raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 "
                               "dtype.\nNote: this function is intended to be used with the output produced by "
                               "torch.linalg.lu_factor")
        p = host_array(pivots)
        if p.shape[-1:] != (min(m, n),) or p.size and (p.min() < 1 or p.max() > m):
            raise RuntimeError("pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive.Did you "
                               "properly pass the result of lu_factor?")
        P = make_tensor(permutation_matrix(xp, pivots.array, m, LU.array.dtype), LU.device)
    if not unpack_data:
        return LuUnpackResult(P, empty, empty)
    return LuUnpackResult(P, apply(_op["lu_unpack_l"], LU), apply(_op["lu_unpack_u"], LU))


def lu_solve(b, LU_data, LU_pivots):
    """X with A X = b for A given by lu_factor's (LU, pivots): torch.lu_solve, deprecated in PyTorch
    for torch.linalg.lu_solve (whose arguments are in the other order)."""
    from .decomp import lu_solve as _linalg_lu_solve
    warnings.warn("torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future "
                  "PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
                  "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
                  "X = torch.linalg.lu_solve(LU, pivots, B)", UserWarning, stacklevel=2)
    return _linalg_lu_solve(LU_data, LU_pivots, b)


Tensor.lu = lu  # methods too (PyTorch's Tensor.lu and lu_solve; no Tensor.lu_unpack)
Tensor.lu_solve = lu_solve
