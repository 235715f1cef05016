"""The window functions: torch.hann_window and its kin (ATen's, a leaf; periodic = the first N of
N + 1 points) against numpy's hanning/hamming/bartlett/blackman/kaiser, and torch.signal.windows
against their defining formulas; PyTorch's refusals, and the language's torch.signal.windows."""
import math

import numpy as np
import pytest

import autodiff.engine as E
from autodiff.grammar.modules import import_from, resolve

W = E.signal.windows
NATIVE = [(E.hann_window, np.hanning), (E.hamming_window, np.hamming), (E.bartlett_window, np.bartlett),
          (E.blackman_window, np.blackman), (lambda n, p, **k: E.kaiser_window(n, p, 2.5, **k),
                                             lambda n: np.kaiser(n, 2.5))]


@pytest.mark.parametrize("k", range(len(NATIVE)))
@pytest.mark.parametrize("n", [0, 1, 2, 5, 8])
def test_native_windows_match_numpy(k, n):
    ours, numpys = NATIVE[k]
    np.testing.assert_allclose(ours(n, False, dtype=E.float64).numpy(), numpys(n), atol=1e-14)
    periodic = numpys(n + 1)[:n] if n > 1 else np.ones(n)  # N + 1 points, the last dropped
    np.testing.assert_allclose(ours(n, True, dtype=E.float64).numpy(), periodic, atol=1e-14)
    got = ours(n, True, dtype=E.float32)
    assert got.dtype == E.float32
    np.testing.assert_allclose(got.numpy(), periodic, atol=2e-7)


def test_hamming_window_alpha_beta_and_leaf():
    w = E.hamming_window(5, False, 0.7, 0.2, dtype=E.float64, requires_grad=True)
    np.testing.assert_allclose(w.detach().numpy(), 0.7 - 0.2 * np.cos(2 * np.pi * np.arange(5) / 4), atol=1e-15)
    assert w.requires_grad and w.is_leaf and w.grad_fn is None  # ATen's factory: a leaf
    assert E.hann_window(4).dtype == E.get_default_dtype()


@pytest.mark.parametrize("call, error, message", [
    (lambda: E.hann_window(-2), RuntimeError, "hann_window requires non-negative window_length, got window_length=-2"),
    (lambda: E.kaiser_window(-1), RuntimeError,
     "kaiser_window requires non-negative window_length, got window_length=-1"),
    (lambda: E.blackman_window(3, dtype=E.int64), RuntimeError,
     "blackman_window expects floating point dtypes, got: TensorOptions(dtype=long int, device=cpu, "
     "layout=Strided (default), requires_grad=false (default), pinned_memory=false, memory_format=(nullopt))"),
    (lambda: E.hann_window(4.0), TypeError, "hann_window(): argument 'window_length' (position 1) must be int, "
                                             "not float"),
    (lambda: W.hann(-1), ValueError, "general_cosine requires non-negative window length, got M=-1"),
    (lambda: W.kaiser(3, dtype=E.float16), ValueError, "kaiser expects float32 or float64 dtypes, got: torch.float16"),
    (lambda: W.kaiser(3, beta=-1.0), ValueError, "beta must be non-negative, got: -1.0 instead."),
    (lambda: W.gaussian(3, std=0), ValueError, "Standard deviation must be positive, got: 0 instead."),
    (lambda: W.exponential(3, tau=-1), ValueError, "Tau must be positive, got: -1 instead."),
    (lambda: W.exponential(3, center=1.0), ValueError, "Center must be None for symmetric windows"),
    (lambda: W.general_cosine(3, a=[]), ValueError, "Coefficients cannot be empty"),
    (lambda: W.general_cosine(3, a=2.0), TypeError, "Coefficients must be a list/tuple"),
])
def test_refusals(call, error, message):
    with pytest.raises(error) as e:
        call()
    assert str(e.value) == message


def _general_cosine(a, m, sym):
    n, span = np.arange(m), (m - 1 if sym else m)
    return sum((-1) ** i * c * np.cos(2 * np.pi * i * n / span) for i, c in enumerate(a))


def _references(m, sym):
    """Each torch.signal.windows function's defining formula over n = 0 .. M - 1 (sym=False: the
    periodic window, the formula of M + 1 points cut to M; PyTorch's window of one point is the
    symmetric one either way)."""
    sym = sym or m == 1
    n, span = np.arange(m), (m - 1 if sym else m)
    return {
        "bartlett": lambda: 1 - np.abs(2 * n / span - 1),
        "blackman": lambda: _general_cosine([0.42, 0.5, 0.08], m, sym),
        "cosine": lambda: np.sin(np.pi * (n + 0.5) / (m if sym else m + 1)),
        "exponential": lambda: np.exp(-np.abs(n - span / 2) / 2.5),
        "gaussian": lambda: np.exp(-0.5 * ((n - span / 2) / 1.7) ** 2),
        "general_cosine": lambda: _general_cosine([0.5, 0.3, 0.2], m, sym),
        "general_hamming": lambda: 0.6 - 0.4 * np.cos(2 * np.pi * n / span),
        "hamming": lambda: np.hamming(m) if sym else np.hamming(m + 1)[:m],
        "hann": lambda: np.hanning(m) if sym else np.hanning(m + 1)[:m],
        "kaiser": lambda: np.kaiser(m, 3.0) if sym else np.kaiser(m + 1, 3.0)[:m],
        "nuttall": lambda: _general_cosine([0.3635819, 0.4891775, 0.1365995, 0.0106411], m, sym),
    }


_KWARGS = {"exponential": {"tau": 2.5}, "gaussian": {"std": 1.7}, "general_cosine": {"a": [0.5, 0.3, 0.2]},
           "general_hamming": {"alpha": 0.6}, "kaiser": {"beta": 3.0}}


@pytest.mark.parametrize("name", sorted(_references(2, True)))
@pytest.mark.parametrize("m", [0, 1, 2, 5, 6])
@pytest.mark.parametrize("sym", [True, False])
def test_signal_windows_match_their_formulas(name, m, sym):
    got = getattr(W, name)(m, sym=sym, dtype=E.float64, **_KWARGS.get(name, {}))
    want = _references(m, sym)[name]() if m > 1 or name in ("cosine", "exponential", "gaussian") else np.ones(m)
    assert got.dtype == E.float64 and tuple(got.shape) == (m,)
    np.testing.assert_allclose(got.numpy(), want, atol=1e-13)


def test_exponential_center_and_float32():
    got = W.exponential(4, center=0.5, sym=False, dtype=E.float32)
    assert got.dtype == E.float32
    np.testing.assert_allclose(got.numpy(), np.exp(-np.abs(np.arange(4) - 0.5)), atol=1e-7)


def test_signal_windows_are_composed_as_pytorch():
    """requires_grad=True: the result is the last op's (not a leaf), as PyTorch's Python windows."""
    assert W.hann(4, requires_grad=True).grad_fn.name() == "SumBackward1"
    assert W.gaussian(4, requires_grad=True).grad_fn.name() == "ExpBackward0"
    assert W.bartlett(4, requires_grad=True).grad_fn.name() == "RsubBackward1"
    assert W.kaiser(1, requires_grad=True).is_leaf


def test_language_namespace():
    state = {}
    signal = resolve("torch.signal", state)
    windows = import_from(signal, "windows")
    assert import_from(windows, "kaiser") is W.kaiser
    assert resolve("torch.signal.windows", state) is windows
    assert sorted(windows.table) == sorted(W.__all__) and len(W.__all__) == 11
    assert math.isclose(windows.table["hann"](3, dtype=E.float64)[1].item(), 1.0)
