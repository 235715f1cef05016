"""Op cases of the rows of engine/ops/ctc.py and engine/ops/fractional_pool.py (see
tests/engine/ops/op_cases.py for what a case is).

fractional_max_pool: the reference is a loop over every window (tests/support/fractional_reference.py)
from PyTorch's interval formula, on distinct values (no ties), with fixed samples.

ctc_loss: the reference is the brute-force sum over every alignment (tests/support/ctc_reference.py),
independent of the alpha-beta recursion. PyTorch's gradient of ctc_loss is the gradient with
respect to the logits under a log_softmax (see engine/ops/ctc.py), so its gradient check goes
through log_softmax. ctc_loss_backward (PyTorch's _ctc_loss_backward) has no derivative, in PyTorch
as here: its checks of derivatives are expected to fail, with PyTorch's error.

Node names are PyTorch 2.13's."""
import numpy as np

import autodiff.engine as ad
from op_cases import C
from ctc_reference import ctc_batch
from fractional_reference import loop_pool, loop_unpool

F = ad.nn.functional

# ------------------------------------------------------------------------------- ctc_loss

CTC_TARGETS = np.array([[1, 2, 2], [3, 1, 0]])
CTC_INPUT_LENGTHS, CTC_TARGET_LENGTHS = [5, 4], [3, 2]
_NO_SECOND = ("PyTorch has no derivative of _ctc_loss_backward (the gradient's node is NotImplemented): a second "
              "derivative raises its error, as PyTorch's (tests/engine/test_ctc_loss.py checks the message)")


def np_log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def _log_probs(rng, shapes):
    return [np_log_softmax(rng.standard_normal(shapes[0]), 2)]


def _ctc(lp, reduction="none"):
    return F.ctc_loss(lp, ad.tensor(CTC_TARGETS), CTC_INPUT_LENGTHS, CTC_TARGET_LENGTHS, reduction=reduction)


C("ctc_loss", "logits_none", lambda x: _ctc(ad.log_softmax(x, 2)), [(5, 2, 4)],
  lambda x: ctc_batch(np_log_softmax(x, 2), CTC_TARGETS, CTC_INPUT_LENGTHS, CTC_TARGET_LENGTHS)[0],
  "CtcLossBackward0", gradgrad=_NO_SECOND)
C("ctc_loss", "logits_concatenated_blank_2",
  lambda x: F.ctc_loss(ad.log_softmax(x, 2), ad.tensor([1, 0, 3, 3]), [4, 3], [3, 1], blank=2, reduction="none"),
  [(4, 2, 4)],
  lambda x: ctc_batch(np_log_softmax(x, 2), np.array([[1, 0, 3], [3, 0, 0]]), [4, 3], [3, 1], blank=2)[0],
  "CtcLossBackward0", gradgrad=_NO_SECOND)
_LOGITS_GRADIENT = ("PyTorch's CTC gradient is exp(log_probs) - occupation, the gradient with respect to the logits "
                    "under a log_softmax, not the derivative of the loss in log_probs (which lacks exp(log_probs)): "
                    "finite differences of the loss itself differ from it by design (the logits cases check it)")
C("ctc_loss", "log_probs_directly", _ctc, [(5, 2, 4)],
  lambda lp: ctc_batch(lp, CTC_TARGETS, CTC_INPUT_LENGTHS, CTC_TARGET_LENGTHS)[0], "CtcLossBackward0",
  gen=_log_probs, xfail={"grad": _LOGITS_GRADIENT, "gradgrad": _NO_SECOND})


def _ctc_gradient(lp):
    """ctc_loss's gradient made with create_graph: the ctc_loss_backward row's result."""
    (g,) = ad.autograd.grad(_ctc(lp).sum(), lp, create_graph=True)
    return g


C("ctc_loss_backward", "of_log_probs", _ctc_gradient, [(5, 2, 4)],
  lambda lp: ctc_batch(lp, CTC_TARGETS, CTC_INPUT_LENGTHS, CTC_TARGET_LENGTHS)[1], "NotImplemented",
  gen=_log_probs, xfail={"grad": _NO_SECOND, "gradgrad": _NO_SECOND})


# ------------------------------------------------------------------- fractional_max_pool

U2 = np.array([[[0.13, 0.71], [0.52, 0.05]], [[0.91, 0.38], [0.27, 0.66]]])   # (N, C, 2)
U3 = np.array([[[0.13, 0.71, 0.44], [0.52, 0.05, 0.98]]])                       # (N, C, 3)


def _distinct(rng, shapes):
    """Values far enough apart that no window's maximum changes under a gradient check's step."""
    out = []
    for shape in shapes:
        n = int(np.prod(shape))
        out.append(rng.permutation(np.linspace(-2.0, 2.0, n)).reshape(shape))
    return out


def _pool2d(x):
    return F.fractional_max_pool2d(x, (2, 3), output_size=(3, 4), _random_samples=ad.tensor(U2))


def _pool3d(x):
    return F.fractional_max_pool3d(x, (2, 2, 3), output_size=(2, 3, 3), _random_samples=ad.tensor(U3))


C("fractional_max_pool", "2d", _pool2d, [(2, 2, 6, 9)], lambda x: loop_pool(x, U2, (2, 3), (3, 4))[0],
  "FractionalMaxPool2DBackward0", gen=_distinct)
C("fractional_max_pool", "2d_unbatched",
  lambda x: F.fractional_max_pool2d(x, 2, output_size=(4, 3), _random_samples=ad.tensor(U2[:1])), [(2, 6, 5)],
  lambda x: loop_pool(x[None], U2[:1], (2, 2), (4, 3))[0][0], "FractionalMaxPool2DBackward0", gen=_distinct)
C("fractional_max_pool", "3d", _pool3d, [(1, 2, 4, 6, 7)], lambda x: loop_pool(x, U3, (2, 2, 3), (2, 3, 3))[0],
  "FractionalMaxPool3DBackward0", gen=_distinct)


def _pool_gradient(pool):
    def fn(x, w):
        (g,) = ad.autograd.grad(pool(x), x, w, create_graph=True)
        return g
    return fn


C("fractional_max_pool_backward", "2d", _pool_gradient(_pool2d), [(2, 2, 6, 9), (2, 2, 3, 4)],
  lambda x, w: loop_unpool(w, loop_pool(x, U2, (2, 3), (3, 4))[1], x.shape), "FractionalMaxPool2DBackwardBackward0",
  gen=_distinct)
C("fractional_max_pool_backward", "3d", _pool_gradient(_pool3d), [(1, 2, 4, 6, 7), (1, 2, 2, 3, 3)],
  lambda x, w: loop_unpool(w, loop_pool(x, U3, (2, 2, 3), (2, 3, 3))[1], x.shape),
  "FractionalMaxPool3DBackwardBackward0", gen=_distinct)
