"""The connectionist temporal classification loss: torch.ctc_loss (a row's function: its checks in
PyTorch's words, then the reduction composed of ordinary ops, as PyTorch composes it) and the two
rows under it -- ctc_loss, each sample's negative log-likelihood (CtcLossBackward0), and its
gradient as a row of its own (NotImplemented, as PyTorch's _ctc_loss_backward: a second derivative
raises PyTorch's error). torch.nn.functional.ctc_loss and nn.CTCLoss call the function.

A target of length L is read through its extended sequence l' of 2L + 1 labels, blanks between and
around the target's labels. The forward is the alpha recursion in log space, one step a time step
for the whole batch at once: alpha[t, s] = logsumexp(alpha[t-1, s], alpha[t-1, s-1], alpha[t-1, s-2]
where l'[s-2] != l'[s]) + log_probs[t, l'[s]]; the loss is -logsumexp of the last two states at the
sample's last time step. The gradient takes the beta recursion too (the same steps backwards in
time) and is PyTorch's: (exp(log_probs) - occupation) * g, the occupation of class c at t being the
sum over the states s with l'[s] = c of alpha * beta / (p * prob(t, c)). The exp(log_probs) term
makes it the gradient with respect to the logits of a log_softmax that made log_probs (it cancels
through log_softmax's backward), not the derivative of the loss itself -- PyTorch's choice, kept:
a gradient check goes through log_softmax. Zero past each sample's input length; NaN where the
sample's loss is infinite (no alignment), or zeros with zero_infinity.
"""
import numpy

from .. import dtypes as _dt
from ..core.tensor import TensorBase, array_module, host_array, make_tensor, run_op
from .activation_gradients import raw as _raw
from .table import TABLE, Op, scatter_add, tensor_argument

__all__ = ["CtcLoss", "CtcLossBackward"]

_ALLOCATE = " (while checking arguments for ctc_loss_allocate_outputs)"
_OVERLOADS = ("(Tensor log_probs, Tensor targets, tuple of ints input_lengths, tuple of ints target_lengths, int blank "
              "= 0, int reduction = at::Reduction::Mean, bool zero_infinity = False)",
              "(Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank = 0, int "
              "reduction = at::Reduction::Mean, bool zero_infinity = False)")


# ------------------------------------------------------------------------ the recursions

def _logsumexp(xp, *terms):
    """log(sum(exp(terms))) elementwise, -inf where every term is -inf (PyTorch's kernel: the
    largest term taken out, 0 in its place when it is -inf)."""
    top = terms[0]
    for t in terms[1:]:
        top = xp.maximum(top, t)
    empty = top == -xp.inf
    top = xp.where(empty, 0, top)
    total = xp.exp(terms[0] - top)
    for t in terms[1:]:
        total = total + xp.exp(t - top)
    return xp.where(empty, -xp.inf, xp.log(xp.where(empty, 1, total)) + top)


def _shift(xp, a, by):
    """a moved `by` places along its last dim (right for by > 0, left for by < 0), -inf filling in."""
    out = xp.full(a.shape, -xp.inf, dtype=a.dtype)
    if by > 0:
        out[..., by:] = a[..., :a.shape[-1] - by]
    else:
        out[..., :by] = a[..., -by:]
    return out


class _Lattice:
    """A batch's extended label sequences and what the recursions read of them: for each sample n
    and state s, its label l'[n, s], whether s is a state of the sample (s < 2 L + 1), whether the
    step s-2 -> s may skip a blank, and the log-probability of l'[n, s] at each time (T, N, S')."""

    def __init__(self, xp, lp, targets, target_lengths, blank):
        n, longest = targets.shape
        width = 2 * longest + 1
        self.labels = xp.full((n, width), blank, dtype=numpy.int64)
        self.labels[:, 1::2] = targets
        states = xp.arange(width)
        self.valid = states[None, :] < (2 * target_lengths + 1)[:, None]
        self.skip = xp.zeros((n, width), dtype=bool)
        self.skip[:, 2:] = self.labels[:, 2:] != self.labels[:, :-2]
        self.emit = xp.take_along_axis(lp, xp.broadcast_to(self.labels[None], (lp.shape[0], n, width)), axis=2)
        self.neg_inf = xp.asarray(-numpy.inf, dtype=lp.dtype)

    def alpha(self, xp, target_lengths):
        """log alpha (T, N, S'): the log-probability of each prefix path ending in state s at time t."""
        emit = self.emit
        alpha = xp.full(emit.shape, -xp.inf, dtype=emit.dtype)
        if not emit.shape[0]:
            return alpha
        alpha[0, :, 0] = emit[0, :, 0]
        if emit.shape[2] > 1:
            alpha[0, :, 1] = xp.where(target_lengths > 0, emit[0, :, 1], self.neg_inf)
        for t in range(1, emit.shape[0]):  # (sequential in time)
            prev = alpha[t - 1]
            step = _logsumexp(xp, prev, _shift(xp, prev, 1), xp.where(self.skip, _shift(xp, prev, 2), self.neg_inf))
            alpha[t] = xp.where(self.valid, step + emit[t], self.neg_inf)
        return alpha

    def beta(self, xp, input_lengths, target_lengths):
        """log beta (T, N, S'): the log-probability of each suffix path from state s at time t to
        the end (the emission at t included); -inf from each sample's input length on."""
        emit = self.emit
        beta = xp.full(emit.shape, -xp.inf, dtype=emit.dtype)
        states = xp.arange(emit.shape[2])[None, :]
        ends = (states == (2 * target_lengths)[:, None]) | (states == (2 * target_lengths - 1)[:, None])
        skip_ahead = xp.zeros(self.skip.shape, dtype=bool)  # may s skip to s + 2
        skip_ahead[:, :-2] = self.skip[:, 2:]
        after = xp.full(emit.shape[1:], -xp.inf, dtype=emit.dtype)
        for t in range(emit.shape[0] - 1, -1, -1):  # (sequential in time)
            step = _logsumexp(xp, after, _shift(xp, after, -1), xp.where(skip_ahead, _shift(xp, after, -2), self.neg_inf))
            inside = xp.where(self.valid, step + emit[t], self.neg_inf)
            last = (input_lengths - 1 == t)[:, None]
            later = (input_lengths - 1 > t)[:, None]
            after = xp.where(last, xp.where(ends, emit[t], self.neg_inf), xp.where(later, inside, self.neg_inf))
            beta[t] = after
        return beta


def _nll(xp, alpha, input_lengths, target_lengths):
    """Each sample's -log p from the alpha of its last time step; an empty input: -0 for an empty
    target, inf otherwise (PyTorch's)."""
    n = alpha.shape[1]
    rows = xp.arange(n)
    last = alpha[xp.maximum(input_lengths - 1, 0), rows] if alpha.shape[0] else xp.full((n, alpha.shape[2]), -xp.inf)
    end = last[rows, 2 * target_lengths]
    before = xp.where(target_lengths > 0, last[rows, xp.maximum(2 * target_lengths - 1, 0)], -xp.inf)
    ll = _logsumexp(xp, end, before)
    ll = xp.where(input_lengths == 0, xp.where(target_lengths == 0, 0.0, -xp.inf), ll)
    return (-ll).astype(alpha.dtype, copy=False)


def _gradient(xp, g, lp, nll, targets, input_lengths, target_lengths, blank, zero_infinity):
    """PyTorch's CTC gradient, (exp(lp) - occupation) * g per sample (see the module docstring)."""
    lattice = _Lattice(xp, lp, targets, target_lengths, blank)
    alpha = lattice.alpha(xp, target_lengths)
    beta = lattice.beta(xp, input_lengths, target_lengths)
    steps, n, width = alpha.shape
    # each state's occupation: alpha beta / (p prob); a state past the sample's own is none
    share = xp.exp(alpha + beta - lattice.emit + nll[None, :, None])
    share = xp.where(lattice.valid[None], share, 0)
    occupation = xp.zeros(lp.shape, dtype=lp.dtype)
    index = (xp.arange(steps)[:, None, None], xp.arange(n)[None, :, None],
             xp.broadcast_to(lattice.labels[None], (steps, n, width)))
    scatter_add(xp, occupation, index, share.astype(lp.dtype, copy=False))
    # PyTorch's exp(log(sum) + nll - lp) is NaN at lp = -inf and, for every class (with states or
    # without), where the loss is infinite
    occupation = xp.where((lp == -xp.inf) | ~(nll < xp.inf)[None, :, None], xp.nan, occupation)
    grad = (xp.exp(lp) - occupation) * g[None, :, None]
    keep = xp.arange(steps)[:, None] < input_lengths[None, :]
    if zero_infinity:
        keep = keep & (nll != xp.inf)[None, :]
    return xp.where(keep[:, :, None], grad, 0).astype(lp.dtype, copy=False)


class CtcLoss(Op):
    """Each sample's negative log-likelihood of its target under log_probs (T, N, C), summed over
    every alignment: (N,). `targets` is padded (N, longest), the lengths are int64 arrays."""
    name = "ctc_loss"
    node = "CtcLossBackward0"
    signature = ("ctc_loss(Tensor log_probs, Tensor targets, Any input_lengths, Any target_lengths, int blank=0, "
                 "int reduction=0, bool zero_infinity=False) -> Tensor")
    saves = (0, "out")
    saves_params = True

    def forward(xp, lp, targets=None, input_lengths=None, target_lengths=None, blank=0, zero_infinity=False):
        lattice = _Lattice(xp, lp, targets, target_lengths, blank)
        return _nll(xp, lattice.alpha(xp, target_lengths), input_lengths, target_lengths)

    def backward(F, ctx, g, lp, out, **params):
        return (F.ctc_loss_backward(g, lp, nll=_raw(out), **params),)

    def jvp(F, ctx, tangents, *saved, **params):
        raise NotImplementedError("Trying to use forward AD with _ctc_loss that does not support it because it has "
                                  "not been implemented yet.")

    def call(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity):
        return ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)


class CtcLossBackward(Op):
    """ctc_loss's gradient g(gradient (N,), log_probs): PyTorch's _ctc_loss_backward, which has no
    derivative of its own (a second derivative through ctc_loss raises, as there)."""
    name = "ctc_loss_backward"
    node = "NotImplemented"
    saves_params = True

    def forward(xp, g, lp, nll=None, targets=None, input_lengths=None, target_lengths=None, blank=0,
                zero_infinity=False):
        return _gradient(xp, g, lp, nll, targets, input_lengths, target_lengths, blank, zero_infinity)

    def backward(F, ctx, gg, **params):
        raise RuntimeError("derivative for aten::_ctc_loss_backward is not implemented")

    def jvp(F, ctx, tangents, *saved, **params):
        raise NotImplementedError("Trying to use forward AD with _ctc_loss_backward that does not support it because "
                                  "it has not been implemented yet.")


# ------------------------------------------------------------------------ the function

def _lengths(value, name):
    """A lengths argument as host int64 values: a tensor of an integer dtype (any shape, read flat,
    as PyTorch's), or a sequence of ints; None for anything else (the caller's overload error)."""
    if isinstance(value, TensorBase):
        if value.array.dtype.kind not in "iu":
            raise RuntimeError(f"{name} must be integral")
        return numpy.asarray(host_array(value), dtype=numpy.int64).reshape(-1)
    if isinstance(value, (list, tuple)) and all(isinstance(v, (int, numpy.integer)) and not isinstance(v, bool)
                                               for v in value):
        return numpy.asarray([int(v) for v in value], dtype=numpy.int64)
    return None


def _argument_kind(value):
    """How PyTorch's argument parser names an argument's type in its overload message."""
    if isinstance(value, TensorBase):
        return "Tensor"
    return type(value).__name__


def _overload_error(*arguments):
    got = ", ".join(_argument_kind(a) for a in arguments)
    lines = "".join(f" * {o}\n" for o in _OVERLOADS)
    return TypeError(f"ctc_loss() received an invalid combination of arguments - got ({got}), but expected one "
                     f"of:\n{lines}")


def _checked_lengths(log_probs, targets, input_lengths, target_lengths, blank):
    """PyTorch's checks in its order: (log_probs as 3-d, targets padded (N, longest) int64 host
    array, input lengths, target lengths)."""
    if log_probs.array.dtype.kind != "f" or log_probs.array.dtype == numpy.float16:
        name = _dt.scalar_name(_dt.as_dtype(log_probs.array.dtype))
        raise NotImplementedError(f"\"ctc_loss_cpu\" not implemented for '{name}'")
    if log_probs.array.size == 0:
        raise RuntimeError("log_probs tensor must not be empty")
    lp_shape = log_probs.array.shape if log_probs.array.ndim == 3 else \
        log_probs.array.shape[:1] + (1,) + log_probs.array.shape[1:]
    if len(lp_shape) != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {len(lp_shape)}-dimensional tensor for argument "
                           f"#1 'log_probs'{_ALLOCATE}")
    if targets.array.ndim not in (1, 2):
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.array.ndim}-dimensional tensor for "
                           f"argument #2 'targets'{_ALLOCATE}")
    if targets.array.dtype.kind not in "iu":  # (PyTorch reads any other dtype's bits as int32s)
        name = _dt.scalar_name(_dt.as_dtype(targets.array.dtype))
        raise RuntimeError(f"ctc_loss: expected targets of an integer dtype (Long or Int), but got {name}")
    steps, batch, classes = lp_shape
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    if input_lengths.size != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if target_lengths.size != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    flat = host_array(targets).astype(numpy.int64)
    width = flat.shape[1] if flat.ndim == 2 else None
    bad = (target_lengths < 0) | ((target_lengths > width) if width is not None else False)
    if bad.any():  # (PyTorch names the first bad sample's)
        length = int(target_lengths[int(numpy.argmax(bad))])
        if length < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got value {length}{_ALLOCATE}")
        raise RuntimeError(f"Expected tensor to have size at least {length} at dimension 1, but got size {width} for "
                           f"argument #2 'targets'{_ALLOCATE}")
    if flat.ndim == 1:
        total = int(target_lengths.sum())
        if flat.shape[0] != total:
            raise RuntimeError(f"Expected tensor to have size {total} at dimension 0, but got size {flat.shape[0]} "
                               f"for argument #2 'targets'{_ALLOCATE}")
        longest = int(target_lengths.max()) if batch else 0
        starts = numpy.concatenate([[0], numpy.cumsum(target_lengths)[:-1]]).astype(numpy.int64)
        positions = numpy.minimum(starts[:, None] + numpy.arange(longest)[None, :], max(total - 1, 0))
        flat = flat[positions] if total else numpy.zeros((batch, longest), dtype=numpy.int64)
    bad = (input_lengths < 0) | (input_lengths > steps)
    if bad.any():
        length = int(input_lengths[int(numpy.argmax(bad))])
        if length < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got value {length}{_ALLOCATE}")
        raise RuntimeError(f"Expected input_lengths to have value at most {steps}, but got value {length}{_ALLOCATE}")
    used = flat[numpy.arange(flat.shape[1])[None, :] < target_lengths[:, None]]
    if used.size and (used.min() < 0 or used.max() >= classes):  # (PyTorch reads past the class dim)
        bad = int(used[(used < 0) | (used >= classes)][0])
        raise IndexError(f"Target {bad} is out of bounds.")
    return lp_shape, flat


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0, zero_infinity=False):
    """The CTC loss of log_probs (T, N, C) or (T, C), log-probabilities over C classes (class
    `blank` the blank) at each of T time steps, against targets padded (N, S) or concatenated
    (sum of target_lengths,): each sample's -log of the probability of all the alignments of its
    target within its input length. reduction 0 ('none'), 1 ('mean': each loss over its target
    length, clamped to 1, then the batch mean) or 2 ('sum'); zero_infinity puts 0 for the infinite
    losses of impossible alignments (and their gradients)."""
    given = (log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)
    tensor_argument(log_probs, "ctc_loss", "log_probs", 1)
    tensor_argument(targets, "ctc_loss", "targets", 2)
    both_tensors = isinstance(input_lengths, TensorBase) and isinstance(target_lengths, TensorBase)
    if both_tensors != (isinstance(input_lengths, TensorBase) or isinstance(target_lengths, TensorBase)):
        raise _overload_error(*given)
    ins, outs = _lengths(input_lengths, "input_lengths"), _lengths(target_lengths, "target_lengths")
    if ins is None or outs is None:
        raise _overload_error(*given)
    blank, reduction = int(blank), int(reduction)
    lp_shape, padded = _checked_lengths(log_probs, targets, ins, outs, blank)
    batched = log_probs.array.ndim == 3
    x = log_probs if batched else log_probs.unsqueeze(1)
    xp = array_module(x.device)
    res = run_op(TABLE["ctc_loss"], (x,), {
        "targets": xp.asarray(padded), "input_lengths": xp.asarray(ins), "target_lengths": xp.asarray(outs),
        "blank": blank, "zero_infinity": bool(zero_infinity)})
    if zero_infinity:
        infinite = make_tensor(res.array == xp.inf, res.device)
        res = TABLE["where"].call(infinite, make_tensor(xp.zeros((), dtype=res.array.dtype), res.device), res)
    if reduction == 1:
        divisor = make_tensor(xp.asarray(numpy.maximum(outs, 1), dtype=res.array.dtype), res.device)
        return (res / divisor).mean()
    if reduction == 2:
        return res.sum()
    return res if batched else res.squeeze(0)
